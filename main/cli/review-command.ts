// `kino review <spec.json | composition.ts | key>`: the workspace's review without a workspace, for
// a CLI-only agent or a script. Prints each finding with its time, element (as a JSON pointer for a
// spec), message and remedy; exits 2 when a finding is an error, so `kino review x.json && kino
// render x.json` renders only what passed.
import { Option } from 'commander';
import type { Command } from 'commander';
import { ASPECT_NAMES } from '../../shared/spec/sizes.ts';
import type { AspectName } from '../../shared/spec/sizes.ts';
import { addVariableOptions, variableValues } from './variable-options.ts';
import type { VariableOptions } from './variable-options.ts';

/** A finding as `kino review --json` prints it. */
export interface PrintedFinding {
  code: string;
  severity: 'error' | 'warning';
  startSeconds: number;
  endSeconds: number;
  /** The element: a JSON pointer into the spec, or for a composition its key ("s0/e2"). */
  pointer?: string;
  element?: string;
  message: string;
  remedy: string;
}

export const EXIT_REVIEW_ERRORS = 2;

async function reviewCommand(
  input: string,
  opts: { aspect?: AspectName; json?: boolean } & VariableOptions,
): Promise<void> {
  const [{ resolveRenderInput }, { projectContext }, { reviewComposition }, finding, keys, { SessionExit }] =
    await Promise.all([
      import('../project/resolve-input.ts'),
      import('../engine/project-context.ts'),
      import('../review/review-composition.ts'),
      import('../review/finding.ts'),
      import('../../shared/timeline/element-keys.ts'),
      import('./session-command.ts'),
    ]);
  const resolved = await resolveRenderInput(input, process.cwd(), await variableValues(opts));
  const review = await reviewComposition({
    model: resolved.model,
    project: await projectContext(resolved.project),
    aspect: opts.aspect,
  });
  const fps = review.visual.video.fps;
  const findings: PrintedFinding[] = review.drafts.map((draft) => {
    const interval = finding.findingInterval(draft, fps);
    const pointer =
      resolved.kind === 'spec' && draft.element !== undefined
        ? keys.elementPointer(draft.element)
        : undefined;
    return {
      code: draft.code,
      severity: draft.severity,
      startSeconds: interval.startSeconds,
      endSeconds: interval.endSeconds,
      ...(pointer ? { pointer } : draft.element !== undefined ? { element: draft.element } : {}),
      message: draft.message,
      remedy: draft.remedy,
    };
  });
  const errors = findings.filter((item) => item.severity === 'error').length;
  const samples = review.visual.samples.length;
  if (opts.json) {
    process.stdout.write(
      JSON.stringify({ findings, errors, warnings: findings.length - errors, samples }, null, 2) + '\n',
    );
  } else {
    for (const item of findings) {
      const where = item.pointer ?? item.element;
      process.stdout.write(
        `${item.severity} ${item.code} ${item.startSeconds}s–${item.endSeconds}s${where ? ` ${where}` : ''}: ${item.message}\n` +
          `  fix: ${item.remedy}\n`,
      );
    }
    const { size, durationFrames } = review.visual.video;
    const warnings = findings.length - errors;
    const counts =
      findings.length === 0
        ? 'no findings'
        : `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
    process.stdout.write(
      `${counts} on ${samples} sampled frames of ${durationFrames} (${size.width}×${size.height})\n`,
    );
  }
  if (errors > 0) throw new SessionExit(EXIT_REVIEW_ERRORS, '');
}

export function registerReviewCommand(program: Command): void {
  const review = program
    .command('review')
    .description(
      'Review a spec or composition on sampled frames (text size, contrast, overflow, safe area, timing, media, sound); exit 2 if a finding is an error',
    )
    .argument('<input>', 'spec.json, composition.ts, or a composition key')
    .addOption(
      new Option('--aspect <aspect>', "review at this aspect (default: the spec's, else reels)").choices(
        ASPECT_NAMES,
      ),
    )
    .option('--json', 'print {findings, errors, warnings, samples} as JSON');
  addVariableOptions(review).action(reviewCommand);
}
