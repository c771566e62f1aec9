import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FakeWorkspaceClient,
  SESSION_INFO,
  connectSession,
  problem,
} from '../session/fake-workspace.fixture.ts';
import { currentRevision, useSession } from '../session/session-store.ts';
import type { FindingCode, ReviewFinding } from '../../../shared/protocol/finding.ts';
import type { InspectAnswer, ReviewAnswer } from '../../../shared/protocol/workspace.ts';
import type { PreviewPlayer } from '../../player/preview-player.ts';
import { usePreview } from '../preview/preview-store.ts';
import { isStale, useReview } from './review-store.ts';

vi.mock('../session/resolve-bridge.ts', () => ({ resolveBridge: () => ({ mode: 'browser' }) }));

/** localStorage as the browser keeps it, in memory (Node has none). */
class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

const initial = {
  review: useReview.getState(),
  preview: usePreview.getState(),
  session: useSession.getState(),
};
let client: FakeWorkspaceClient;
let storage: MemoryStorage;
let revoked: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  useReview.setState(initial.review, true);
  usePreview.setState(initial.preview, true);
  useSession.setState(initial.session, true);
  client = new FakeWorkspaceClient();
  connectSession(client);
  storage = new MemoryStorage();
  vi.stubGlobal('localStorage', storage);
  revoked = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function finding(code: FindingCode, frameIndex: number, sourceRevision = 'rev-1'): ReviewFinding {
  return {
    code,
    severity: 'warning',
    interval: { startFrame: frameIndex, endFrame: frameIndex + 10, startSeconds: 0, endSeconds: 0 },
    message: `${code} at ${frameIndex}`,
    remedy: 'fix it',
    allowed: false,
    inspect: { operation: 'inspect', frameIndex, sourceRevision },
  };
}

/** A review's answer; the store reads its findings, the pane the rest. */
function reviewResult(findings: ReviewFinding[]): ReviewAnswer {
  return {
    operation: 'review',
    sourceRevision: 'rev-1',
    backend: 'skia',
    workerPid: 4242,
    startupMilliseconds: 0,
    captureMilliseconds: 100,
    elapsedMilliseconds: 120,
    samples: [],
    findings,
    qualityGate: { strict: false, passed: true, failing: [] },
  } as unknown as ReviewAnswer;
}

/** An inspect's answer; the store reads the frame's path, the pane the rest. */
function inspectResult(frameIndex: number): InspectAnswer {
  return {
    operation: 'inspect',
    sourceRevision: 'rev-1',
    backend: 'skia',
    workerPid: 4242,
    startupMilliseconds: 0,
    captureMilliseconds: 10,
    elapsedMilliseconds: 12,
    frame: {
      index: frameIndex,
      seconds: frameIndex / 30,
      path: `inspect/frame-${frameIndex}.png`,
      visible: [],
    },
  } as unknown as InspectAnswer;
}

/** Runs a review that finds `findings`. */
async function review(findings: ReviewFinding[]) {
  const done = useReview.getState().run();
  client.job().resolve(reviewResult(findings));
  await done;
}

describe('review store: running a review', () => {
  it('sends the frame count, determinism, the previewed aspect and the allowed codes', async () => {
    usePreview.setState({ aspect: 'square' });
    useReview.getState().setReviewFrames(6);
    useReview.getState().setDeterminism(true);
    useReview.setState({ allowed: ['low_contrast'] });
    const done = useReview.getState().run();
    expect(useReview.getState().running).toBe(true);
    expect(client.job().request).toEqual({
      operation: 'review',
      reviewFrames: 6,
      reviewDeterminism: true,
      aspect: 'square',
      allowQuality: ['low_contrast'],
    });
    client.job().resolve(reviewResult([finding('text_overflow', 30)]));
    await done;
    expect(useReview.getState()).toMatchObject({ running: false, error: undefined });
    expect(useReview.getState().result!.findings.map((f) => f.code)).toEqual(['text_overflow']);
  });

  it('sends 12 frames without determinism by default, and nothing else', async () => {
    await review([]);
    expect(client.job().request).toEqual({ operation: 'review', reviewFrames: 12, reviewDeterminism: false });
  });

  it('keeps the frame count between 1 and 24, whole', () => {
    const { setReviewFrames } = useReview.getState();
    setReviewFrames(30);
    expect(useReview.getState().reviewFrames).toBe(24);
    setReviewFrames(0);
    expect(useReview.getState().reviewFrames).toBe(1);
    setReviewFrames(7.6);
    expect(useReview.getState().reviewFrames).toBe(8);
    setReviewFrames(Number.NaN);
    expect(useReview.getState().reviewFrames).toBe(1);
  });

  it('shows why a review failed and keeps the previous findings', async () => {
    await review([finding('blank_frame', 0)]);
    const done = useReview.getState().run();
    client.job().reject(problem(422, 'compile_failed', 'hello.ts:3:1: unexpected token'));
    await done;
    expect(useReview.getState()).toMatchObject({ running: false, error: 'hello.ts:3:1: unexpected token' });
    expect(useReview.getState().result!.findings.map((f) => f.code)).toEqual(['blank_frame']);
  });
});

