// RFC 9457 problem details: every error the API answers, from a bad field to an unexpected fault,
// leaves as application/problem+json with a machine-readable `code`, never a stack trace.
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FieldError } from '../../shared/protocol/problem.ts';
import { describeParameterName } from './redact-url.ts';
import { collectRoutes, shownPath } from './request-path.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const ProblemSchema = {
  $id: 'Problem',
  type: 'object',
  description: 'An RFC 9457 problem details object.',
  properties: {
    type: { type: 'string', description: 'A URI naming the kind of problem.' },
    title: { type: 'string', description: 'The HTTP status phrase.' },
    status: { type: 'integer' },
    detail: { type: 'string', description: 'What went wrong and what to do about it.' },
    instance: { type: 'string', description: 'The request path.' },
    code: { type: 'string', description: 'A stable machine-readable code, e.g. "validation_failed".' },
    requestId: { type: 'string' },
    errors: {
      type: 'array',
      description: 'For validation failures: each error at its JSON pointer.',
      items: {
        type: 'object',
        properties: { pointer: { type: 'string' }, message: { type: 'string' } },
        required: ['pointer', 'message'],
        additionalProperties: false,
      },
    },
  },
  required: ['type', 'title', 'status', 'detail', 'instance', 'code', 'requestId'],
  additionalProperties: false,
} as const;

/** Response declarations for the error statuses a route can answer, for the OpenAPI document. */
export function problemResponses(...statuses: number[]): Record<number, unknown> {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: STATUS_CODES[status] ?? 'Error',
        ...(PROBLEM_HEADERS[status] ? { headers: PROBLEM_HEADERS[status] } : {}),
        content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: 'Problem#' } } },
      },
    ]),
  );
}

const PROBLEM_HEADERS: Record<number, Record<string, unknown>> = {
  401: { 'WWW-Authenticate': { type: 'string', description: 'Bearer realm="kino"' } },
  429: { 'Retry-After': { type: 'integer', description: 'Seconds until the caller may send again.' } },
  503: {
    'Retry-After': {
      type: 'integer',
      description:
        'When the cause should pass (a full queue, a job store that does not answer): seconds to wait.',
    },
  },
};

export class Problem extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;
  /** RFC 9457 extension members added to the body (e.g. the findings behind a failed gate). */
  readonly extensions: Record<string, unknown> | undefined;

  constructor(
    status: number,
    code: string,
    detail: string,
    extra: {
      errors?: FieldError[];
      headers?: Record<string, string>;
      extensions?: Record<string, unknown> | undefined;
    } = {},
  ) {
    super(detail);
    this.name = 'Problem';
    this.status = status;
    this.code = code;
    this.errors = extra.errors;
    this.headers = extra.headers ?? {};
    this.extensions = extra.extensions;
  }
}

interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Friendlier words for pattern checks, by the field they guard. */
const PATTERN_MESSAGES: Record<string, string> = {
  '/ttl': 'expected a duration like "48h": a whole number followed by s, m, h or d',
  '/options/poster': 'expected a time like "1.5s", "500ms" or "45f"',
  '/options/encoder/audioBitrate': 'expected 64k to 320k in whole kbit/s, like "96k"',
  '/id': 'expected a render id like "rnd_…"',
};

