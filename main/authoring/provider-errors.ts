// What went wrong talking to a provider, in the codes a job or a CLI run reports. The AI SDK has
// already retried what is worth retrying (429 and 5xx, with backoff) when an error reaches here.
import { APICallError, NoObjectGeneratedError, RetryError } from 'ai';

export type AuthoringErrorCode =
  'provider_unavailable' | 'provider_rate_limited' | 'provider_refused' | 'authoring_failed';

export class AuthoringError extends Error {
  override name = 'AuthoringError';
  readonly code: AuthoringErrorCode;
  /** For authoring_failed: the last errors the model's answer had. */
  readonly details: Record<string, unknown> | undefined;
  constructor(code: AuthoringErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

function statusOf(error: unknown): number | undefined {
  if (RetryError.isInstance(error)) return statusOf(error.lastError);
  return APICallError.isInstance(error) ? error.statusCode : undefined;
}

interface ProviderErrorBody {
  message?: unknown;
  code?: unknown;
  type?: unknown;
  n_prompt_tokens?: unknown;
  n_ctx?: unknown;
}

/** The provider's own error object: `{error: {...}}` in every wire format Kino speaks. */
function providerErrorBody(error: unknown): ProviderErrorBody | undefined {
  if (RetryError.isInstance(error)) return providerErrorBody(error.lastError);
  if (!APICallError.isInstance(error)) return undefined;
  // The raw body first: the AI SDK's parsed `data` keeps only the fields its schema knows, and drops
  // a local server's token counts (llama.cpp's n_prompt_tokens and n_ctx).
  let data: unknown = error.data;
  if (error.responseBody) {
    try {
      data = JSON.parse(error.responseBody);
    } catch {
      // Not JSON: keep what the SDK parsed, if anything.
    }
  }
  const inner = (data as { error?: unknown } | undefined)?.error;
  return typeof inner === 'object' && inner !== null ? (inner as ProviderErrorBody) : undefined;
}

const CONTEXT_PATTERN = /context (window|length|size)|prompt is too long|input token count|maximum context/i;

/**
 * What the provider refused and why, in one line: its own message (the schema rule it broke, the
 * context window), with the token counts where the provider or Kino's count has them.
 */
function refusalText(body: ProviderErrorBody | undefined, requestTokens: number | undefined): string {
  const message = typeof body?.message === 'string' ? body.message.split('\n')[0]!.slice(0, 400) : '';
  const isContext =
    CONTEXT_PATTERN.test(message) ||
    body?.code === 'context_length_exceeded' ||
    body?.type === 'exceed_context_size_error';
  if (!isContext) return message;
  const counts =
    typeof body?.n_prompt_tokens === 'number' && typeof body.n_ctx === 'number'
      ? `${body.n_prompt_tokens} prompt tokens, context window ${body.n_ctx}`
      : requestTokens === undefined
        ? ''
        : `this call sent ≈ ${requestTokens} tokens`;
  return `the request is over the model's context window${counts ? ` (${counts})` : ''}: ${message}`;
}

/** A provider failure as an AuthoringError naming the provider, never its key or its endpoint. */
export function describeProviderError(
  error: unknown,
  provider: string,
  timeoutMs: number,
  requestTokens?: number,
): AuthoringError {
  if (error instanceof AuthoringError) return error;
  const status = statusOf(error);
  const attempts = RetryError.isInstance(error) ? ` after ${error.errors.length} attempts` : '';
  if (status === 429) {
    return new AuthoringError(
      'provider_rate_limited',
      `${provider} answered 429 (rate limited)${attempts}; try again later or name another provider`,
    );
  }
  if (status === 401 || status === 403) {
    return new AuthoringError(
      'provider_unavailable',
      `${provider} refused the API key (${status}): check it`,
    );
  }
  if (status !== undefined && status >= 400 && status < 500) {
    const why = refusalText(providerErrorBody(error), requestTokens);
    return new AuthoringError(
      'provider_refused',
      `${provider} refused the request (${status})${why ? `: ${why}` : ''}`,
    );
  }
  if (status !== undefined) {
    return new AuthoringError('provider_unavailable', `${provider} answered ${status}${attempts}`);
  }
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError' || /timed? ?out/i.test(String(error))) {
    return new AuthoringError(
      'provider_unavailable',
      `${provider} did not answer within ${Math.round(timeoutMs / 1000)} s (AI_REQUEST_TIMEOUT)`,
    );
  }
  if (NoObjectGeneratedError.isInstance(error)) {
    if (error.finishReason === 'content-filter') {
      const said = error.text?.trim().slice(0, 200);
      return new AuthoringError(
        'provider_refused',
        `${provider} declined to write this video${said ? `: "${said}"` : ''}`,
      );
    }
    return new AuthoringError('authoring_failed', `${provider} answered without a JSON object`);
  }
  return new AuthoringError(
    'provider_unavailable',
    `${provider} cannot be reached (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
  );
}
