// The session CLI's HTTP client: talks only to the descriptor's endpoint, sends the token only in
// the X-Kino-Token header, never follows a redirect, and gives up after the whole-request budget.
import { request } from 'undici';
import { TOKEN_HEADER } from '../../shared/protocol/workspace.ts';
import type { SessionDescriptor } from './descriptor.ts';

export interface SessionAnswer {
  status: number;
  body: Record<string, unknown>;
}

export class SessionRequestError extends Error {
  override name = 'SessionRequestError';
}

/** The request was given up on purpose (`cancel` aborted); closing it cancels the job on the workspace. */
export class SessionCanceledError extends Error {
  override name = 'SessionCanceledError';
}

export async function callWorkspace(
  descriptor: SessionDescriptor,
  method: 'GET' | 'POST',
  pathAndQuery: string,
  body: unknown,
  timeoutSeconds: number,
  cancel?: AbortSignal,
): Promise<SessionAnswer> {
  const url = new URL(pathAndQuery, descriptor.endpoint);
  // The path is ours, but keep the guarantee local: the token goes nowhere but this origin.
  if (url.origin !== descriptor.endpoint)
    throw new SessionRequestError(`refusing to send the token to ${url.origin}`);
  const budget = AbortSignal.timeout(timeoutSeconds * 1000);
  const signal = cancel ? AbortSignal.any([budget, cancel]) : budget;
  try {
    return await exchange(descriptor, url, method, body, signal, timeoutSeconds);
  } catch (error) {
    if (cancel?.aborted) throw new SessionCanceledError('canceled');
    throw error;
  }
}

async function exchange(
  descriptor: SessionDescriptor,
  url: URL,
  method: 'GET' | 'POST',
  body: unknown,
  signal: AbortSignal,
  timeoutSeconds: number,
): Promise<SessionAnswer> {
  let answer;
  try {
    answer = await request(url, {
      method,
      headers: {
        [TOKEN_HEADER]: descriptor.token,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      // The workspace answers a capture only when it is done; the budget above bounds the wait.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  } catch (error) {
    if (signal.aborted) {
      throw new SessionRequestError(`no answer from the workspace within ${timeoutSeconds} s (--timeout)`);
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ECONNREFUSED') {
      throw new SessionRequestError(
        `the workspace at ${descriptor.endpoint} is not running (connection refused); start it again with "kino workspace ${descriptor.source}"`,
      );
    }
    throw new SessionRequestError(
      `cannot reach the workspace at ${descriptor.endpoint}: ${(error as Error).message}`,
    );
  }
  if (answer.statusCode >= 300 && answer.statusCode < 400) {
    await answer.body.dump();
    throw new SessionRequestError(
      `the workspace answered a redirect (${answer.statusCode}); not following it`,
    );
  }
  const text = await answer.body.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new SessionRequestError(`the workspace answered ${answer.statusCode} with a body that is not JSON`);
  }
  return { status: answer.statusCode, body: parsed };
}
