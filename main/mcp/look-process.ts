// The look process: one process per look (a frame, a review, a type check, a spec printed), forked by
// look-runner.ts. It takes one request, answers with the result or with the message its caller
// should read, and exits; the server kills it when it runs past its time.
import { runLookRequest } from './look-work.ts';
import type { LookRequest } from './look-work.ts';
import { callerFacingMessage } from './tool-result.ts';

export type LookAnswer =
  | { ok: true; result: Awaited<ReturnType<typeof runLookRequest>> }
  /** `message` is for the caller; `unexpected` carries the error for the server's log instead. */
  | { ok: false; message?: string; unexpected?: string };

process.once('message', (request: LookRequest) => {
  runLookRequest(request)
    .then(
      (result): LookAnswer => ({ ok: true, result }),
      (error: unknown): LookAnswer => {
        const message = callerFacingMessage(error);
        if (message !== undefined) return { ok: false, message };
        return {
          ok: false,
          unexpected: error instanceof Error ? (error.stack ?? error.message) : String(error),
        };
      },
    )
    .then((answer) => process.send!(answer, () => process.disconnect()));
});