/** Turns Ajv's errors into one error per field, at the pointer a client can act on. */
export function fieldErrors(validation: AjvError[], context: string): FieldError[] {
  const where = (pointer: string) => (context === 'body' ? pointer : `${context}:${pointer || '/'}`);
  const errors: FieldError[] = [];
  for (const error of validation) {
    const at = error.instancePath;
    // The "exactly one input" rule is a oneOf of required fields: report it once, plainly.
    if (/^#\/oneOf\/\d+\//.test(error.schemaPath)) continue;
    switch (error.keyword) {
      case 'oneOf':
        errors.push({
          pointer: where(at),
          message: 'give exactly one of key, spec, prompt or edit',
        });
        break;
      case 'additionalProperties':
        // A name outside the body may be a secret sent in the wrong place ("?token%3D…"): the
        // pointer stops at its parent and the message shows the name only when it is plain.
        errors.push(
          context === 'body'
            ? { pointer: where(`${at}/${String(error.params.additionalProperty)}`), message: 'unknown field' }
            : {
                pointer: where(at),
                message: `unknown parameter ${describeParameterName(String(error.params.additionalProperty))}`,
              },
        );
        break;
      case 'required':
        errors.push({
          pointer: where(`${at}/${String(error.params.missingProperty)}`),
          message: 'is required',
        });
        break;
      case 'if':
        // Says only that a conditional failed; the error from its "then" names the field.
        break;
      case 'enum':
        errors.push({
          pointer: where(at),
          message: `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
        });
        break;
      case 'pattern':
        errors.push({
          pointer: where(at),
          // Each of several outputs carries the same fields as the options: /options/outputs/2/x reads as /options/x.
          message:
            PATTERN_MESSAGES[at.replace(/^\/options\/outputs\/\d+\//, '/options/')] ??
            error.message ??
            'has the wrong form',
        });
        break;
      default:
        errors.push({ pointer: where(at), message: error.message ?? 'is invalid' });
    }
  }
  const seen = new Set<string>();
  return errors.filter(
    (e) => !seen.has(`${e.pointer}\n${e.message}`) && seen.add(`${e.pointer}\n${e.message}`),
  );
}

/** The RFC 9457 body every problem answer carries (also the last line of a streamed job). */
export function problemBody(
  request: FastifyRequest,
  status: number,
  code: string,
  detail: string,
  errors?: FieldError[],
  extensions?: Record<string, unknown>,
) {
  return {
    ...extensions,
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    // Never the raw URL: its query, or its path, may hold a download token.
    instance: shownPath(request),
    code,
    requestId: request.id,
    ...(errors ? { errors } : {}),
  };
}

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: string,
  detail: string,
  errors?: FieldError[],
  extensions?: Record<string, unknown>,
): FastifyReply {
  return reply
    .code(status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(problemBody(request, status, code, detail, errors, extensions));
}

/** Fastify's own error codes, in the words a client needs. */
function describeFrameworkError(
  error: FastifyError,
  maxBodyBytes: number,
  bodyLimitSetting: string | undefined,
): { status: number; code: string; detail: string } | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        code: 'body_too_large',
        detail: `the request body is larger than the limit of ${maxBodyBytes} bytes${bodyLimitSetting ? ` (${bodyLimitSetting})` : ''}`,
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, code: 'unsupported_media_type', detail: 'send the body as application/json' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, code: 'invalid_json', detail: 'the body is empty; send a JSON object' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, code: 'invalid_body', detail: 'the Content-Length does not match the body' };
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    // Fastify's parser drops the cause, and prototype-poisoning keys fail the same way as bad syntax.
    return {
      status: 400,
      code: 'invalid_json',
      detail: 'the body is not valid JSON, or it holds a "__proto__" or "constructor" key, which is refused',
    };
  }
  if (error.statusCode === 429) {
    return { status: 429, code: 'rate_limited', detail: error.message };
  }
  return undefined;
}

export interface ProblemHandlerOptions {
  /** The setting that raises the body limit, when there is one. */
  bodyLimitSetting?: string;
  /**
   * The problem a failure the server knows is not its own fault stands for (a backing service
   * that does not answer is a 503 to retry, not a 500 to report), or undefined.
   */
  knownFailure?: (error: unknown) => Problem | undefined;
}

/** Call before registering routes: the paths problems show are rebuilt from them. */
export function installProblemHandlers(
  app: FastifyInstance,
  maxBodyBytes: number,
  { bodyLimitSetting, knownFailure }: ProblemHandlerOptions = {},
): void {
  collectRoutes(app);
  app.setNotFoundHandler((request, reply) =>
    sendProblem(request, reply, 404, 'not_found', `no route ${request.method} ${shownPath(request)}`),
  );

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof Problem) {
      reply.headers(error.headers);
      return sendProblem(
        request,
        reply,
        error.status,
        error.code,
        error.message,
        error.errors,
        error.extensions,
      );
    }
    if (error.validation) {
      const errors = fieldErrors(error.validation as AjvError[], error.validationContext ?? 'body');
      const where =
        error.validationContext === 'body' || !error.validationContext ? 'body' : error.validationContext;
      return sendProblem(
        request,
        reply,
        400,
        'validation_failed',
        `the request ${where} is invalid: ${errors.map((e) => `${e.pointer || '/'} ${e.message}`).join('; ')}`,
        errors,
      );
    }
    const known = describeFrameworkError(error, maxBodyBytes, bodyLimitSetting);
    if (known) return sendProblem(request, reply, known.status, known.code, known.detail);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendProblem(request, reply, error.statusCode, 'bad_request', error.message);
    }
    const failure = knownFailure?.(error);
    if (failure) {
      request.log.warn({ err: { message: error.message }, code: failure.code }, failure.message);
      reply.headers(failure.headers);
      return sendProblem(request, reply, failure.status, failure.code, failure.message);
    }
    request.log.error({ err: error }, 'unexpected error');
    return sendProblem(
      request,
      reply,
      500,
      'internal_error',
      `an unexpected error happened; report request id ${request.id} to the server's operator`,
    );
  });
}
