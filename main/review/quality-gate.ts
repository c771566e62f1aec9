// The quality gate: findings whose codes are allowed are intentional; any other finding fails a
// strict request. The workspace (strictQuality on a job) and the render API (options.strictQuality)
// share it.
import type { QualityGate, ReviewFinding } from '../../shared/protocol/finding.ts';

export function qualityGate(findings: readonly ReviewFinding[], strict: boolean): QualityGate {
  const failing = [...new Set(findings.filter((f) => !f.allowed).map((f) => f.code))];
  return { strict, passed: failing.length === 0, failing };
}
