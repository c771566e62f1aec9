// Counts failed authentications per client address, so guessing tokens is slow: after `max`
// failures inside a window, every request from that address is answered 429 until the window
// ends, a right token included (else the 429/200 difference would still answer each guess).
import { Problem } from './problem.ts';

export interface AuthFailureLimit {
  max: number;
  windowMs: number;
}

/** Addresses remembered at once; past this the oldest windows are dropped (a flood cannot grow memory). */
const MAX_TRACKED = 10_000;

export class AuthFailureLimiter {
  readonly #limit: AuthFailureLimit;
  readonly #now: () => number;
  readonly #setting: string;
  /** Per address: failures in the current window and when it ends. Map order is insertion order. */
  readonly #windows = new Map<string, { failures: number; endsAt: number }>();

  constructor(limit: AuthFailureLimit, options: { now?: () => number; setting?: string } = {}) {
    this.#limit = limit;
    this.#now = options.now ?? Date.now;
    this.#setting = options.setting ?? 'AUTH_FAILURE_LIMIT';
  }

  #current(address: string) {
    const entry = this.#windows.get(address);
    if (entry && entry.endsAt <= this.#now()) {
      this.#windows.delete(address);
      return undefined;
    }
    return entry;
  }

  /** Throws 429 (with Retry-After) while `address` is over its limit. */
  assertAllowed(address: string): void {
    const entry = this.#current(address);
    if (!entry || entry.failures < this.#limit.max) return;
    const retryAfter = Math.max(1, Math.ceil((entry.endsAt - this.#now()) / 1000));
    throw new Problem(
      429,
      'too_many_failed_authentications',
      `too many failed authentications from this address: at most ${this.#limit.max} per ${this.#limit.windowMs / 1000}s (${this.#setting}); retry after ${retryAfter}s`,
      { headers: { 'retry-after': String(retryAfter) } },
    );
  }

  recordFailure(address: string): void {
    const entry = this.#current(address);
    if (entry) {
      entry.failures++;
      return;
    }
    if (this.#windows.size >= MAX_TRACKED) {
      this.#windows.delete(this.#windows.keys().next().value!);
    }
    this.#windows.set(address, { failures: 1, endsAt: this.#now() + this.#limit.windowMs });
  }
}
