// Runs a look (look-work.ts) in its own process, so that what a client sends can cost it nothing but
// that process: a 7680×7680 frame of blurred text or a type-level bomb no longer holds the server's
// event loop (health checks, polls and downloads answer meanwhile). The process runs below the
// server's priority, without its secrets, with a capped heap, and is killed (its whole group) when
// the call is canceled or runs past its time.
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { SERVER_SECRET_ENV, forkChild, killChildGroup } from '../processes/child-process.ts';
import type { LookRequest, LookResult } from './look-work.ts';
import type { LookAnswer } from './look-process.ts';
import { ToolFailure, UNEXPECTED_FAILURE } from './tool-result.ts';

const LOOK_PROCESS = fileURLToPath(new URL('./look-process-entry.mjs', import.meta.url));

/** A frame or a review taking longer than this is stopped. */
export const LOOK_TIMEOUT_MS = 120_000;
/** A type check: the compiler on one composition of at most 200,000 characters. */
export const TYPE_CHECK_TIMEOUT_MS = 20_000;
/** The look process's JavaScript heap (Skia's pixels live outside it). */
export const LOOK_HEAP_MB = 1024;

const WHAT: Record<LookRequest['op'], string> = {
  frame: 'drawing the frame',
  review: 'the review',
  validate: 'the type check',
  print: 'printing the spec',
};

export interface LookRunOptions {
  signal: AbortSignal;
  timeoutMs: number;
  log: Logger;
}

export function runLook<Op extends LookRequest['op']>(
  request: Extract<LookRequest, { op: Op }>,
  options: LookRunOptions,
): Promise<Extract<LookResult, { op: Op }>> {
  options.signal.throwIfAborted();
  const child = forkChild(LOOK_PROCESS, { withholdEnv: SERVER_SECRET_ENV, maxHeapMb: LOOK_HEAP_MB });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-2000);
  });
  return new Promise<Extract<LookResult, { op: Op }>>((resolve, reject) => {
    let answered = false;
    const finish = (outcome: () => void) => {
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      killChildGroup(child);
      outcome();
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new ToolFailure(
              `${WHAT[request.op]} took longer than ${Math.round(options.timeoutMs / 1000)} s and was stopped: ask for less (a smaller aspect, fewer frames, simpler effects)`,
            ),
          ),
        ),
      options.timeoutMs,
    );
    const onAbort = () => finish(() => reject(options.signal.reason));
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.once('message', (answer: LookAnswer) =>
      finish(() => {
        if (answer.ok) resolve(answer.result as Extract<LookResult, { op: Op }>);
        else if (answer.message !== undefined) reject(new ToolFailure(answer.message));
        else {
          options.log.error({ worker: answer.unexpected }, 'MCP look failed');
          reject(new ToolFailure(UNEXPECTED_FAILURE));
        }
      }),
    );
    // 'close', not 'exit': it comes after the IPC channel has delivered everything the worker sent.
    child.once('close', (code, signal) =>
      finish(() => {
        // Out of heap, or killed from outside: the caller learns what it may do about it.
        options.log.warn(
          { code, signal, stderr: stderr.slice(-500) },
          'MCP look process ended without an answer',
        );
        reject(
          new ToolFailure(
            `${WHAT[request.op]} ran out of memory or was stopped before it finished: ask for less (a smaller aspect, fewer frames, a smaller input)`,
          ),
        );
      }),
    );
    child.send(request);
  });
}
