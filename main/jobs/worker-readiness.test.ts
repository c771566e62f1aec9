import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { WorkerProblems } from './worker-checks.ts';
import { WorkerReadiness } from './worker-readiness.ts';

const log = pino({ level: 'silent' });
const STORAGE_AWAY = 'storage is not writable at /srv/files (ENOSPC): check that LOCAL_STORAGE_DIR …';

/** Readiness whose checks answer what `next` holds at the time. */
function readinessWith(first: WorkerProblems) {
  let next: WorkerProblems = first;
  const readiness = new WorkerReadiness(async () => next, first, log);
  return {
    readiness,
    answerNext(problems: WorkerProblems) {
      next = problems;
    },
  };
}

describe('WorkerReadiness', () => {
  it('is ready only from taking renders until draining, while both checks pass', () => {
    const { readiness } = readinessWith({});
    expect(readiness.answer()).toEqual({
      ready: false,
      reason: 'queue: not taking renders yet: starting',
      checks: { queue: 'not taking renders yet: starting', redis: 'ok', storage: 'ok' },
    });
    readiness.taking();
    expect(readiness.answer()).toEqual({
      ready: true,
      checks: { queue: 'ok', redis: 'ok', storage: 'ok' },
    });
    readiness.draining();
    expect(readiness.answer()).toMatchObject({
      ready: false,
      reason: 'queue: not taking renders: draining after a stop signal',
    });
    // A drain is final: nothing makes the worker take renders again.
    readiness.taking();
    expect(readiness.answer().ready).toBe(false);
  });

  it('answers from the last check: not ready, naming what failed, until it passes again', async () => {
    const { readiness, answerNext } = readinessWith({});
    readiness.taking();
    answerNext({ storage: STORAGE_AWAY, redis: 'cannot reach Redis at redis://redis:6379 (REDIS_URL): …' });
    // Nothing changes until a check runs.
    expect(readiness.answer().ready).toBe(true);
    await readiness.refresh();
    expect(readiness.answer()).toEqual({
      ready: false,
      reason: `redis: cannot reach Redis at redis://redis:6379 (REDIS_URL): …; storage: ${STORAGE_AWAY}`,
      checks: {
        queue: 'ok',
        redis: 'cannot reach Redis at redis://redis:6379 (REDIS_URL): …',
        storage: STORAGE_AWAY,
      },
    });
    answerNext({});
    await readiness.refresh();
    expect(readiness.answer().ready).toBe(true);
  });

  it('runs one check at a time', async () => {
    let running = 0;
    let most = 0;
    const readiness = new WorkerReadiness(
      async () => {
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running--;
        return {};
      },
      {},
      log,
    );
    await Promise.all([readiness.refresh(), readiness.refresh(), readiness.refresh()]);
    expect(most).toBe(1);
    await readiness.stop();
  });
});
