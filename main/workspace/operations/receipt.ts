// The render receipt: everything needed to tell what a file is and how it was made, written next to
// the file as <name>.render.json and returned with the render.
import { writeFile, rename } from 'node:fs/promises';
import type { RenderResult } from '../../engine/render-video.ts';
import type { VerificationCheck } from '../../verify/verify.ts';
import type { ProbeResult } from '../../verify/probe.ts';
import type { ReviewFinding } from '../../review/finding.ts';
import type { Toolchain } from '../toolchain.ts';
import type { WorkspaceJob } from '../protocol.ts';
import type { QualityGate } from './quality-gate.ts';

export interface RenderReceipt {
  receipt: 'kino.render';
  version: 1;
  createdAt: string;
  source: { path: string; sourceRevision: string };
  /** What was asked for, as sent. */
  inputs: Omit<WorkspaceJob, 'operation'>;
  /** What was rendered, every default filled in. */
  options: {
    format: string;
    quality: string;
    aspect: string | undefined;
    frames: number;
    framesTotal: number;
    width: number;
    height: number;
    fps: number;
    durationSeconds: number;
  };
  toolchain: Toolchain;
  output: { path: string; bytes: number; sha256: string; probe: ProbeResult };
  /** The poster PNG written next to the video, when asked for. */
  poster?: RenderReceiptPoster;
  verification: { ok: boolean; checks: VerificationCheck[]; mismatches: VerificationCheck[] };
  timings: { reviewMilliseconds: number; renderMilliseconds: number; verifyMilliseconds: number };
  findings: ReviewFinding[];
  qualityGate: QualityGate;
}

export interface RenderReceiptPoster {
  path: string;
  bytes: number;
  /** As asked for, and the frame it fell on. */
  time: string;
  frame: number;
}

export interface ReceiptInput {
  source: string;
  sourceRevision: string;
  job: WorkspaceJob;
  options: RenderReceipt['options'];
  toolchain: Toolchain;
  result: RenderResult;
  reviewMilliseconds: number;
  findings: ReviewFinding[];
  qualityGate: QualityGate;
  poster: RenderReceiptPoster | undefined;
}

export function buildReceipt(input: ReceiptInput): RenderReceipt {
  const { operation: _operation, ...inputs } = input.job;
  const output = input.result.output;
  return {
    receipt: 'kino.render',
    version: 1,
    createdAt: new Date().toISOString(),
    source: { path: input.source, sourceRevision: input.sourceRevision },
    inputs,
    options: input.options,
    toolchain: input.toolchain,
    output: { path: output.path, bytes: output.bytes, sha256: output.sha256, probe: output.probe },
    ...(input.poster ? { poster: input.poster } : {}),
    verification: {
      ok: output.ok,
      checks: output.checks,
      mismatches: output.checks.filter((check) => !check.ok),
    },
    timings: {
      reviewMilliseconds: Math.round(input.reviewMilliseconds),
      renderMilliseconds: Math.round(input.result.timings.totalMs - input.result.timings.verifyMs),
      verifyMilliseconds: Math.round(input.result.timings.verifyMs),
    },
    findings: input.findings,
    qualityGate: input.qualityGate,
  };
}

export async function writeReceipt(path: string, receipt: RenderReceipt): Promise<void> {
  const staging = `${path}.${process.pid}.partial`;
  await writeFile(staging, JSON.stringify(receipt, null, 2) + '\n');
  await rename(staging, path);
}
