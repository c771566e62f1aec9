// The session CLI's human output: short, one fact per line, paths in full so they can be opened.
// `--json` skips all of this and prints the workspace's answer as it is.
import { formatBytes } from '../cli/units.ts';

type Json = Record<string, unknown>;

const str = (value: unknown) => (typeof value === 'string' ? value : String(value));
const num = (value: unknown) => (typeof value === 'number' ? value : Number(value));
const ms = (value: unknown) => `${Math.round(num(value))} ms`;

function timing(result: Json): string {
  const parts = [`rev ${str(result.sourceRevision).slice(0, 12)}`, `worker ${str(result.workerPid)}`];
  if (num(result.startupMilliseconds) > 0) parts.push(`startup ${ms(result.startupMilliseconds)}`);
  parts.push(`capture ${ms(result.captureMilliseconds)}`, `total ${ms(result.elapsedMilliseconds)}`);
  const crash = result.workerRestartedAfterCrash as Json | undefined;
  const note = crash
    ? `\nnote: the previous worker (pid ${str(crash.pid)}) crashed during ${str(crash.during)} (${crash.signal ? str(crash.signal) : `code ${str(crash.code)}`}); a new one was started`
    : '';
  return `[${parts.join(', ')}]${note}`;
}

const bytes = (value: unknown) => formatBytes(num(value));

export function formatStatus(status: Json): string {
  const worker = status.worker as Json;
  const queue = status.queue as Json;
  const crash = worker.lastCrash as Json | null;
  return [
    `source    ${str(status.source)}`,
    `revision  ${str(status.sourceRevision)}${status.compiles === false ? ' (does not compile)' : ''}`,
    `backend   ${str(status.backend)}`,
    `worker    ${str(worker.state)}${worker.pid ? ` (pid ${str(worker.pid)})` : ''}`,
    ...(crash ? [`last crash pid ${str(crash.pid)} during ${str(crash.during)}`] : []),
    `queue     ${str(queue.running)} running, ${str(queue.waiting)} waiting (limit ${str(queue.limit)})`,
    `results   ${str(status.resultsDir)}`,
  ].join('\n');
}

export function formatFrame(result: Json): string {
  const frame = result.frame as Json;
  return [
    str(frame.path),
    `  frame ${str(frame.index)} of ${str(result.framesTotal)} (${num(frame.seconds).toFixed(3)} s), ${str(frame.width)}×${str(frame.height)}`,
    `  ${timing(result)}`,
  ].join('\n');
}

function interval(finding: Json): string {
  const i = finding.interval as Json;
  const last = num(i.endFrame) - 1;
  const frames =
    last > num(i.startFrame) ? `frames ${str(i.startFrame)}–${last}` : `frame ${str(i.startFrame)}`;
  return `${frames} (${num(i.startSeconds).toFixed(2)}–${num(i.endSeconds).toFixed(2)} s)`;
}

export function formatFindings(findings: Json[], descriptorPath: string): string[] {
  return findings.flatMap((finding) => {
    const inspect = finding.inspect as Json;
    return [
      `${finding.allowed ? 'allowed' : str(finding.severity)} ${str(finding.code)}  ${interval(finding)}${finding.element ? `  ${str(finding.element)}` : ''}`,
      `  ${str(finding.message)}`,
      `  fix: ${str(finding.remedy)}`,
      `  inspect: kino session ${descriptorPath} inspect --frame ${str(inspect.frameIndex)} --revision ${str(inspect.sourceRevision)}`,
    ];
  });
}

function findingSummary(findings: Json[]): string {
  const allowed = findings.filter((f) => f.allowed).length;
  if (findings.length === 0) return 'no findings';
  return `${findings.length} finding${findings.length === 1 ? '' : 's'}${allowed ? ` (${allowed} allowed)` : ''}`;
}

export function formatReview(result: Json, descriptorPath: string): string {
  const samples = (result.samples as Json[]) ?? [];
  const findings = (result.findings as Json[]) ?? [];
  const determinism = result.determinism as Json | undefined;
  const lines = [
    `${samples.length} frames sampled into ${str(result.samplesDir)}`,
    ...(determinism
      ? [
          `determinism: ${str(determinism.checked)} frames drawn twice in fresh mounts, ${str(determinism.mismatches)} mismatched`,
        ]
      : []),
    findingSummary(findings),
    ...formatFindings(findings, descriptorPath),
    timing(result),
  ];
  return lines.join('\n');
}

