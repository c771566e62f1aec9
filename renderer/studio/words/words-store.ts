// Authoring with words: whether the host has an AI provider, and the one job this window follows (a
// Generate on Home or an Edit with words on the open spec), polled through the bridge until it ends.
import { create } from 'zustand';
import type {
  AuthoringAvailability,
  AuthoringBriefing,
  AuthoringJobRequest,
  AuthoringJobView,
} from '../../../shared/studio/authoring.ts';
import { describeError, useSession } from '../session/session-store.ts';

export const AUTHORING_POLL_MS = 400;

interface WordsState {
  availability: AuthoringAvailability | undefined;
  job: AuthoringJobView | undefined;
  /** Starting or following the job failed (the job's own failure is job.error). */
  error: string | undefined;
  briefing: AuthoringBriefing | undefined;
  /** An edit: the editor's text it was asked from, to tell whether the editor changed since. */
  baseText: string | undefined;
  loadAvailability(): Promise<void>;
  /** Starts a job and follows it to its end; resolves with the last view (undefined: not started). */
  run(request: AuthoringJobRequest, baseText?: string): Promise<AuthoringJobView | undefined>;
  cancel(): Promise<void>;
  loadBriefing(): Promise<void>;
  /** Forgets the job (after an edit is accepted or discarded). */
  clear(): void;
}

/** Each run's number: a cleared or replaced run stops polling. */
let runNumber = 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const useWords = create<WordsState>((set, get) => ({
  availability: undefined,
  job: undefined,
  error: undefined,
  briefing: undefined,
  baseText: undefined,

  async loadAvailability() {
    try {
      set({ availability: await useSession.getState().bridge.authoringAvailability() });
    } catch (error) {
      set({ error: describeError(error) });
    }
  },

  async run(request, baseText) {
    const bridge = useSession.getState().bridge;
    const mine = ++runNumber;
    set({ job: undefined, error: undefined, briefing: undefined, baseText });
    let job: AuthoringJobView | null;
    try {
      job = await bridge.startAuthoring(request);
    } catch (error) {
      set({ error: describeError(error) });
      return undefined;
    }
    if (!job) return undefined; // the folder dialog was canceled
    set({ job });
    while (job.state === 'running') {
      await sleep(AUTHORING_POLL_MS);
      if (mine !== runNumber) return undefined;
      try {
        job = await bridge.authoringJob(job.id);
      } catch (error) {
        set({ error: describeError(error) });
        return undefined;
      }
      if (mine !== runNumber) return undefined;
      set({ job });
    }
    return job;
  },

  async cancel() {
    const job = get().job;
    if (!job || job.state !== 'running') return;
    try {
      set({ job: await useSession.getState().bridge.cancelAuthoring(job.id) });
    } catch (error) {
      set({ error: describeError(error) });
    }
  },

  async loadBriefing() {
    const job = get().job;
    if (!job || get().briefing) return;
    try {
      set({ briefing: await useSession.getState().bridge.authoringBriefing(job.id) });
    } catch (error) {
      set({ error: describeError(error) });
    }
  },

  clear() {
    runNumber++;
    set({ job: undefined, error: undefined, briefing: undefined, baseText: undefined });
  },
}));

/** The stages so far, in words: "Authoring with openai gpt-5.5", "Reviewing", "Repair 1", … */
export function stageLines(job: AuthoringJobView): { label: string; atMs: number; current: boolean }[] {
  const lines = job.steps.map((step, index) => ({
    label:
      step.stage === 'reviewing'
        ? `Reviewing answer ${step.attempt} on sampled frames`
        : step.attempt === 1
          ? `Authoring with ${job.provider} ${job.model}`
          : `Repair ${step.attempt - 1}: asking ${job.provider} again`,
    atMs: step.atMs,
    current: job.state === 'running' && index === job.steps.length - 1,
  }));
  if (job.state === 'running' && lines.length === 0) {
    lines.push({ label: 'Preparing the request', atMs: 0, current: true });
  }
  return lines;
}

/** The value at a JSON pointer, or undefined where there is none. */
export function valueAt(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  let here: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (here === null || typeof here !== 'object') return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}

/** A value in one short line, for the diff summary. */
export function shortValue(value: unknown, max = 60): string {
  if (value === undefined) return '—';
  const text = JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
