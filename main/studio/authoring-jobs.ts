// The studio's authoring jobs: one at a time per host, each in its own child process
// (authoring-process.ts), read by the UI through polling. A generate ends by writing a new spec file
// in the project; an edit ends with the changed spec held here until the UI accepts it (the UI
// writes it through the editor, so it can be undone and never lands over unsaved work unasked).
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  AuthoringAvailability,
  AuthoringBriefing,
  AuthoringJobRequest,
  AuthoringJobView,
} from '../../shared/studio/authoring.ts';
import { runningAuthoringJob } from '../../shared/studio/authoring.ts';
import type { VideoSpec } from '../../shared/spec/schema.ts';
import { AiConfigError, chooseProvider, readAiSettings } from '../authoring/providers.ts';
import type { ProviderSettings } from '../authoring/providers.ts';
import { SERVER_SECRET_ENV, forkChild, killChildGroup } from '../processes/child-process.ts';
import { projectForFile } from '../project/load.ts';
import type { AuthoringAssignment, AuthoringProcessMessage } from './authoring-process.ts';
import { StudioInputError } from './errors.ts';
import { specSlug, writeNewSpec } from './spec-file-names.ts';

const AUTHORING_PROCESS = fileURLToPath(new URL('./authoring-process-entry.mjs', import.meta.url));
/** Finished jobs kept for the UI to read back. */
const KEPT_JOBS = 8;
/** The end of what a failing child printed, for its error line. */
const STDERR_TAIL_CHARS = 2000;
/** The variables `kino generate` reads, said where the studio shows it has no provider. */
export const NO_PROVIDER_MESSAGE =
  'No AI provider is configured: set OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, or OPENAI_COMPATIBLE_BASE_URL with OPENAI_COMPATIBLE_MODEL, in the environment kino studio runs in, and restart it';

interface Job {
  view: AuthoringJobView;
  started: number;
  briefing: AuthoringBriefing | undefined;
  /** A generate's project root and its prompt (the slug when the spec has no title). */
  target: { root: string; prompt: string } | undefined;
  stop: (() => void) | undefined;
}

/** Where a job works: a file of the project (the open composition, or a place in a chosen folder). */
export interface AuthoringPlace {
  projectFile: string;
}

