// The receipt of each output a render job made: what was asked for (the input's kind and name, no
// key or spec text), what rendered it, and its files named as the client downloads them, with no
// server paths. Written as JSON beside the video.
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { RenderReceipt } from '../../shared/protocol/receipt.ts';
import { buildRenderReceipt, writeReceipt } from '../engine/receipt.ts';
import type { RenderOptions, RenderResult } from '../engine/render-video.ts';
import type { ResolvedInput } from './render-job-input.ts';
import type { RenderAssignment } from './render-job-messages.ts';

/**
 * Receipts name files relative to the render project, so they carry no server paths; a file outside
 * it (remote media in the cache) is named by its source alone.
 */
export async function projectRelative(root: string): Promise<(file: string) => string | undefined> {
  const roots = [...new Set([root, await realpath(root).catch(() => root)])];
  return (file) => {
    for (const base of roots) {
      const relative = path.relative(base, file);
      if (relative && !relative.startsWith('..') && !path.isAbsolute(relative)) {
        return relative.split(path.sep).join('/');
      }
    }
    return undefined;
  };
}

/** What a request asked for, for the receipt: the input's kind and how it was named (no key). */
function requestedInput(input: RenderAssignment['input']): Record<string, unknown> {
  switch (input.kind) {
    case 'key':
      return { kind: 'key', key: input.key, ...(input.variables ? { variables: input.variables } : {}) };
    case 'spec':
      return { kind: 'spec', ...(input.variables ? { variables: input.variables } : {}) };
    case 'prompt':
      return { kind: 'prompt', prompt: input.prompt, provider: input.provider, model: input.model };
    case 'edit':
      return { kind: 'edit', change: input.change, provider: input.provider, model: input.model };
  }
}

/** One rendered output of a job, for its receipt. */
export interface ReceiptOutput {
  /** Its place in options.outputs; 0 for a job of one output. */
  index: number;
  /** '' for the first output, `-n` for output n > 0: how its files are named. */
  suffix: string;
  extension: string;
  options: RenderOptions;
  result: RenderResult;
}

/** Builds output `output`'s receipt and writes it to the work folder; returns it and its path. */
export async function writeOutputReceipt(
  job: Pick<RenderAssignment, 'jobId' | 'input' | 'options' | 'toolchain' | 'workDir'>,
  resolved: Pick<ResolvedInput, 'subject'>,
  displayPath: (file: string) => string | undefined,
  output: ReceiptOutput,
): Promise<{ receipt: RenderReceipt; receiptPath: string }> {
  const { index, suffix, extension } = output;
  // Named as the client downloads them; the request as the job holds it (the spec is hashed).
  const receipt = await buildRenderReceipt({
    maker: 'api',
    subject: resolved.subject,
    request: {
      input: requestedInput(job.input),
      options: job.options,
      ...(job.options.outputs ? { output: index } : {}),
    },
    options: output.options,
    result: output.result,
    toolchain: job.toolchain,
    displayPath,
    outputName: `${job.jobId}${suffix}${extension}`,
    posterName: `${job.jobId}${suffix}.poster.png`,
  });
  const receiptPath = path.join(job.workDir, `receipt${suffix}.json`);
  await writeReceipt(receiptPath, receipt);
  return { receipt, receiptPath };
}
