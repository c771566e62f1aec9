// The session CLI's human output: short, one fact per line, paths in full so they can be opened.
// `--json` skips all of this and prints the workspace's answer as it is.
import { formatBytes } from '../../shared/format/bytes.ts';
import type { ReviewFinding } from '../../shared/protocol/finding.ts';
import type { ProblemBody } from '../../shared/protocol/problem.ts';
import type {
  FrameAnswer,
  InspectAnswer,
  JobAnswerMeta,
  RenderAnswer,
  ReviewAnswer,
  WorkspaceStatus,
} from '../../shared/protocol/workspace.ts';

const ms = (value: number) => `${Math.round(value)} ms`;

function timing(result: Omit<JobAnswerMeta, 'operation'>): string {
  const parts = [`rev ${result.sourceRevision.slice(0, 12)}`, `worker ${result.workerPid}`];
  if (result.startupMilliseconds > 0) parts.push(`startup ${ms(result.startupMilliseconds)}`);
  parts.push(`capture ${ms(result.captureMilliseconds)}`, `total ${ms(result.elapsedMilliseconds)}`);
  const crash = result.workerRestartedAfterCrash;
  const note = crash
    ? `\nnote: the previous worker (pid ${crash.pid}) crashed during ${crash.during} (${crash.signal ? crash.signal : `code ${crash.code}`}); a new one was started`
    : '';
  return `[${parts.join(', ')}]${note}`;
}

export function formatStatus(status: WorkspaceStatus): string {
  const { worker, queue } = status;
  const crash = worker.lastCrash;
  return [
    `source    ${status.source}`,
    `revision  ${status.sourceRevision}${status.compiles ? '' : ' (does not compile)'}`,
    `backend   ${status.backend}`,
    `worker    ${worker.state}${worker.pid ? ` (pid ${worker.pid})` : ''}`,
    ...(crash ? [`last crash pid ${crash.pid} during ${crash.during}`] : []),
    `queue     ${queue.running} running, ${queue.waiting} waiting (limit ${queue.limit})`,
    `results   ${status.resultsDir}`,
  ].join('\n');
}

export function formatFrame(result: FrameAnswer): string {
  const frame = result.frame;
  return [
    frame.path,
    `  frame ${frame.index} of ${result.framesTotal} (${frame.seconds.toFixed(3)} s), ${frame.width}×${frame.height}`,
    `  ${timing(result)}`,
  ].join('\n');
}

function interval(finding: ReviewFinding): string {
  const i = finding.interval;
  const last = i.endFrame - 1;
  const frames = last > i.startFrame ? `frames ${i.startFrame}–${last}` : `frame ${i.startFrame}`;
  return `${frames} (${i.startSeconds.toFixed(2)}–${i.endSeconds.toFixed(2)} s)`;
}

export function formatFindings(findings: readonly ReviewFinding[], descriptorPath: string): string[] {
  return findings.flatMap((finding) => {
    const inspect = finding.inspect;
    return [
      `${finding.allowed ? 'allowed' : finding.severity} ${finding.code}  ${interval(finding)}${finding.element ? `  ${finding.element}` : ''}`,
      `  ${finding.message}`,
      `  fix: ${finding.remedy}`,
      `  inspect: kino session ${descriptorPath} inspect --frame ${inspect.frameIndex} --revision ${inspect.sourceRevision}`,
    ];
  });
}

function findingSummary(findings: readonly ReviewFinding[]): string {
  const allowed = findings.filter((f) => f.allowed).length;
  if (findings.length === 0) return 'no findings';
  return `${findings.length} finding${findings.length === 1 ? '' : 's'}${allowed ? ` (${allowed} allowed)` : ''}`;
}

export function formatReview(result: ReviewAnswer, descriptorPath: string): string {
  const { samples, findings, determinism } = result;
  const lines = [
    `${samples.length} frames sampled into ${result.samplesDir ?? '(not kept)'}`,
    ...(determinism
      ? [
          `determinism: ${determinism.checked} frames drawn twice in fresh mounts, ${determinism.mismatches} mismatched`,
        ]
      : []),
    findingSummary(findings),
    ...formatFindings(findings, descriptorPath),
    timing(result),
  ];
  return lines.join('\n');
}