export function formatInspect(result: Json): string {
  const timeline = result.timeline as Json;
  const scenes = (timeline.scenes as Json[]) ?? [];
  const lines = [
    `${str(timeline.durationFrames)} frames at ${str(timeline.fps)} fps (${num(timeline.durationSeconds).toFixed(2)} s), ${str(timeline.width)}×${str(timeline.height)}`,
  ];
  for (const scene of scenes) {
    const elements = (scene.elements as Json[]) ?? [];
    lines.push(
      `  scene ${str(scene.id)}: frames ${str(scene.startFrame)}–${num(scene.endFrame) - 1}, ${elements.length} element${elements.length === 1 ? '' : 's'}`,
    );
  }
  const resources = result.resources as Json;
  const assets = (resources.assets as Json[]) ?? [];
  const fonts = (resources.fonts as Json[]) ?? [];
  lines.push(
    `resources: ${assets.length} asset${assets.length === 1 ? '' : 's'}, ${fonts.length} font${fonts.length === 1 ? '' : 's'}`,
  );
  for (const asset of assets) {
    const size = asset.width ? `, ${str(asset.width)}×${str(asset.height)}` : '';
    lines.push(
      `  ${str(asset.src)}  ${asset.missing ? `MISSING: ${str(asset.missing)}` : `${bytes(asset.bytes)}${size}`}`,
    );
  }
  for (const font of fonts) {
    lines.push(
      `  font ${str(font.family)} (${str(font.origin)})${font.missing ? ` MISSING: ${str(font.missing)}` : ''}`,
    );
  }
  for (const warning of (result.warnings as string[]) ?? []) lines.push(`warning: ${warning}`);
  const frame = result.frame as Json | undefined;
  if (frame) {
    lines.push(`frame ${str(frame.index)} (${num(frame.seconds).toFixed(3)} s): ${str(frame.path)}`);
    for (const drawn of (frame.visible as Json[]) ?? []) {
      const box = drawn.box as Json;
      lines.push(
        `  ${str(drawn.key)} ${str(drawn.type)}${drawn.label ? ` "${str(drawn.label)}"` : ''} at ${Math.round(num(box.x))},${Math.round(num(box.y))} ${Math.round(num(box.width))}×${Math.round(num(box.height))} opacity ${num(drawn.alpha).toFixed(2)}`,
      );
    }
  }
  lines.push(timing(result));
  return lines.join('\n');
}

export function formatRender(result: Json, descriptorPath: string): string {
  const artifact = result.artifact as Json;
  const poster = artifact.poster as Json | undefined;
  const receipt = result.receipt as Json;
  const options = receipt.options as Json;
  const verification = receipt.verification as Json;
  const findings = (receipt.findings as Json[]) ?? [];
  return [
    str(artifact.path),
    `  ${str(options.width)}×${str(options.height)} ${str(options.fps)} fps, ${str(options.frames)} of ${str(options.framesTotal)} frames, ${bytes(artifact.bytes)}`,
    `  sha256 ${str(artifact.sha256)}`,
    `  verified: ${verification.ok ? ((verification.checks as Json[]) ?? []).map((c) => str(c.name)).join(', ') : 'FAILED'}`,
    ...(poster ? [`  poster ${str(poster.path)}, ${bytes(poster.bytes)}`] : []),
    `  receipt ${str(result.receiptPath)}`,
    `  ${findingSummary(findings)}`,
    ...formatFindings(findings, descriptorPath).map((line) => `  ${line}`),
    `  ${timing(result)}`,
  ].join('\n');
}

/** A problem answer in one line (plus the fields a user acts on). */
export function formatProblem(problem: Json, descriptorPath: string): string {
  const lines = [`kino: ${str(problem.detail ?? problem.title ?? 'the workspace refused the request')}`];
  const errors = (problem.errors as Json[] | undefined) ?? [];
  for (const error of errors) lines.push(`  ${str(error.pointer) || '/'}: ${str(error.message)}`);
  const problems = (problem.problems as Json[] | undefined) ?? [];
  for (const p of problems) {
    lines.push(
      `  ${str(p.file)}${p.line === undefined ? '' : `:${str(p.line)}:${str(p.column ?? 1)}`}: ${str(p.message)}`,
    );
  }
  const findings = (problem.findings as Json[] | undefined) ?? [];
  lines.push(
    ...formatFindings(
      findings.filter((f) => !f.allowed),
      descriptorPath,
    ).map((line) => `  ${line}`),
  );
  return lines.join('\n');
}
