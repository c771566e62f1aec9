// The captions element: timed text from an SRT or WebVTT file (inline or in the project) or from
// word timings, in one of three styles. How cues are paged and drawn is shared/elements' part.
import { z } from 'zod';
import { withAspects } from './aspect-overrides.ts';
import { describeCaptionFault, parseCaptions } from '../captions/parse.ts';
import type { CaptionFormat } from '../captions/parse.ts';
import { ColorSchema } from './color.ts';
import { elementBaseShape } from './element-base.ts';
import { LengthSchema } from './primitives.ts';
import { textDecorationShape, textFontShape } from './text-element.ts';
import { SignedTimeSchema } from './time.ts';
import { CAPTION_STYLES } from './caption-styles.ts';

export { CAPTION_STYLES };
export type { CaptionStyle } from './caption-styles.ts';

export const MAX_CAPTION_WORDS = 20_000;
const MAX_CAPTION_SECONDS = 24 * 3600;

/**
 * One spoken word with its time in seconds, as Whisper-style transcribers emit it: `text` (or
 * Whisper's own `word`), `start` and `end`. Other fields a transcriber adds (score, probability,
 * speaker) are allowed and ignored, so a transcript pastes as it is.
 */
export const CaptionWordSchema = z
  .looseObject({
    text: z.string().max(200).optional(),
    word: z.string().max(200).optional(),
    start: z.number().finite().min(0).max(MAX_CAPTION_SECONDS),
    end: z.number().finite().min(0).max(MAX_CAPTION_SECONDS),
  })
  .refine((word) => (word.text ?? word.word ?? '').trim().length > 0, {
    message: 'a word needs its "text" (or "word")',
  })
  .refine((word) => word.end >= word.start, { message: 'end is before start', path: ['end'] });
export type CaptionWord = z.infer<typeof CaptionWordSchema>;

const CaptionFileSchema = z
  .string()
  .min(1)
  .max(1_000_000)
  .refine((value) => !value.includes('\0'), 'must not contain NUL')
  .describe(
    'The captions themselves (any text with a "-->" timing line), or a caption file: "asset:talk.srt" or a project path.',
  );

export const CaptionsElementSchema = withAspects(
  z.strictObject({
    type: z.literal('captions'),
    ...elementBaseShape,
    srt: CaptionFileSchema.optional(),
    vtt: CaptionFileSchema.optional(),
    words: z.array(CaptionWordSchema).min(1).max(MAX_CAPTION_WORDS).optional(),
    style: z
      .enum(CAPTION_STYLES)
      .optional()
      .describe(
        'subtitle (default): lines in a box; pop: a few words at a time, the spoken one scaled and coloured; karaoke: the whole line, a highlight sweeping across the words.',
      ),
    position: z
      .enum(['bottom', 'center', 'top'])
      .optional()
      .describe("Where lines sit in the element's box (by default the safe area); default bottom."),
    maxWidth: LengthSchema.optional().describe("Line width at most; default 90% of the element's box."),
    maxLines: z.number().int().min(1).max(4).optional().describe('Lines shown at once; default 2.'),
    maxWords: z.number().int().min(1).max(12).optional().describe('pop: words shown at once; default 3.'),
    offset: SignedTimeSchema.optional().describe('Shifts every cue: "0.5s" later, "-0.5s" earlier.'),
    speed: z
      .number()
      .min(0.25)
      .max(4)
      .optional()
      .describe('Plays the cue times faster (2) or slower (0.5), to match a clip played at that rate.'),
    highlightColor: ColorSchema.optional().describe(
      'pop: the spoken word; karaoke: the sung words. Default #facc15.',
    ),
    activeScale: z
      .number()
      .min(1)
      .max(2)
      .optional()
      .describe('pop: how much the spoken word grows; default 1.15.'),
    maxCharsPerSecond: z
      .number()
      .min(5)
      .max(60)
      .optional()
      .describe('Review flags a cue read faster than this (caption_too_fast); default 20.'),
    ...textFontShape,
    ...textDecorationShape,
  }),
  {
    fixed: ['srt', 'vtt'],
    refine: (captions, context) => {
      const sources = (['srt', 'vtt', 'words'] as const).filter((key) => captions[key] !== undefined);
      if (sources.length !== 1) {
        context.addIssue({
          code: 'custom',
          message:
            sources.length === 0
              ? 'give the captions as "srt", "vtt" or "words"'
              : `give one of "srt", "vtt" or "words", not ${sources.map((s) => `"${s}"`).join(' and ')}`,
          path: sources.length === 0 ? [] : [sources[1]!],
        });
        return;
      }
      const inline = inlineCaptions(captions);
      if (inline) {
        const parsed = parseCaptions(inline.format, inline.text);
        if (!parsed.ok) {
          for (const fault of parsed.faults.slice(0, 10)) {
            context.addIssue({
              code: 'custom',
              message: describeCaptionFault(inline.format, fault),
              path: [inline.format],
            });
          }
        }
      }
      captions.words?.forEach((word, index) => {
        const previous = captions.words![index - 1];
        if (previous && word.start < previous.start) {
          context.addIssue({
            code: 'custom',
            message: `word ${index + 1} starts at ${word.start}s, before word ${index} (${previous.start}s): words must be in time order`,
            path: ['words', index, 'start'],
          });
        }
      });
    },
  },
);
export type CaptionsElement = z.infer<typeof CaptionsElementSchema>;

/** Text with a timing line is the captions themselves; anything else names a caption file. */
export function isInlineCaptionText(value: string): boolean {
  return value.includes('-->');
}

/** The captions written into the spec, with their format; undefined for a file or words. */
export function inlineCaptions(
  captions: Pick<CaptionsElement, 'srt' | 'vtt'>,
): { format: CaptionFormat; text: string } | undefined {
  if (captions.srt !== undefined && isInlineCaptionText(captions.srt))
    return { format: 'srt', text: captions.srt };
  if (captions.vtt !== undefined && isInlineCaptionText(captions.vtt))
    return { format: 'vtt', text: captions.vtt };
  return undefined;
}

/** The caption file the element reads, with its format; undefined for inline captions or words. */
export function captionFile(
  captions: Pick<CaptionsElement, 'srt' | 'vtt'>,
): { format: CaptionFormat; src: string } | undefined {
  if (captions.srt !== undefined && !isInlineCaptionText(captions.srt))
    return { format: 'srt', src: captions.srt };
  if (captions.vtt !== undefined && !isInlineCaptionText(captions.vtt))
    return { format: 'vtt', src: captions.vtt };
  return undefined;
}