describe('review store: progress', () => {
  it('counts the samples the workspace reports drawn, and forgets the count when done', async () => {
    const done = useReview.getState().run();
    expect(useReview.getState().progress).toEqual({ done: 0, total: 12 });
    const report = (framesDone: number, framesTotal: number) =>
      client.job().onProgress!({ stage: 'reviewing', framesDone, framesTotal, fps: 0, etaSeconds: null });
    report(3, 10); // fewer samples than asked: a short composition
    expect(useReview.getState().progress).toEqual({ done: 3, total: 10 });
    client.job().onProgress!({ stage: 'queued', framesDone: 0, framesTotal: 0, fps: 0, etaSeconds: null });
    expect(useReview.getState().progress).toEqual({ done: 3, total: 10 });
    report(10, 10);
    client.job().resolve(reviewResult([]));
    await done;
    expect(useReview.getState()).toMatchObject({ running: false, progress: undefined });
  });

  it('clears an error that was about an older revision', async () => {
    const done = useReview.getState().run();
    client.job().reject(problem(422, 'compile_failed', 'hello.ts:3:1: unexpected token'));
    await done;
    useReview.getState().clearError();
    expect(useReview.getState().error).toBeUndefined();
  });
});

describe('review store: stale findings', () => {
  it('marks the findings stale once the source revision moves on, not before', async () => {
    await review([finding('text_overflow', 30, 'rev-1')]);
    const [listed] = useReview.getState().result!.findings;
    expect(isStale(listed!, currentRevision())).toBe(false);

    // The author saves: the workspace reports a new revision on the next status poll.
    client.revision = 'rev-2';
    await useSession.getState().refreshStatus();
    expect(currentRevision()).toBe('rev-2');
    expect(isStale(listed!, currentRevision())).toBe(true);
  });

  it('is not stale while the revision is unknown', () => {
    expect(isStale(finding('blank_frame', 0, 'rev-1'), undefined)).toBe(false);
  });
});

describe('review store: allowed codes', () => {
  it('marks a code intentional, per composition, and updates the findings listed at once', async () => {
    await review([finding('low_contrast', 10), finding('text_overflow', 20), finding('low_contrast', 40)]);
    useReview.getState().toggleAllowed('text_overflow');
    useReview.getState().toggleAllowed('low_contrast');
    expect(useReview.getState().allowed).toEqual(['low_contrast', 'text_overflow']);
    expect(useReview.getState().result!.findings.map((f) => f.allowed)).toEqual([true, true, true]);
    expect(JSON.parse(storage.getItem(`kino.studio.allowed:${SESSION_INFO.source}`)!)).toEqual([
      'low_contrast',
      'text_overflow',
    ]);

    useReview.getState().toggleAllowed('low_contrast');
    expect(useReview.getState().allowed).toEqual(['text_overflow']);
    expect(useReview.getState().result!.findings.map((f) => f.allowed)).toEqual([false, true, false]);
    expect(JSON.parse(storage.getItem(`kino.studio.allowed:${SESSION_INFO.source}`)!)).toEqual([
      'text_overflow',
    ]);
  });

  it('loads the codes stored for a composition, and only codes this studio knows', () => {
    storage.setItem(
      'kino.studio.allowed:/a.ts',
      JSON.stringify(['unsafe_area', 3, null, 'a_code_from_another_version', 'blank_frame']),
    );
    useReview.getState().loadAllowed('/a.ts');
    expect(useReview.getState().allowed).toEqual(['unsafe_area', 'blank_frame']);
    useReview.getState().loadAllowed('/never-opened.ts');
    expect(useReview.getState().allowed).toEqual([]);
  });

  it('starts with none when what is stored is not JSON', () => {
    useReview.setState({ allowed: ['low_contrast'] });
    storage.setItem('kino.studio.allowed:/a.ts', '{not json');
    useReview.getState().loadAllowed('/a.ts');
    expect(useReview.getState().allowed).toEqual([]);
  });
});

