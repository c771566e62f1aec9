// Test support: reviews the finding fixtures (e2e/fixtures/findings/<code>.<kind>.ts) the way the
// workspace does, each composition loaded from its file with its project.
import { fileURLToPath } from 'node:url';
import type { VideoModel } from '../../../shared/spec/model.ts';
import { loadComposition } from '../../composition/load.ts';
import { projectContext } from '../../engine/project-context.ts';
import type { RenderProjectContext } from '../../engine/project-context.ts';
import { projectForFile } from '../../project/load.ts';
import type { FindingDraft } from '../finding.ts';
import type { FindingCode } from '../../../shared/protocol/finding.ts';
import { visualReview } from '../visual-review.ts';
import type { VisualReviewOptions, VisualReviewResult } from '../visual-review.ts';

export type FixtureKind = 'trigger' | 'clean';

export function fixturePath(code: FindingCode, kind: FixtureKind): string {
  return fileURLToPath(new URL(`../../../e2e/fixtures/findings/${code}.${kind}.ts`, import.meta.url));
}

export interface LoadedFixture {
  file: string;
  model: VideoModel;
  project: RenderProjectContext;
}

export async function loadFixture(code: FindingCode, kind: FixtureKind): Promise<LoadedFixture> {
  const file = fixturePath(code, kind);
  const [model, project] = await Promise.all([
    loadComposition(file),
    projectForFile(file).then((found) => projectContext(found)),
  ]);
  return { file, model, project };
}

const reviews = new Map<string, Promise<VisualReviewResult>>();

/** The fixture's visual review with default options, run once per test file. */
export function reviewFixture(
  code: FindingCode,
  kind: FixtureKind,
  options: Partial<VisualReviewOptions> = {},
): Promise<VisualReviewResult> {
  const key = `${code}.${kind}`;
  const custom = Object.keys(options).length > 0;
  const cached = custom ? undefined : reviews.get(key);
  if (cached) return cached;
  const review = loadFixture(code, kind).then(({ model, project }) =>
    visualReview({ model, project, ...options }),
  );
  if (!custom) reviews.set(key, review);
  return review;
}

export function draftsWithCode(result: VisualReviewResult, code: FindingCode): FindingDraft[] {
  return result.drafts.filter((draft) => draft.code === code);
}

/** What a reader of a draft needs: a focus frame inside its interval, on the timeline. */
export function expectWellFormed(result: VisualReviewResult, draft: FindingDraft): void {
  const focus = draft.focusFrame ?? draft.startFrame;
  if (!(
    draft.startFrame >= 0 &&
    draft.startFrame < draft.endFrame &&
    draft.endFrame <= result.video.durationFrames
  ))
    throw new Error(
      `interval [${draft.startFrame}, ${draft.endFrame}) is not on the timeline: ${draft.message}`,
    );
  if (focus < draft.startFrame || focus >= draft.endFrame)
    throw new Error(
      `focus frame ${focus} is outside [${draft.startFrame}, ${draft.endFrame}): ${draft.message}`,
    );
}
