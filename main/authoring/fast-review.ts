// The review an authored spec gets before anything is rendered in full: a few frames at half size,
// through the visual and timing checks that a spec's author can act on.
import type { VideoSpec } from '../../shared/spec/schema.ts';
import { resolveAspect } from '../../shared/spec/sizes.ts';
import type { AspectName } from '../../shared/spec/sizes.ts';
import type { FindingCode } from '../../shared/protocol/finding.ts';
import type { RenderProjectContext } from '../engine/project-context.ts';
import { elementPointer } from '../../shared/timeline/element-keys.ts';
import { visualReview } from '../review/visual-review.ts';
import type { AuthoringFinding } from '../../shared/protocol/authoring-record.ts';

/** The checks a spec's text and layout can fail, which a model can fix. */
export const AUTHORING_REVIEW_CODES: ReadonlySet<FindingCode> = new Set<FindingCode>([
  'text_too_small',
  'low_contrast',
  'offscreen_element',
  'text_overflow',
  'code_overflow',
  'text_too_brief',
  'unsafe_area',
  'caption_overlap',
  'caption_too_fast',
  'caption_offscreen',
  'label_overlap',
  'element_overlap',
  'missing_glyph',
]);

export const FAST_REVIEW_FRAMES = 6;

export async function fastReview(
  spec: VideoSpec,
  project: RenderProjectContext,
  aspect: AspectName | undefined,
  signal?: AbortSignal,
): Promise<AuthoringFinding[]> {
  const full = resolveAspect(aspect ?? spec.aspect ?? 'reels');
  const half = { width: 2 * Math.round(full.width / 4), height: 2 * Math.round(full.height / 4) };
  const review = await visualReview({
    model: spec,
    project,
    aspect: half,
    samples: FAST_REVIEW_FRAMES,
    signal,
  });
  return review.drafts
    .filter((draft) => AUTHORING_REVIEW_CODES.has(draft.code))
    .map((draft) => {
      const pointer = draft.element === undefined ? undefined : elementPointer(draft.element);
      return {
        code: draft.code,
        ...(pointer ? { pointer } : {}),
        message: draft.message,
        remedy: draft.remedy,
      };
    });
}
