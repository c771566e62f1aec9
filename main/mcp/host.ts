// What the tools run against: the render service (the same job store, queue and limits as
// POST /v1/renders), where stored files are found, and how long a render tool waits.
import type { Logger } from 'pino';
import type { ApiContext } from '../renders/context.ts';
import type { RenderJob } from '../jobs/job-store.ts';
import type { FileKind } from '../storage/signed-link.ts';
import { ToolFailure } from './tool-result.ts';
import type { FailureContext } from './tool-result.ts';

export interface McpHost extends FailureContext {
  /** stdio: files are local paths; http: files are download links. */
  transport: 'stdio' | 'http';
  service: ApiContext;
  /** How long a render tool waits for its render before answering with the job to poll. */
  waitMs: number;
  /** Where the agent finds a stored file: a local path (stdio) or a download URL (http). */
  locate(job: RenderJob, kind: FileKind): Promise<string>;
  /** stdio: where render_frame keeps full-size PNGs; http: none (the image is in the answer). */
  framesDir: string | undefined;
  /** Frames, reviews, type checks and printed specs, each in a look process: one at a time, a few waiting. */
  looks: OneAtATime;
  /** True once the server is shutting down: calls it aborts are not the caller canceling. */
  closing(): boolean;
  log: Logger;
}

/** Runs tasks one after another, in the order they were given, with at most `maxWaiting` waiting. */
export class OneAtATime {
  #tail: Promise<unknown> = Promise.resolve();
  #waiting = 0;
  readonly #maxWaiting: number;

  constructor(maxWaiting = 8) {
    this.#maxWaiting = maxWaiting;
  }

  /** Runs `task` when the ones before it are done; a task whose call was canceled meanwhile is skipped. */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.#waiting >= this.#maxWaiting) {
      return Promise.reject(
        new ToolFailure(
          `the server is busy with ${this.#waiting} frames and reviews; try again in a few seconds`,
        ),
      );
    }
    this.#waiting++;
    const start = () => {
      this.#waiting--;
      signal?.throwIfAborted();
      return task();
    };
    const result = this.#tail.then(start, start);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