export function formatInspect(result: InspectAnswer): string {
  const { timeline, resources } = result;
  const lines = [
    `${timeline.durationFrames} frames at ${timeline.fps} fps (${timeline.durationSeconds.toFixed(2)} s), ${timeline.width}×${timeline.height}`,
  ];
  for (const scene of timeline.scenes) {
    const elements = scene.elements;
    lines.push(
      `  scene ${scene.id}: frames ${scene.startFrame}–${scene.endFrame - 1}, ${elements.length} element${elements.length === 1 ? '' : 's'}`,
    );
  }
  const overlays = timeline.overlays;
  if (overlays.length > 0) {
    lines.push(
      `  overlays over the whole video: ${overlays.map((element) => `${element.type} ${element.pointer}`).join(', ')}`,
    );
  }
  const { assets, fonts } = resources;
  lines.push(
    `resources: ${assets.length} asset${assets.length === 1 ? '' : 's'}, ${fonts.length} font${fonts.length === 1 ? '' : 's'}`,
  );
  for (const asset of assets) {
    const size = asset.width ? `, ${asset.width}×${asset.height}` : '';
    lines.push(
      `  ${asset.src}  ${asset.missing ? `MISSING: ${asset.missing}` : `${formatBytes(asset.bytes ?? 0)}${size}`}`,
    );
  }
  for (const font of fonts) {
    lines.push(`  font ${font.family} (${font.origin})${font.missing ? ` MISSING: ${font.missing}` : ''}`);
  }
  for (const warning of result.warnings) lines.push(`warning: ${warning}`);
  const frame = result.frame;
  if (frame) {
    lines.push(`frame ${frame.index} (${frame.seconds.toFixed(3)} s): ${frame.path}`);
    for (const drawn of frame.visible) {
      const box = drawn.box;
      lines.push(
        `  ${drawn.key} ${drawn.type}${drawn.label ? ` "${drawn.label}"` : ''} at ${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}×${Math.round(box.height)} opacity ${drawn.alpha.toFixed(2)}`,
      );
    }
  }
  lines.push(timing(result));
  return lines.join('\n');
}

export function formatRender(result: RenderAnswer, descriptorPath: string): string {
  const { artifact, receipt } = result;
  const { options, verification } = receipt;
  const findings = receipt.findings ?? [];
  return [
    artifact.path,
    `  ${options.width}×${options.height} ${options.fps} fps, ${options.frames} of ${options.framesTotal} frames, ${formatBytes(artifact.bytes)}`,
    `  sha256 ${artifact.sha256}`,
    `  verified: ${verification.ok ? verification.checks.map((c) => c.name).join(', ') : 'FAILED'}`,
    ...(artifact.poster ? [`  poster ${artifact.poster.path}, ${formatBytes(artifact.poster.bytes)}`] : []),
    `  receipt ${result.receiptPath}`,
    `  ${findingSummary(findings)}`,
    ...formatFindings(findings, descriptorPath).map((line) => `  ${line}`),
    `  ${timing(result)}`,
  ].join('\n');
}

/** A problem answer in one line (plus the fields a user acts on). */
export function formatProblem(problem: Partial<ProblemBody>, descriptorPath: string): string {
  const lines = [`kino: ${problem.detail ?? problem.title ?? 'the workspace refused the request'}`];
  for (const error of problem.errors ?? []) lines.push(`  ${error.pointer || '/'}: ${error.message}`);
  for (const p of problem.problems ?? []) {
    lines.push(`  ${p.file}${p.line === undefined ? '' : `:${p.line}:${p.column ?? 1}`}: ${p.message}`);
  }
  // The quality gate's answer carries the findings that failed it.
  const findings = (problem.findings as ReviewFinding[] | undefined) ?? [];
  lines.push(
    ...formatFindings(
      findings.filter((f) => !f.allowed),
      descriptorPath,
    ).map((line) => `  ${line}`),
  );
  return lines.join('\n');
}
