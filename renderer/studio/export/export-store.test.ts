import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWorkspaceClient, connectSession, problem } from '../session/fake-workspace.fixture.ts';
import { useSession } from '../session/session-store.ts';
import type { RenderAnswer } from '../../../shared/protocol/workspace.ts';
import type { PastExport } from '../../../shared/studio/bridge.ts';
import { useReview } from '../review/review-store.ts';
import { useExport } from './export-store.ts';

vi.mock('../session/resolve-bridge.ts', () => ({ resolveBridge: () => ({ mode: 'browser' }) }));

const initial = {
  export: useExport.getState(),
  review: useReview.getState(),
  session: useSession.getState(),
};
let client: FakeWorkspaceClient;

beforeEach(() => {
  useExport.setState(initial.export, true);
  useReview.setState(initial.review, true);
  useSession.setState(initial.session, true);
  client = new FakeWorkspaceClient();
  connectSession(client);
});

/** A render's answer; the receipt's own fields do not matter to the store. */
function renderResult(name: string): RenderAnswer {
  return {
    artifact: { path: `renders/${name}.mp4`, bytes: 1000, sha256: 'abc', format: 'mp4' },
    receiptPath: `renders/${name}.receipt.json`,
    receipt: { output: `renders/${name}.mp4` },
  } as unknown as RenderAnswer;
}

const past = (name: string): PastExport =>
  ({ receiptPath: `renders/${name}.receipt.json`, exists: true, receipt: {} }) as unknown as PastExport;

describe('export store: options', () => {
  it("starts as a standard mp4 at the composition's own aspect, without a poster", () => {
    expect(useExport.getState().options).toEqual({
      aspect: '',
      format: 'mp4',
      quality: 'standard',
      posterEnabled: false,
      posterAt: '1s',
    });
  });

  it('changes the options given and keeps the others', () => {
    useExport.getState().setOptions({ format: 'gif' });
    useExport.getState().setOptions({ quality: 'draft', aspect: 'square' });
    expect(useExport.getState().options).toMatchObject({ format: 'gif', quality: 'draft', aspect: 'square' });
  });
});

describe('export store: render', () => {
  it('sends the render job the options describe', async () => {
    const done = useExport.getState().render();
    expect(client.job().request).toEqual({ operation: 'render', format: 'mp4', quality: 'standard' });
    client.job().resolve(renderResult('a'));
    await done;

    useExport.getState().setOptions({
      format: 'mov',
      quality: 'high',
      aspect: 'landscape',
      posterEnabled: true,
      posterAt: '2.5s',
    });
    useReview.setState({ allowed: ['low_contrast'] });
    const again = useExport.getState().render();
    expect(client.job().request).toEqual({
      operation: 'render',
      format: 'mov',
      quality: 'high',
      aspect: 'landscape',
      poster: '2.5s',
      allowQuality: ['low_contrast'],
    });
    client.job().resolve(renderResult('b'));
    await again;
  });

  it('sends no poster when the poster is off, whatever its time', async () => {
    useExport.getState().setOptions({ posterEnabled: false, posterAt: '3s' });
    const done = useExport.getState().render();
    expect(client.job().request).not.toHaveProperty('poster');
    client.job().resolve(renderResult('a'));
    await done;
  });

  it('shows progress while it runs, then the receipt and the list of past exports', async () => {
    client.json.mockResolvedValueOnce([past('a'), past('older')]);
    const done = useExport.getState().render();
    expect(useExport.getState()).toMatchObject({
      running: true,
      progress: { stage: 'queued', framesDone: 0 },
      error: undefined,
      canceled: false,
    });
    expect(useExport.getState().startedAt).toBeTypeOf('number');

    const progress = {
      stage: 'encoding',
      framesDone: 45,
      framesTotal: 90,
      fps: 60,
      etaSeconds: 0.75,
    } as const;
    client.job().onProgress!(progress);
    expect(useExport.getState().progress).toEqual(progress);
    expect(useExport.getState().running).toBe(true);

    client.status.mockClear();
    client.job().resolve(renderResult('a'));
    await done;
    expect(useExport.getState()).toMatchObject({ running: false, error: undefined, canceled: false });
    expect(useExport.getState().last).toEqual(renderResult('a'));
    expect(client.json).toHaveBeenCalledWith('/studio/api/exports');
    expect(useExport.getState().past).toEqual([past('a'), past('older')]);
    expect(client.status).toHaveBeenCalled();
  });

  it('runs one render at a time', async () => {
    const done = useExport.getState().render();
    await useExport.getState().render();
    expect(client.runJob).toHaveBeenCalledOnce();
    client.job().resolve(renderResult('a'));
    await done;
  });

  it('cancels the running render: canceled, not an error, and the last receipt kept', async () => {
    const first = useExport.getState().render();
    client.job().resolve(renderResult('a'));
    await first;

    const done = useExport.getState().render();
    const { signal } = client.job();
    useExport.getState().cancel();
    expect(signal!.aborted).toBe(true);
    await done;
    expect(useExport.getState()).toMatchObject({ running: false, canceled: true, error: undefined });
    expect(useExport.getState().last).toEqual(renderResult('a'));

    // The next render starts afresh.
    const next = useExport.getState().render();
    expect(useExport.getState().canceled).toBe(false);
    expect(client.job().signal!.aborted).toBe(false);
    client.job().resolve(renderResult('b'));
    await next;
    expect(useExport.getState().last).toEqual(renderResult('b'));
  });

  it('cancel with nothing running does nothing', () => {
    expect(() => useExport.getState().cancel()).not.toThrow();
    expect(useExport.getState()).toMatchObject({ running: false, canceled: false });
  });

  it('shows why a render failed', async () => {
    const done = useExport.getState().render();
    client.job().reject(problem(422, 'quality_gate_failed', 'the review found errors: text_overflow'));
    await done;
    expect(useExport.getState()).toMatchObject({
      running: false,
      canceled: false,
      error: 'the review found errors: text_overflow',
      last: undefined,
    });
  });

  it('keeps the last receipt when the list of past exports cannot be read', async () => {
    useExport.setState({ past: [past('older')] });
    client.json.mockRejectedValueOnce(problem(500, 'internal', 'no list'));
    const done = useExport.getState().render();
    client.job().resolve(renderResult('a'));
    await done;
    expect(useExport.getState()).toMatchObject({ error: undefined, last: renderResult('a') });
    expect(useExport.getState().past).toEqual([past('older')]);
  });
});
