// `kino doctor [--json]`: which ffmpeg and ffprobe Kino uses and why, their versions, the encoders
// Kino needs, the Node version, and a one-line fix for anything missing. Exit 0 when everything
// Kino needs is there, 1 otherwise.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { diagnoseTools } from '../ffmpeg/diagnose.ts';
import type { Finding, ToolDiagnosis } from '../ffmpeg/diagnose.ts';
import { SessionExit } from './session-command.ts';

export interface NodeReport {
  version: string;
  /** package.json's engines.node, e.g. ">=22.12". */
  required: string;
  ok: boolean;
}

export interface DoctorReport extends ToolDiagnosis {
  node: NodeReport;
}

function requiredNode(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    engines?: { node?: string };
  };
  return manifest.engines?.node ?? '>=22.12';
}

/** Whether `version` ("v24.1.0") satisfies a ">=X.Y[.Z]" range (the only form package.json uses). */
export function nodeSatisfies(version: string, range: string): boolean {
  const want = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  const have = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!want || !have) return true;
  for (let i = 1; i <= 3; i++) {
    const a = Number(have[i]);
    const b = Number(want[i] ?? 0);
    if (a !== b) return a > b;
  }
  return true;
}

export function doctorReport(env: NodeJS.ProcessEnv = process.env): DoctorReport {
  const tools = diagnoseTools({ env });
  const required = requiredNode();
  const node = { version: process.version, required, ok: nodeSatisfies(process.version, required) };
  const problems: Finding[] = [...tools.problems];
  if (!node.ok) {
    problems.push({
      what: `Node ${process.version} is older than ${required}`,
      fix: `install Node ${required.replace('>=', '')} or newer, or run kino through main/cli/kino.mjs (it fetches Node 24)`,
    });
  }
  return { ...tools, ok: problems.length === 0, problems, node };
}

function toolLine(label: string, tool: ToolDiagnosis['ffmpeg']): string {
  if (!tool.path) return `  ${label.padEnd(9)}not usable`;
  return `  ${label.padEnd(9)}${tool.path}${tool.version ? `  (${tool.version})` : ''}`;
}

export function formatDoctor(report: DoctorReport): string {
  const width = Math.max(...report.encoders.map((e) => e.name.length));
  const lines = [
    'Kino doctor',
    toolLine('ffmpeg', report.ffmpeg),
    toolLine('ffprobe', report.ffprobe),
    `  ${'source'.padEnd(9)}${report.source}: ${report.reason}`,
  ];
  if (report.system && report.source !== 'system') {
    const version = report.system.version ? ` (${report.system.version})` : '';
    lines.push(`  ${'on PATH'.padEnd(9)}${report.system.ffmpeg}${version}, not used`);
  }
  lines.push('  encoders');
  for (const encoder of report.encoders) {
    lines.push(`    ${encoder.found ? 'ok     ' : 'MISSING'}  ${encoder.name.padEnd(width)}  ${encoder.use}`);
  }
  lines.push(
    `  ${'node'.padEnd(9)}${report.node.version} (needs ${report.node.required})${report.node.ok ? '' : '  TOO OLD'}`,
  );
  for (const finding of report.advice) lines.push(`note: ${finding.what}; to fix: ${finding.fix}`);
  if (report.ok) {
    lines.push('Everything Kino needs is there.');
  } else {
    for (const problem of report.problems) lines.push(`missing: ${problem.what}; to fix: ${problem.fix}`);
  }
  return lines.join('\n') + '\n';
}

async function doctorCommand(opts: { json?: boolean }): Promise<void> {
  const report = doctorReport();
  if (opts.json) {
    process.stdout.write(JSON.stringify(report, null, 2) + '\n');
    if (!report.ok) throw new SessionExit(1, '');
    return;
  }
  // A tool that cannot even be found (a wrong FFMPEG_PATH): one line that says what to change.
  const unusable = report.ffmpeg.error ?? report.ffprobe.error;
  if (unusable) throw new Error(unusable);
  process.stdout.write(formatDoctor(report));
  if (!report.ok) throw new SessionExit(1, '');
}

export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description(
      'Check ffmpeg, ffprobe (which ones and why), the encoders Kino needs and Node; exit 1 if something is missing',
    )
    .option('--json', 'print the report as JSON')
    .action(doctorCommand);
}
