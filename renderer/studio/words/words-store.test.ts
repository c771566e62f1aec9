import { beforeEach, describe, expect, it, vi } from 'vitest';
import { runningAuthoringJob } from '../../../shared/studio/authoring.ts';
import type { AuthoringJobView } from '../../../shared/studio/authoring.ts';
import type { StudioBridge } from '../../../shared/studio/bridge.ts';
import { useSession } from '../session/session-store.ts';
import { shortValue, stageLines, useWords, valueAt } from './words-store.ts';

vi.mock('../session/resolve-bridge.ts', () => ({ resolveBridge: () => ({ mode: 'browser' }) }));

const initial = { words: useWords.getState(), session: useSession.getState() };

function view(patch: Partial<AuthoringJobView> = {}): AuthoringJobView {
  return {
    ...runningAuthoringJob({
      id: '00000000-0000-4000-8000-000000000001',
      kind: 'generate',
      provider: 'openai',
      model: 'gpt-stand-in',
    }),
    ...patch,
  };
}

/** A bridge whose job answers each poll with the next view in `views`. */
function bridgeAnswering(views: AuthoringJobView[]) {
  const bridge = {
    mode: 'browser',
    startAuthoring: vi.fn(async () => view()),
    authoringJob: vi.fn(async () => views.shift() ?? view({ state: 'failed', error: 'no more views' })),
    cancelAuthoring: vi.fn(async () => view({ state: 'canceled', error: 'canceled' })),
    authoringBriefing: vi.fn(async () => ({ system: 'guide', user: 'Write the spec', tokens: 12 })),
    authoringAvailability: vi.fn(async () => ({
      configured: true,
      provider: 'openai',
      model: 'gpt-stand-in',
      message: 'Authoring with openai gpt-stand-in',
    })),
  };
  useSession.setState({ bridge: bridge as unknown as StudioBridge });
  return bridge;
}

beforeEach(() => {
  useWords.setState(initial.words, true);
  useSession.setState(initial.session, true);
});

describe('words store', () => {
  it('follows a job through its stages to its end, then stops polling', async () => {
    const authoring = { stage: 'authoring' as const, attempt: 1, atMs: 10 };
    const written = { path: '/p/specs/intro.json', relative: 'specs/intro.json' };
    const bridge = bridgeAnswering([
      view({ steps: [authoring] }),
      view({ state: 'done', steps: [authoring], written }),
    ]);
    const seen: (string | undefined)[] = [];
    const unsubscribe = useWords.subscribe((s) => seen.push(s.job?.state));
    const last = await useWords.getState().run({ kind: 'generate', prompt: 'An intro' });
    unsubscribe();
    expect(bridge.startAuthoring).toHaveBeenCalledWith({ kind: 'generate', prompt: 'An intro' });
    expect(last?.written).toEqual(written);
    expect(bridge.authoringJob).toHaveBeenCalledTimes(2);
    expect(seen.filter(Boolean)).toEqual(['running', 'running', 'done']);
  });

  it('keeps a refusal to start as its one line, with no job', async () => {
    const bridge = bridgeAnswering([]);
    bridge.startAuthoring.mockRejectedValueOnce(
      new Error('No AI provider is configured: set OPENAI_API_KEY'),
    );
    expect(await useWords.getState().run({ kind: 'generate', prompt: 'x' })).toBeUndefined();
    expect(useWords.getState()).toMatchObject({
      job: undefined,
      error: 'No AI provider is configured: set OPENAI_API_KEY',
    });
  });

  it('an edit keeps the text it was asked from; clear forgets it and stops following', async () => {
    const bridge = bridgeAnswering([view({ kind: 'edit' }), view({ kind: 'edit' })]);
    const running = useWords
      .getState()
      .run({ kind: 'edit', spec: { kinoSpec: 1 }, change: 'red' }, '{"kinoSpec":1}');
    await vi.waitFor(() => expect(useWords.getState().job).toBeDefined());
    expect(useWords.getState().baseText).toBe('{"kinoSpec":1}');
    useWords.getState().clear();
    expect(await running).toBeUndefined();
    expect(useWords.getState()).toMatchObject({ job: undefined, baseText: undefined });
    expect(bridge.authoringJob.mock.calls.length).toBeLessThanOrEqual(1);
  });

  it('cancels the running job and loads the briefing once', async () => {
    const bridge = bridgeAnswering([]);
    useWords.setState({ job: view() });
    await useWords.getState().cancel();
    expect(useWords.getState().job?.state).toBe('canceled');
    await useWords.getState().loadBriefing();
    await useWords.getState().loadBriefing();
    expect(bridge.authoringBriefing).toHaveBeenCalledTimes(1);
    expect(useWords.getState().briefing?.tokens).toBe(12);
  });
});

describe('stage lines', () => {
  it('names each answer, review and repair, the last one current while running', () => {
    const job = view({
      steps: [
        { stage: 'authoring', attempt: 1, atMs: 5 },
        { stage: 'reviewing', attempt: 1, atMs: 900 },
        { stage: 'authoring', attempt: 2, atMs: 1500 },
      ],
    });
    expect(stageLines(job)).toEqual([
      { label: 'Authoring with openai gpt-stand-in', atMs: 5, current: false },
      { label: 'Reviewing answer 1 on sampled frames', atMs: 900, current: false },
      { label: 'Repair 1: asking openai again', atMs: 1500, current: true },
    ]);
    expect(stageLines(view())).toEqual([{ label: 'Preparing the request', atMs: 0, current: true }]);
    expect(stageLines(view({ state: 'done', steps: job.steps })).some((line) => line.current)).toBe(false);
  });
});

describe('the diff summary', () => {
  it('reads a value at a JSON pointer, ~1 and ~0 escaped', () => {
    const spec = { scenes: [{ background: '#101826' }], 'a/b': { '~x': 1 } };
    expect(valueAt(spec, '/scenes/0/background')).toBe('#101826');
    expect(valueAt(spec, '/a~1b/~0x')).toBe(1);
    expect(valueAt(spec, '/scenes/3/background')).toBeUndefined();
    expect(valueAt(spec, '')).toBe(spec);
  });

  it('writes a value in one short line, and nothing as a dash', () => {
    expect(shortValue('#7c2d12')).toBe('"#7c2d12"');
    expect(shortValue(undefined)).toBe('—');
    expect(shortValue({ text: 'x'.repeat(100) }, 20)).toHaveLength(20);
  });
});
