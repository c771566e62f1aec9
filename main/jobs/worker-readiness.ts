// Whether a `kino worker` can do its work now: it is taking renders (started, not draining), and
// its Redis and storage answered their last check. The checks run on a timer rather than per probe,
// so a probe is answered at once and a slow bucket is not asked once for every probe.
import type { Logger } from 'pino';
import { describeProblems } from './worker-checks.ts';
import type { WorkerProblems } from './worker-checks.ts';

/** How often Redis and storage are checked while the worker runs. */
export const READINESS_CHECK_INTERVAL_MS = 10_000;

type Phase = 'starting' | 'taking' | 'draining';

export interface ReadinessAnswer {
  ready: boolean;
  /** Why not, in one line; absent when ready. */
  reason?: string;
  checks: { queue: string; redis: string; storage: string };
}

export class WorkerReadiness {
  readonly #check: () => Promise<WorkerProblems>;
  readonly #log: Logger;
  #phase: Phase = 'starting';
  #problems: WorkerProblems;
  #timer: NodeJS.Timeout | undefined;
  #checking: Promise<void> | undefined;

  /** `problems`: what the check before the start found. */
  constructor(check: () => Promise<WorkerProblems>, problems: WorkerProblems, log: Logger) {
    this.#check = check;
    this.#problems = problems;
    this.#log = log;
  }

  /** The worker takes renders now. */
  taking(): void {
    if (this.#phase === 'starting') this.#phase = 'taking';
  }

  /** The worker takes nothing new from now on (SIGTERM): not ready, whatever the checks say. */
  draining(): void {
    this.#phase = 'draining';
  }

  /** Checks again every `intervalMs` until stop(). */
  watch(intervalMs = READINESS_CHECK_INTERVAL_MS): void {
    this.#timer = setInterval(() => void this.refresh(), intervalMs);
    this.#timer.unref();
  }

  /** Runs the checks now (one run at a time: a call during a run waits for it). */
  refresh(): Promise<void> {
    this.#checking ??= this.#check()
      .then((problems) => this.#record(problems))
      .catch((error: unknown) => this.#log.error({ err: error }, 'worker readiness check failed'))
      .finally(() => {
        this.#checking = undefined;
      });
    return this.#checking;
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#checking;
  }

  #record(problems: WorkerProblems): void {
    const before = describeProblems(this.#problems);
    const now = describeProblems(problems);
    this.#problems = problems;
    // Logged when it changes, not on every check.
    if (now && now !== before) this.#log.warn({ problems }, 'worker not ready: a dependency does not answer');
    else if (!now && before) this.#log.info('worker ready again: Redis and storage answer');
  }

  answer(): ReadinessAnswer {
    const queue =
      this.#phase === 'taking'
        ? 'ok'
        : this.#phase === 'starting'
          ? 'not taking renders yet: starting'
          : 'not taking renders: draining after a stop signal';
    const checks = {
      queue,
      redis: this.#problems.redis ?? 'ok',
      storage: this.#problems.storage ?? 'ok',
    };
    const failed = Object.entries(checks).filter(([, result]) => result !== 'ok');
    if (failed.length === 0) return { ready: true, checks };
    return { ready: false, reason: failed.map(([name, why]) => `${name}: ${why}`).join('; '), checks };
  }
}
