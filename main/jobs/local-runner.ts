// The in-process runner for one machine: claims queued jobs from the store, up to
// RENDER_CONCURRENCY at a time, and runs each in its own worker process, so the HTTP event loop
// stays free while frames are drawn and encoded.
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { defaultRasterThreads } from '../engine/raster-threads.ts';
import type { RenderStorage } from '../storage/storage.ts';
import type { JobStore, RenderJob } from './job-store.ts';
import { RenderProcess } from './render-process.ts';
import type { RenderProcessOptions } from './render-process.ts';
import type { RenderRunner } from './render-runner.ts';

export interface LocalRunnerOptions {
  store: JobStore;
  storage: RenderStorage;
  concurrency: number;
  maxAttempts: number;
  renderProject: string;
  /** Scratch space for workers; each job gets a folder that is removed when it ends. */
  workRoot: string;
  /** A render running longer than this is stopped and failed; 0 = no limit. */
  timeoutMs: number;
  log: Logger;
  now?: () => number;
  authoring?: RenderProcessOptions['authoring'];
}

export class LocalRunner implements RenderRunner {
  readonly #options: LocalRunnerOptions;
  readonly #active = new Map<string, RenderProcess>();
  readonly #now: () => number;
  #accepting = false;
  /** One claim loop at a time: two wakes never claim past the concurrency. */
  #waking: Promise<void> | undefined;
  #wakeAgain = false;

  constructor(options: LocalRunnerOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  get accepting(): boolean {
    return this.#accepting;
  }

  get runningCount(): number {
    return this.#active.size;
  }

  /** Settles jobs a dead process left running, clears stale scratch space, then starts taking work. */
  async start(): Promise<void> {
    const { store, log, maxAttempts, workRoot } = this.#options;
    const recovered = await store.recoverInterrupted(maxAttempts, this.#now());
    for (const id of recovered.requeued)
      log.warn({ jobId: id }, 'render was interrupted by a stop; queued again');
    for (const id of recovered.failed) log.error({ jobId: id }, 'render was interrupted too often; failed');
    await rm(workRoot, { recursive: true, force: true });
    await mkdir(workRoot, { recursive: true });
    this.#accepting = true;
    this.#wake();
  }

  async submitted(): Promise<void> {
    this.#wake();
  }

  /** Fills free slots with queued jobs. */
  #wake(): void {
    if (this.#waking) {
      this.#wakeAgain = true;
      return;
    }
    this.#waking = this.#claimWhileFree()
      .catch((error: unknown) => this.#options.log.error({ err: error }, 'claiming a render failed'))
      .finally(() => {
        this.#waking = undefined;
        if (this.#wakeAgain) {
          this.#wakeAgain = false;
          this.#wake();
        }
      });
  }

  async #claimWhileFree(): Promise<void> {
    while (this.#accepting && this.#active.size < this.#options.concurrency) {
      const job = await this.#options.store.claimNext(this.#now());
      if (!job) return;
      this.#launch(job);
    }
  }

  async cancel(id: string): Promise<void> {
    this.#active.get(id)?.end('cancel');
  }

  async stop(graceMs: number): Promise<void> {
    this.#accepting = false;
    await this.#waking;
    const all = () => Promise.all([...this.#active.values()].map((render) => render.done));
    const timedOut = await Promise.race([
      all().then(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), graceMs).unref()),
    ]);
    if (timedOut) {
      for (const render of this.#active.values()) render.end('requeue');
      await all();
    }
  }

  #launch(job: RenderJob): void {
    const { concurrency, workRoot } = this.#options;
    // Renders running side by side share the cores: each weighs threads against its share.
    const cores = Math.max(1, Math.floor(defaultRasterThreads() / concurrency));
    // A folder of its own for each attempt: the last one's is removed as this one starts.
    const workDir = path.join(workRoot, `${job.id}-${randomBytes(3).toString('hex')}`);
    const render = new RenderProcess(job, workDir, {
      ...this.#options,
      cores,
      now: this.#now,
    });
    this.#active.set(job.id, render);
    void render.done.finally(() => {
      this.#active.delete(job.id);
      this.#wake();
    });
  }
}
