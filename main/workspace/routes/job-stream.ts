// The streamed answer to POST /jobs (Accept: application/x-ndjson): progress lines while the job
// runs, then its result or its problem as the last line. Refusals before admission (a bad body, a
// full queue) never get here: they stay ordinary problem+json answers with their own status.
import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Problem, problemBody } from '../../http/problem.ts';
import { JOB_STREAM_CONTENT_TYPE } from '../../../shared/protocol/workspace.ts';
import type { ProblemBody } from '../../../shared/protocol/problem.ts';
import type { JobAnswer, JobStreamLine } from '../../../shared/protocol/workspace.ts';

/** Whether the client asked for the stream: `application/x-ndjson` among its Accept media types. */
export function wantsJobStream(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (!accept) return false;
  return accept
    .split(',')
    .some((range) => range.split(';', 1)[0]!.trim().toLowerCase() === JOB_STREAM_CONTENT_TYPE);
}

/**
 * The body the error handler (main/http/problem.ts) answers a plain request with, so a streamed problem
 * reads the same; anything that is not a Problem is an internal error there too.
 */
export function jobProblemBody(request: FastifyRequest, error: unknown): ProblemBody {
  const problem =
    error instanceof Problem
      ? error
      : new Problem(
          500,
          'internal_error',
          `an unexpected error happened; report request id ${request.id} to the server's operator`,
        );
  if (!(error instanceof Problem)) request.log.error({ err: error }, 'unexpected error');
  return problemBody(
    request,
    problem.status,
    problem.code,
    problem.message,
    problem.errors,
    problem.extensions,
  );
}

/**
 * Submits the job through `submit` (which throws when the job is refused, before anything is sent)
 * and answers 200 with the stream.
 */
export function streamJob(
  request: FastifyRequest,
  reply: FastifyReply,
  submit: (onLine: (line: JobStreamLine) => void) => Promise<JobAnswer>,
): FastifyReply {
  const stream = new PassThrough();
  // The client may be gone (and the stream destroyed) by the time a line is ready.
  const write = (line: JobStreamLine) => {
    if (!stream.destroyed && !stream.writableEnded) stream.write(JSON.stringify(line) + '\n');
  };
  const done = submit(write);
  void done
    .then(
      (result) => write({ type: 'result', result }),
      (error: unknown) => write({ type: 'problem', problem: jobProblemBody(request, error) }),
    )
    .finally(() => stream.end());
  return reply
    .code(200)
    .type(JOB_STREAM_CONTENT_TYPE)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(stream);
}