describe('review store: Inspect frame', () => {
  function attachPlayer() {
    const player = { pause: vi.fn(), seek: vi.fn(), togglePlay: vi.fn(), step: vi.fn(), setAspect: vi.fn() };
    usePreview.getState().attach(player as unknown as PreviewPlayer);
    return player;
  }

  it("pauses the preview at the finding's frame and inspects it at the reviewed revision", async () => {
    const player = attachPlayer();
    usePreview.setState({ aspect: 'landscape' });
    const target = finding('offscreen_element', 48, 'rev-1');
    const done = useReview.getState().inspectFinding(target);
    expect(player.pause).toHaveBeenCalled();
    expect(player.seek).toHaveBeenCalledWith(48);
    expect(useReview.getState().inspect).toMatchObject({ finding: target, frameIndex: 48, running: true });
    expect(client.job().request).toEqual({
      operation: 'inspect',
      frameIndex: 48,
      sourceRevision: 'rev-1',
      aspect: 'landscape',
    });
    client.job().resolve(inspectResult(48));
    await done;
    expect(useReview.getState().inspect).toMatchObject({
      finding: target,
      frameIndex: 48,
      running: false,
      result: inspectResult(48),
      imageUrl: 'blob:kino/inspect/frame-48.png',
      error: undefined,
    });
  });

  it('inspects any frame at the current revision', async () => {
    const done = useReview.getState().inspectFrame(5);
    expect(client.job().request).toEqual({ operation: 'inspect', frameIndex: 5 });
    client.job().resolve(inspectResult(5));
    await done;
    expect(useReview.getState().inspect).toMatchObject({ finding: undefined, frameIndex: 5, running: false });
  });

  it('asks for a new review when the source changed since the finding', async () => {
    const done = useReview.getState().inspectFinding(finding('text_overflow', 30, 'rev-1'));
    client.job().reject(problem(409, 'revision_mismatch', 'the source is at rev-2'));
    await done;
    expect(useReview.getState().inspect).toMatchObject({
      running: false,
      result: undefined,
      error: 'The source changed since this review: re-run review to inspect the current frames.',
    });
  });

  it('shows any other failure as it is', async () => {
    const done = useReview.getState().inspectFrame(5);
    client.job().reject(problem(500, 'worker_crashed', 'the worker crashed'));
    await done;
    expect(useReview.getState().inspect).toMatchObject({ running: false, error: 'the worker crashed' });
  });

  it('shows the newest inspect when an older one answers late, and releases the older image', async () => {
    const older = useReview.getState().inspectFrame(10);
    const newer = useReview.getState().inspectFrame(20);
    client.job(1).resolve(inspectResult(20));
    await newer;
    client.job(0).resolve(inspectResult(10));
    await older;
    expect(useReview.getState().inspect).toMatchObject({
      frameIndex: 20,
      imageUrl: 'blob:kino/inspect/frame-20.png',
    });
    expect(revoked).toHaveBeenCalledWith('blob:kino/inspect/frame-10.png');
    expect(revoked).not.toHaveBeenCalledWith('blob:kino/inspect/frame-20.png');
  });

  it('releases the previous image when inspecting again and when closed', async () => {
    const first = useReview.getState().inspectFrame(10);
    client.job().resolve(inspectResult(10));
    await first;
    const second = useReview.getState().inspectFrame(20);
    expect(revoked).toHaveBeenCalledExactlyOnceWith('blob:kino/inspect/frame-10.png');
    client.job().resolve(inspectResult(20));
    await second;
    useReview.getState().closeInspect();
    expect(useReview.getState().inspect).toBeUndefined();
    expect(revoked).toHaveBeenLastCalledWith('blob:kino/inspect/frame-20.png');
  });
});
