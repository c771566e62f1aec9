// Titling elements: a lower third, a title card and a progress bar. Each has a built-in entrance and
// exit (enterDuration, exitDuration) and a designed type scale, so a bare one already looks finished.
import { z } from 'zod';
import { withAspects } from './aspect-overrides.ts';
import { buildTimingShape } from './annotation-elements.ts';
import { ColorSchema } from './color.ts';
import { elementBaseShape } from './element-base.ts';
import { LengthSchema } from './primitives.ts';

const fontField = (fallback: string) =>
  z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe(
      `"sans", "serif", "mono", "display", or a family declared in the project fonts; default ${fallback}.`,
    );

export const LOWER_THIRD_STYLES = ['bar', 'underline', 'boxed', 'minimal'] as const;

export const LowerThirdElementSchema = withAspects(
  z.strictObject({
    type: z.literal('lowerThird'),
    ...elementBaseShape,
    name: z.string().min(1).max(80).describe('The first line, largest: usually a name.'),
    title: z.string().min(1).max(120).optional().describe('The second line: a role, place or topic.'),
    style: z
      .enum(LOWER_THIRD_STYLES)
      .optional()
      .describe(
        '"bar" (default: an accent bar beside a dark panel), "underline" (an accent rule under the name), "boxed" (a light name box over an accent title box) or "minimal" (text and a small accent dot).',
      ),
    accent: ColorSchema.optional().describe('The accent colour of bars, rules and boxes; default #6366f1.'),
    color: ColorSchema.optional().describe('Text colour; default white (dark on the "boxed" name box).'),
    background: ColorSchema.optional().describe('Panel colour in the "bar" style; default #0f172a.'),
    font: fontField('"sans"'),
    size: LengthSchema.optional().describe(
      'Name font size; default 52 design pixels. The title is 0.6 of it.',
    ),
    ...buildTimingShape(
      'default 0.9s, the bars wipe out from the accent, then the text slides in',
      'default 0.5s, the entrance in reverse',
    ),
  }),
);
export type LowerThirdElement = z.infer<typeof LowerThirdElementSchema>;

export const TITLE_CARD_STYLES = ['centered', 'left', 'split'] as const;

export const TitleCardElementSchema = withAspects(
  z.strictObject({
    type: z.literal('titleCard'),
    ...elementBaseShape,
    title: z.string().min(1).max(200).describe('The headline, largest.'),
    subtitle: z.string().min(1).max(300).optional().describe('A line under the title.'),
    kicker: z
      .string()
      .min(1)
      .max(80)
      .optional()
      .describe('A short, uppercase line above the title, in the accent colour.'),
    style: z
      .enum(TITLE_CARD_STYLES)
      .optional()
      .describe(
        '"centered" (default), "left" (aligned left, rule at the left) or "split" (title left, a vertical rule, subtitle right).',
      ),
    accent: ColorSchema.optional().describe('Kicker and rule colour; default #f59e0b.'),
    color: ColorSchema.optional().describe(
      'Title colour; default white. The subtitle is this colour at 72%.',
    ),
    font: fontField('"display" for the title'),
    bodyFont: fontField('"sans"').describe(
      'Family of the kicker and subtitle: "sans" (default), "serif", "mono", "display" or a project font.',
    ),
    size: LengthSchema.optional().describe(
      'Title font size; default 150 design pixels (120 in "split"). Kicker and subtitle scale with it.',
    ),
    rule: z.boolean().optional().describe('Draw the accent rule; default true.'),
    ...buildTimingShape(
      'default 1.2s, kicker, rule, title and subtitle arrive one after another',
      'default 0.6s, everything lifts and fades out, last line first',
    ),
  }),
);
export type TitleCardElement = z.infer<typeof TitleCardElementSchema>;

export const ProgressBarElementSchema = withAspects(
  z.strictObject({
    type: z.literal('progressBar'),
    ...elementBaseShape,
    of: z
      .enum(['video', 'scene', 'element'])
      .optional()
      .describe(
        'What the fill measures when no value is given: the whole "video" (default), this "scene", or the "element"\'s own time on screen.',
      ),
    value: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe('A fixed fill 0..1 instead of time; keyframe "progress" to animate it.'),
    track: ColorSchema.optional().describe('The unfilled part; default rgba(255, 255, 255, 0.18).'),
    fill: ColorSchema.optional().describe('The filled part; default #f59e0b.'),
    thickness: LengthSchema.optional().describe('Bar height; default 10 design pixels.'),
    rounded: z.boolean().optional().describe('Round the bar ends; default true.'),
    label: z.string().min(1).max(80).optional().describe('A caption above the bar, at its left.'),
    showPercent: z
      .boolean()
      .optional()
      .describe('Show the fill as a percentage above the bar, at its right.'),
    color: ColorSchema.optional().describe('Label and percentage colour; default white.'),
    font: fontField('"sans"'),
    ...buildTimingShape(
      'default 0.6s, the track grows out from the left',
      'default 0.4s, the bar fades and slims away',
    ),
  }),
);
export type ProgressBarElement = z.infer<typeof ProgressBarElementSchema>;
