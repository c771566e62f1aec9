// Authoring with words in the studio: Generate (a prompt becomes a new spec file in the project) and
// Edit with words (the open spec and a change become a changed spec, written only once the user
// accepts it). The host runs the same authoring as `kino generate` / `kino edit` with the provider
// its environment configures; the UI starts a job and polls it for its stages and record.
import type { FromSchema } from 'json-schema-to-ts';
import type { AuthoringRecord } from '../protocol/authoring-record.ts';

export const MAX_PROMPT_CHARS = 4000;
export const MAX_CHANGE_CHARS = 2000;

/** What the UI asks for (POST /studio/api/authoring/jobs, and the desktop's IPC). */
export const AuthoringJobRequestSchema = {
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'prompt'],
      properties: {
        kind: { const: 'generate' },
        prompt: { type: 'string', minLength: 1, maxLength: MAX_PROMPT_CHARS },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'spec', 'change'],
      properties: {
        kind: { const: 'edit' },
        /** The spec as the editor holds it now (unsaved edits included). */
        spec: { type: 'object' },
        change: { type: 'string', minLength: 1, maxLength: MAX_CHANGE_CHARS },
      },
    },
  ],
} as const;

export type AuthoringJobRequest = FromSchema<typeof AuthoringJobRequestSchema>;

/** Whether this host can author, and if not, how to make it. */
export interface AuthoringAvailability {
  configured: boolean;
  provider: string | null;
  model: string | null;
  /** One line: the provider in use, or which environment variables to set. */
  message: string;
}

export interface AuthoringStep {
  stage: 'authoring' | 'reviewing';
  /** 1 for the first answer, 2 for the first repair, … */
  attempt: number;
  /** Since the job started. */
  atMs: number;
}

export interface AuthoringJobView {
  id: string;
  kind: 'generate' | 'edit';
  state: 'running' | 'done' | 'failed' | 'canceled';
  provider: string;
  model: string;
  steps: AuthoringStep[];
  warnings: string[];
  elapsedMs: number;
  /** Once the authoring ended (also when it failed after some answers). */
  record: AuthoringRecord | null;
  /** One line, when it failed. */
  error: string | null;
  /** Generate: the new spec file (never one that existed). */
  written: { path: string; relative: string } | null;
  /** Edit: the changed spec, not written anywhere, and the JSON pointers that differ from the base. */
  edited: { spec: Record<string, unknown>; changes: string[] } | null;
}

/** A job as it starts: running, with nothing done yet. */
export function runningAuthoringJob(
  start: Pick<AuthoringJobView, 'id' | 'kind' | 'provider' | 'model'>,
): AuthoringJobView {
  return {
    ...start,
    state: 'running',
    steps: [],
    warnings: [],
    elapsedMs: 0,
    record: null,
    error: null,
    written: null,
    edited: null,
  };
}

/** What the model is sent: the instructions (the spec guide, the assets) and the request. */
export interface AuthoringBriefing {
  system: string;
  user: string;
  /** Input tokens of the first call (o200k_base), the answer's schema included. */
  tokens: number;
}
