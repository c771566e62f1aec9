// Counts events per key in fixed windows and answers 429 once a key is over its limit: failed
// authentications per client address (AUTH_FAILURE_LIMIT), AI-authored renders per token
// (AI_RATE_LIMIT). Memory stays bounded: past MAX_TRACKED keys the oldest windows are dropped.
import { Problem } from './problem.ts';

export interface WindowLimit {
  max: number;
  windowMs: number;
}

const MAX_TRACKED = 10_000;

export interface WindowLimiterOptions {
  /** The problem's code, e.g. "too_many_failed_authentications". */
  code: string;
  /** What is counted and the setting that limits it, for the problem's detail. */
  describe: (limit: WindowLimit) => string;
  now?: () => number;
}

export class WindowLimiter {
  readonly #limit: WindowLimit;
  readonly #options: WindowLimiterOptions;
  readonly #now: () => number;
  /** Per key: events in the current window and when it ends. Map order is insertion order. */
  readonly #windows = new Map<string, { count: number; endsAt: number }>();

  constructor(limit: WindowLimit, options: WindowLimiterOptions) {
    this.#limit = limit;
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  #current(key: string) {
    const entry = this.#windows.get(key);
    if (entry && entry.endsAt <= this.#now()) {
      this.#windows.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Throws 429 (with Retry-After) while `key` is at its limit. */
  assertAllowed(key: string): void {
    const entry = this.#current(key);
    if (!entry || entry.count < this.#limit.max) return;
    const retryAfter = Math.max(1, Math.ceil((entry.endsAt - this.#now()) / 1000));
    throw new Problem(
      429,
      this.#options.code,
      `${this.#options.describe(this.#limit)}; retry after ${retryAfter}s`,
      {
        headers: { 'retry-after': String(retryAfter) },
      },
    );
  }

  record(key: string): void {
    const entry = this.#current(key);
    if (entry) {
      entry.count++;
      return;
    }
    if (this.#windows.size >= MAX_TRACKED) this.#windows.delete(this.#windows.keys().next().value!);
    this.#windows.set(key, { count: 1, endsAt: this.#now() + this.#limit.windowMs });
  }
}

/** Failed bearer-token checks per client address (AUTH_FAILURE_LIMIT). */
export function authFailureLimiter(limit: WindowLimit, now?: () => number): WindowLimiter {
  return new WindowLimiter(limit, {
    code: 'too_many_failed_authentications',
    describe: ({ max, windowMs }) =>
      `too many failed authentications from this address: at most ${max} per ${windowMs / 1000}s (AUTH_FAILURE_LIMIT)`,
    ...(now ? { now } : {}),
  });
}
