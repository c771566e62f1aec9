import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWorkspaceClient, connectSession, problem } from '../session/fake-workspace.fixture.ts';
import { useSession } from '../session/session-store.ts';
import type { FrameAnswer } from '../../../shared/protocol/workspace.ts';
import { usePreview } from '../preview/preview-store.ts';
import { isStaleFrame, useFrames } from './frames-store.ts';

vi.mock('../session/resolve-bridge.ts', () => ({ resolveBridge: () => ({ mode: 'browser' }) }));

const initial = {
  frames: useFrames.getState(),
  preview: usePreview.getState(),
  session: useSession.getState(),
};
let client: FakeWorkspaceClient;
let revoked: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  useFrames.setState(initial.frames, true);
  usePreview.setState(initial.preview, true);
  useSession.setState(initial.session, true);
  client = new FakeWorkspaceClient();
  connectSession(client);
  revoked = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

function frameResult(index: number, revision = 'rev-1'): FrameAnswer {
  return {
    operation: 'frame',
    sourceRevision: revision,
    backend: 'skia',
    workerPid: 4242,
    startupMilliseconds: 0,
    captureMilliseconds: 12,
    elapsedMilliseconds: 15,
    frame: { index, seconds: index / 30, path: `frames/frame-${index}.png`, width: 1080, height: 1920 },
    framesTotal: 90,
  };
}

/** Captures frame `index` and lets the fake workspace answer it. */
async function capture(index: number) {
  const done = useFrames.getState().capture(index);
  client.job().resolve(frameResult(index));
  return done;
}

describe('frames store: capture', () => {
  it('captures the frame the preview shows, at the previewed aspect, and adds it first in the strip', async () => {
    usePreview.setState({ frame: 37, aspect: 'square' });
    const done = useFrames.getState().capture();
    expect(useFrames.getState().capturing).toBe(true);
    expect(client.job().request).toEqual({ operation: 'frame', frameIndex: 37, aspect: 'square' });
    client.job().resolve(frameResult(37));
    const captured = await done;

    expect(captured).toMatchObject({
      frameIndex: 37,
      seconds: 37 / 30,
      aspect: 'square',
      sourceRevision: 'rev-1',
      path: 'frames/frame-37.png',
      url: 'blob:kino/frames/frame-37.png',
      width: 1080,
      height: 1920,
      captureMilliseconds: 12,
    });
    expect(useFrames.getState()).toMatchObject({ capturing: false, error: undefined });
    const second = await capture(80);
    expect(useFrames.getState().frames.map((frame) => frame.frameIndex)).toEqual([80, 37]);
    expect(second!.id).not.toBe(captured!.id);
  });

  it("sends no aspect for the composition's own, and asks the workspace status again after", async () => {
    client.status.mockClear();
    await capture(5);
    expect(client.job().request).toEqual({ operation: 'frame', frameIndex: 5 });
    expect(client.status).toHaveBeenCalled();
  });

  it('keeps the 24 newest frames and releases the image of the one dropped', async () => {
    for (let index = 0; index < 25; index++) await capture(index);
    const frames = useFrames.getState().frames;
    expect(frames).toHaveLength(24);
    expect(frames[0]!.frameIndex).toBe(24);
    expect(frames.at(-1)!.frameIndex).toBe(1);
    expect(revoked).toHaveBeenCalledExactlyOnceWith('blob:kino/frames/frame-0.png');
  });

  it('shows why a capture failed and keeps the strip as it was', async () => {
    await capture(1);
    const done = useFrames.getState().capture(2);
    client.job().reject(problem(422, 'compile_failed', 'the composition does not compile'));
    expect(await done).toBeUndefined();
    expect(useFrames.getState()).toMatchObject({
      capturing: false,
      error: 'the composition does not compile',
    });
    expect(useFrames.getState().frames.map((frame) => frame.frameIndex)).toEqual([1]);
    // The next capture clears the error.
    await capture(3);
    expect(useFrames.getState().error).toBeUndefined();
  });
});

describe('frames store: compare', () => {
  it('compares at most two frames: a third choice replaces the older one', async () => {
    const [a, b, c] = [await capture(1), await capture(2), await capture(3)];
    const { toggleCompare } = useFrames.getState();
    toggleCompare(a!.id);
    toggleCompare(b!.id);
    expect(useFrames.getState().compare).toEqual([a!.id, b!.id]);
    toggleCompare(c!.id);
    expect(useFrames.getState().compare).toEqual([b!.id, c!.id]);
  });

  it('takes a frame out of the comparison when chosen again, and closes it', async () => {
    const [a, b] = [await capture(1), await capture(2)];
    const { toggleCompare, closeCompare } = useFrames.getState();
    toggleCompare(a!.id);
    toggleCompare(b!.id);
    toggleCompare(a!.id);
    expect(useFrames.getState().compare).toEqual([b!.id]);
    closeCompare();
    expect(useFrames.getState().compare).toEqual([]);
  });

  it('removing a frame drops it from the strip and the comparison and releases its image', async () => {
    const [a, b] = [await capture(1), await capture(2)];
    useFrames.getState().toggleCompare(a!.id);
    useFrames.getState().toggleCompare(b!.id);
    useFrames.getState().remove(a!.id);
    expect(useFrames.getState().frames.map((frame) => frame.id)).toEqual([b!.id]);
    expect(useFrames.getState().compare).toEqual([b!.id]);
    expect(revoked).toHaveBeenCalledExactlyOnceWith(a!.url);
    useFrames.getState().remove(12345); // not there: nothing happens
    expect(useFrames.getState().frames).toHaveLength(1);
  });
});

describe('frames store: stale frames', () => {
  it('a frame is stale once the revision moves on from the one it was captured at, not before', async () => {
    const frame = (await capture(4))!;
    expect(isStaleFrame(frame, 'rev-1')).toBe(false);
    expect(isStaleFrame(frame, 'rev-2')).toBe(true);
    expect(isStaleFrame(frame, undefined)).toBe(false);
  });

  it('recaptures a stale frame at its index and aspect, in its place, and keeps it compared', async () => {
    usePreview.setState({ aspect: 'square' });
    const [older, stale] = [await capture(1), await capture(2)];
    useFrames.getState().toggleCompare(stale!.id);
    usePreview.setState({ aspect: undefined, frame: 60 }); // what the preview shows now does not matter
    const done = useFrames.getState().recapture(stale!.id);
    expect(client.job().request).toEqual({ operation: 'frame', frameIndex: 2, aspect: 'square' });
    client.job().resolve(frameResult(2, 'rev-2'));
    const fresh = (await done)!;
    expect(fresh).toMatchObject({ frameIndex: 2, aspect: 'square', sourceRevision: 'rev-2' });
    expect(useFrames.getState().frames.map((frame) => frame.id)).toEqual([fresh.id, older!.id]);
    expect(useFrames.getState().compare).toEqual([fresh.id]);
    expect(revoked).toHaveBeenCalledExactlyOnceWith(stale!.url);
  });

  it('keeps the stale frame when the recapture fails, and says why', async () => {
    const stale = (await capture(3))!;
    const done = useFrames.getState().recapture(stale.id);
    client.job().reject(problem(422, 'compile_failed', 'the composition does not compile'));
    expect(await done).toBeUndefined();
    expect(useFrames.getState().frames).toEqual([stale]);
    expect(useFrames.getState().error).toBe('the composition does not compile');
    useFrames.getState().clearError();
    expect(useFrames.getState().error).toBeUndefined();
  });
});
