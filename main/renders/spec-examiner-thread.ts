// A thread that examines one large spec (spec-examination.ts) and answers with what it found.
import { parentPort, workerData } from 'node:worker_threads';
import { examineSpec } from './spec-examination.ts';
import type { OutputAsked } from './spec-examination.ts';
import type { VariableValues } from '../../shared/spec/variables.ts';

const { spec, variables, asked } = workerData as {
  spec: unknown;
  variables: VariableValues | undefined;
  asked: OutputAsked[];
};
parentPort!.postMessage(examineSpec(spec, variables, asked));
