// The studio's settings, kept as JSON in the user's data folder. Only the studio writes the file, so
// it is private (0600 in a 0700 folder) and replaced atomically: a crash mid-write leaves the old one.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { DEFAULT_STUDIO_SETTINGS } from '../../shared/studio/bridge.ts';
import type { StudioSettings } from '../../shared/studio/bridge.ts';
import { FINDING_CODES } from '../../shared/protocol/finding.ts';
import { MAX_REVIEW_FRAMES } from '../../shared/protocol/review-frames.ts';
import { StudioInputError } from './errors.ts';
import { writeFileAtomically } from '../fs/atomic-write.ts';

const FIELDS = {
  apiEnabled: z.boolean(),
  // Below 1024 needs privileges on most systems, so the API would fail to start there.
  apiPort: z.number().int().min(1024).max(65535),
  reviewFrames: z.number().int().min(1).max(MAX_REVIEW_FRAMES),
  allowQuality: z
    .array(z.enum(FINDING_CODES))
    .max(FINDING_CODES.length)
    .transform((codes) => [...new Set(codes)]),
} satisfies { [K in keyof StudioSettings]: z.ZodType<StudioSettings[K]> };

const PatchSchema = z.strictObject(FIELDS).partial();

function describePatchProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue?.code === 'unrecognized_keys') return `unknown setting: ${issue.keys.join(', ')}`;
  if (!issue || issue.path.length === 0) return 'settings must be an object of setting names and values';
  return `invalid setting ${issue.path.join('.')}: ${issue.message}`;
}

/** Writes `text` to `file` whole or not at all, owner-only, creating the folder 0700. */
export async function writePrivateFileAtomically(file: string, text: string): Promise<void> {
  await writeFileAtomically(file, text, { mode: 0o600, createDirMode: 0o700 });
}

/** The file's JSON, or undefined when it is missing or not JSON (read as "no saved state"). */
export async function readJsonOrUndefined(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export class SettingsStore {
  readonly #file: string;
  /** Updates run one after another, so two at once cannot lose either's change. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(file: string) {
    this.#file = file;
  }

  /**
   * The defaults with every valid stored value over them. A value that no longer validates (a
   * hand edit, an older version's range) falls back alone instead of resetting everything.
   */
  async read(): Promise<StudioSettings> {
    const stored = await readJsonOrUndefined(this.#file);
    const settings: StudioSettings = structuredClone(DEFAULT_STUDIO_SETTINGS);
    if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return settings;
    for (const [key, schema] of Object.entries(FIELDS)) {
      const parsed = schema.safeParse((stored as Record<string, unknown>)[key]);
      if (parsed.success) Object.assign(settings, { [key]: parsed.data });
    }
    return settings;
  }

  /** Validates `patch` (unknown keys and bad values are refused), saves and returns the result. */
  update(patch: unknown): Promise<StudioSettings> {
    const parsed = PatchSchema.safeParse(patch);
    if (!parsed.success) {
      return Promise.reject(new StudioInputError('invalid_settings', describePatchProblem(parsed.error)));
    }
    const run = this.#queue.then(async () => {
      const next: StudioSettings = { ...(await this.read()), ...parsed.data };
      await writePrivateFileAtomically(this.#file, JSON.stringify(next, null, 2) + '\n');
      return next;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