export class StudioAuthoring {
  readonly #env: NodeJS.ProcessEnv;
  readonly #jobs = new Map<string, Job>();

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.#env = env;
  }

  /** The provider `kino generate` would use here, or which variables to set. */
  availability(): AuthoringAvailability {
    const chosen = this.#provider();
    if (!chosen.ok) return { configured: false, provider: null, model: null, message: chosen.message };
    const { name, model } = chosen.provider;
    return { configured: true, provider: name, model, message: `Authoring with ${name} ${model}` };
  }

  start(request: AuthoringJobRequest, place: AuthoringPlace): AuthoringJobView {
    const chosen = this.#provider();
    if (!chosen.ok) throw new StudioInputError('no_ai_provider', chosen.message);
    if ([...this.#jobs.values()].some((job) => job.view.state === 'running')) {
      throw new StudioInputError('authoring_busy', 'another authoring is running: wait for it or cancel it');
    }
    const { provider } = chosen;
    const job: Job = {
      view: runningAuthoringJob({
        id: randomUUID(),
        kind: request.kind,
        provider: provider.name,
        model: provider.model,
      }),
      started: performance.now(),
      briefing: undefined,
      target: undefined,
      stop: undefined,
    };
    this.#jobs.set(job.view.id, job);
    this.#prune();
    void this.#run(job, request, provider, place).catch((error: unknown) =>
      this.#fail(job, error instanceof Error ? error.message : String(error)),
    );
    return this.view(job.view.id);
  }

  view(id: string): AuthoringJobView {
    const job = this.#job(id);
    const elapsedMs =
      job.view.state === 'running' ? Math.round(performance.now() - job.started) : job.view.elapsedMs;
    return { ...job.view, elapsedMs };
  }

  briefing(id: string): AuthoringBriefing {
    const briefing = this.#job(id).briefing;
    if (!briefing) throw new StudioInputError('briefing_pending', 'the request is still being prepared');
    return briefing;
  }

  cancel(id: string): AuthoringJobView {
    const job = this.#job(id);
    if (job.view.state === 'running') {
      job.stop?.();
      this.#finish(job, { state: 'canceled', error: 'canceled' });
    }
    return this.view(id);
  }

  close(): void {
    for (const job of this.#jobs.values()) job.stop?.();
  }

  #provider() {
    try {
      const settings = readAiSettings(this.#env);
      if (settings.providers.length === 0) {
        return { ok: false as const, status: 503, message: NO_PROVIDER_MESSAGE };
      }
      return chooseProvider(settings);
    } catch (error) {
      if (error instanceof AiConfigError) return { ok: false as const, status: 400, message: error.message };
      throw error;
    }
  }

  #job(id: string): Job {
    const job = this.#jobs.get(id);
    if (!job) throw new StudioInputError('unknown_job', 'no such authoring job (the studio was restarted?)');
    return job;
  }

  #prune(): void {
    const finished = [...this.#jobs.values()].filter((job) => job.view.state !== 'running');
    for (const job of finished.slice(0, Math.max(0, finished.length - KEPT_JOBS))) {
      this.#jobs.delete(job.view.id);
    }
  }

  #finish(job: Job, patch: Partial<AuthoringJobView>): void {
    if (job.view.state !== 'running') return;
    job.view = { ...job.view, ...patch, elapsedMs: Math.round(performance.now() - job.started) };
    job.stop = undefined;
  }

  #fail(job: Job, message: string): void {
    this.#finish(job, { state: 'failed', error: message });
  }

  async #run(
    job: Job,
    request: AuthoringJobRequest,
    provider: ProviderSettings,
    place: AuthoringPlace,
  ): Promise<void> {
    const project = await projectForFile(place.projectFile);
    if (request.kind === 'generate') job.target = { root: project.root, prompt: request.prompt };
    const assignment: AuthoringAssignment = {
      request:
        request.kind === 'generate'
          ? { kind: 'prompt', prompt: request.prompt }
          : { kind: 'edit', base: request.spec as unknown as VideoSpec, change: request.change },
      provider,
      projectFile: place.projectFile,
      format: 'mp4',
    };
    // At the studio's own priority: a person waits on this, and it runs in its own process anyway.
    const child = forkChild(AUTHORING_PROCESS, { withholdEnv: SERVER_SECRET_ENV, lowPriority: false });
    job.stop = () => killChildGroup(child);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    const settled = new Promise<void>((resolve) => {
      child.on('message', (message: AuthoringProcessMessage) => {
        void this.#receive(job, message).catch((error: unknown) =>
          this.#fail(job, error instanceof Error ? error.message : String(error)),
        );
      });
      child.once('error', (error) => {
        this.#fail(job, `the authoring process failed: ${error.message}`);
        resolve();
      });
      // 'close' comes after the last IPC message, so a result is never taken for a crash.
      child.once('close', (code, signal) => {
        const said = stderr.trim().split('\n').at(-1);
        queueMicrotask(() => {
          if (job.view.state === 'running' && !this.#writing.has(job)) {
            this.#fail(
              job,
              `the authoring process exited (${signal ?? `code ${code}`})${said ? `: ${said}` : ''}`,
            );
          }
          resolve();
        });
      });
    });
    child.send(assignment);
    await settled;
  }

  /** Jobs whose result is being written: the child has gone, the job is not yet done. */
  readonly #writing = new Set<Job>();

  async #receive(job: Job, message: AuthoringProcessMessage): Promise<void> {
    if (job.view.state !== 'running') return;
    const atMs = Math.round(performance.now() - job.started);
    switch (message.type) {
      case 'briefing':
        job.briefing = { system: message.system, user: message.user, tokens: message.tokens };
        return;
      case 'stage':
        job.view = {
          ...job.view,
          steps: [...job.view.steps, { stage: message.stage, attempt: message.attempt, atMs }],
        };
        return;
      case 'warning':
        job.view = { ...job.view, warnings: [...job.view.warnings, message.message] };
        return;
      case 'failed':
        this.#finish(job, { state: 'failed', error: message.message, record: message.record });
        return;
      case 'done':
        if (job.view.kind === 'edit') {
          this.#finish(job, {
            state: 'done',
            record: message.record,
            edited: {
              spec: message.spec as unknown as Record<string, unknown>,
              changes: message.changes ?? [],
            },
          });
          return;
        }
        this.#writing.add(job);
        try {
          const target = job.target!;
          const title = typeof message.spec.title === 'string' ? message.spec.title : '';
          const file = await writeNewSpec(
            target.root,
            specSlug(title || target.prompt),
            `${JSON.stringify(message.spec, null, 2)}\n`,
          );
          this.#finish(job, {
            state: 'done',
            record: message.record,
            written: { path: file, relative: path.relative(target.root, file) },
          });
        } catch (error) {
          this.#fail(job, `the spec could not be written: ${(error as Error).message}`);
        } finally {
          this.#writing.delete(job);
        }
    }
  }
}
