// Every finding code, through the real loop: a workspace on the code's trigger composition and on its
// clean twin (the trigger fixed the way the remedy says), reviewed with the session CLI.
import { cpSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINDING_CODES } from '../shared/protocol/finding.ts';
import type { FindingCode, ReviewFinding } from '../shared/protocol/finding.ts';
import { startWorkspace } from '../main/workspace/server.ts';
import { REPO_ROOT, runKino } from './cli-helpers.ts';

let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'kino-findings-'));
  cpSync(join(REPO_ROOT, 'e2e', 'fixtures', 'findings'), project, { recursive: true });
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

interface ReviewAnswer {
  sourceRevision: string;
  findings: ReviewFinding[];
}

async function review(
  fixture: string,
  extra: string[] = [],
): Promise<{ code: number | null; answer: ReviewAnswer; stderr: string }> {
  const workspace = await startWorkspace({ source: join(project, fixture) });
  try {
    const result = await runKino(['session', workspace.descriptorPath, 'review', '--json', ...extra]);
    return { code: result.code, answer: JSON.parse(result.stdout) as ReviewAnswer, stderr: result.stderr };
  } finally {
    await workspace.close();
  }
}

const flags = (code: FindingCode) => (code === 'nondeterministic' ? ['--determinism'] : []);

describe.each(FINDING_CODES.map((code) => [code]))('%s', (code) => {
  it('is raised on its trigger composition, with an interval, a remedy and an inspect action', async () => {
    const { code: exit, answer } = await review(`${code}.trigger.ts`, flags(code));
    expect(exit).toBe(0);
    const found = answer.findings.filter((f) => f.code === code);
    expect(found.length, `findings: ${answer.findings.map((f) => f.code).join(', ')}`).toBeGreaterThan(0);
    for (const finding of found) {
      expect(finding.interval.endFrame).toBeGreaterThan(finding.interval.startFrame);
      expect(finding.interval.endSeconds).toBeGreaterThan(finding.interval.startSeconds);
      expect(finding.message.length).toBeGreaterThan(10);
      expect(finding.remedy.length).toBeGreaterThan(10);
      expect(finding.allowed).toBe(false);
      expect(finding.inspect).toMatchObject({ operation: 'inspect', sourceRevision: answer.sourceRevision });
      expect(finding.inspect.frameIndex).toBeGreaterThanOrEqual(finding.interval.startFrame);
      expect(finding.inspect.frameIndex).toBeLessThan(finding.interval.endFrame);
    }
  });

  it('is not raised once the remedy is applied', async () => {
    const { code: exit, answer } = await review(`${code}.clean.ts`, flags(code));
    expect(exit).toBe(0);
    expect(answer.findings.filter((f) => f.code === code)).toEqual([]);
  });
});

describe('the quality gate', () => {
  it('fails a strict review with exit 2 and passes once the codes are allowed', async () => {
    const strict = await review('text_too_small.trigger.ts', ['--strict-quality']);
    expect(strict.code).toBe(2);
    const problem = strict.answer as unknown as { code: string; findings: ReviewFinding[] };
    expect(problem.code).toBe('quality_gate');
    const codes = [...new Set(problem.findings.map((f) => f.code))];
    expect(codes).toContain('text_too_small');

    const allowed = await review('text_too_small.trigger.ts', [
      '--strict-quality',
      '--allow-quality',
      codes.join(','),
    ]);
    expect(allowed.code).toBe(0);
    expect(allowed.answer.findings.length).toBeGreaterThan(0);
    expect(allowed.answer.findings.every((f) => f.allowed)).toBe(true);
  });

  it("refuses a finding's inspect action once the source has changed", async () => {
    const source = join(project, 'text_too_brief.trigger.ts');
    const workspace = await startWorkspace({ source });
    try {
      const first = await runKino(['session', workspace.descriptorPath, 'review', '--json']);
      const finding = (JSON.parse(first.stdout) as ReviewAnswer).findings[0]!;
      const inspect = [
        'session',
        workspace.descriptorPath,
        'inspect',
        '--frame',
        String(finding.inspect.frameIndex),
      ];
      const before = await runKino([...inspect, '--revision', finding.inspect.sourceRevision]);
      expect(before.code).toBe(0);
      writeFileSync(source, readFileSync(source, 'utf8') + '\n// edited\n');
      const after = await runKino([...inspect, '--revision', finding.inspect.sourceRevision]);
      expect(after.code).toBe(1);
      expect(after.stderr).toContain(finding.inspect.sourceRevision);
      expect(after.stderr).toMatch(/source is now at [0-9a-f]{16}/);
    } finally {
      await workspace.close();
    }
  });
});
