// Where a submitted spec is examined: a small one on the event loop (a thread costs more than it),
// a large one in a thread of its own, bounded in time and memory, so that a legal 500-scene spec
// costs the API's event loop nothing and a hostile one cannot hold it.
import { Worker } from 'node:worker_threads';
import { Problem } from '../http/problem.ts';
import type { VariableValues } from '../../shared/spec/variables.ts';
import { examineSpec } from './spec-examination.ts';
import type { OutputAsked, SpecExamination } from './spec-examination.ts';

/** Specs longer than this (as JSON) are examined in a thread: ≈ 2 ms of checks on the event loop. */
export const THREAD_SPEC_CHARS = 32 * 1024;
/** A spec whose checks take longer than this is refused as too costly. */
export const EXAMINE_TIMEOUT_MS = 10_000;
const EXAMINE_HEAP_MB = 512;

const THREAD = new URL('./spec-examiner-thread.ts', import.meta.url);

export async function examineSubmittedSpec(
  spec: unknown,
  variables: VariableValues | undefined,
  asked: readonly OutputAsked[],
): Promise<SpecExamination> {
  if (JSON.stringify(spec).length <= THREAD_SPEC_CHARS) return examineSpec(spec, variables, asked);
  const worker = new Worker(THREAD, {
    workerData: { spec, variables, asked },
    resourceLimits: { maxOldGenerationSizeMb: EXAMINE_HEAP_MB },
    execArgv: ['--no-warnings'],
  });
  const tooCostly = (why: string) =>
    new Problem(400, 'spec_too_costly', `the spec ${why}: split it into shorter renders, or simplify it`, {
      errors: [{ pointer: '/spec', message: why }],
    });
  try {
    return await new Promise<SpecExamination>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(tooCostly(`took longer than ${EXAMINE_TIMEOUT_MS / 1000} s to check`)),
        EXAMINE_TIMEOUT_MS,
      );
      worker.once('message', (examination: SpecExamination) => {
        clearTimeout(timer);
        resolve(examination);
      });
      worker.once('error', (error) => {
        clearTimeout(timer);
        reject(
          (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? tooCostly(`needs more than ${EXAMINE_HEAP_MB} MiB to check`)
            : error,
        );
      });
    });
  } finally {
    void worker.terminate();
  }
}
