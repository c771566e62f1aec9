// What the tools run against: the render service (the same job store, queue and limits as
// POST /v1/renders), where stored files are found, and how long a render tool waits.
import type { Logger } from 'pino';
import type { ApiContext } from '../api/context.ts';
import type { RenderJob } from '../jobs/job-store.ts';
import type { FileKind } from '../storage/signed-link.ts';

export interface McpHost {
  /** stdio: files are local paths; http: files are download links. */
  transport: 'stdio' | 'http';
  service: ApiContext;
  /** How long a render tool waits for its render before answering with the job to poll. */
  waitMs: number;
  /** Where the agent finds a stored file: a local path (stdio) or a download URL (http). */
  locate(job: RenderJob, kind: FileKind): Promise<string>;
  /** stdio: where render_frame keeps full-size PNGs; http: none (the image is in the answer). */
  framesDir: string | undefined;
  /** Frames and reviews draw on this process's thread: one at a time. */
  looks: OneAtATime;
  log: Logger;
}

/** Runs tasks one after another, in the order they were given. */
export class OneAtATime {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task, task);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
