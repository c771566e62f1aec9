// The quality gate: findings listed in allowQuality are intentional; with strictQuality any other
// finding fails the request (the session CLI exits 2).
import type { ReviewFinding } from '../../../shared/protocol/finding.ts';
import { qualityGate as gateOf } from '../../review/quality-gate.ts';
import { WorkspaceError } from '../workspace-error.ts';
import type { WorkspaceJob } from '../../../shared/protocol/workspace.ts';
import type { QualityGate } from '../../../shared/protocol/finding.ts';

export function qualityGate(findings: readonly ReviewFinding[], job: WorkspaceJob): QualityGate {
  return gateOf(findings, job.strictQuality === true);
}

/** Throws the quality-gate failure (422) when the request is strict and findings remain. */
export function enforceQualityGate(
  gate: QualityGate,
  findings: readonly ReviewFinding[],
  result: Record<string, unknown>,
): void {
  if (!gate.strict || gate.passed) return;
  const open = findings.filter((f) => !f.allowed);
  throw new WorkspaceError(
    422,
    'quality_gate',
    `strict quality: ${open.length} finding${open.length === 1 ? '' : 's'} not allowed (${gate.failing.join(', ')}); fix them or list their codes in allowQuality`,
    { details: { ...result, findings, qualityGate: gate } },
  );
}
