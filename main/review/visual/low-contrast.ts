// low_contrast: text whose colour is too close to what it is drawn on. The background is what the
// frame actually shows behind the glyphs (the frame drawn without its text), with the text's own
// backing box and a wide outline laid over it the way the drawing does.
import { resolveLength } from '../../../shared/layout/length.ts';
import { contrastRatio, parseColor } from '../../../shared/spec/color.ts';
import type { Rgba } from '../../../shared/spec/color.ts';
import { defaultFontWeight } from '../../../shared/fonts/fonts.ts';
import type { SampledText } from '../capture.ts';
import type { FindingDraft } from '../finding.ts';
import { describeElement, elementInterval, formatSeconds, toDesign, worstPerKey } from './check.ts';
import type { VisualCheck, VisualCheckInput } from './check.ts';

/** WCAG 2 (1.4.3): 4.5:1 for text, 3:1 for large text. */
export const MIN_RATIO = 4.5;
export const MIN_RATIO_LARGE = 3;
/**
 * WCAG's large text is 24 CSS px, or 18.66 CSS px bold. A phone shows the shorter side of the frame
 * (1080 design px) about 390 CSS px wide, so those are about 66 and 52 design px.
 */
export const LARGE_DESIGN_PX = 66;
export const LARGE_BOLD_DESIGN_PX = 52;
/**
 * The statistic: the 10th percentile of per-pixel contrast over the points behind the glyph bands.
 * The mean would let a bright patch behind a few letters pass; the minimum would let one stray
 * pixel fail. With the 10th percentile, 90 % of the text area reaches the reported contrast.
 */
export const CONTRAST_PERCENTILE = 0.1;
/** An outline is wide enough to carry the letters on its own from this share of the font size. */
const WIDE_STROKE_EM = 0.05;

const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };
const BLACK: Rgba = { r: 0, g: 0, b: 0, a: 1 };

/** `top` (with its alpha) over an opaque colour. */
function over(top: Rgba, alpha: number, under: Rgba): Rgba {
  const a = Math.min(1, Math.max(0, top.a * alpha));
  const mix = (t: number, u: number) => t * a + u * (1 - a);
  return { r: mix(top.r, under.r), g: mix(top.g, under.g), b: mix(top.b, under.b), a: 1 };
}

export interface TextPaint {
  fill: Rgba;
  box: Rgba | undefined;
  /** Set only when wide enough to count as the letters' own background. */
  stroke: Rgba | undefined;
  alpha: number;
}

function textPaint(input: VisualCheckInput, text: SampledText): TextPaint {
  const { element, state, alpha } = text.drawn;
  const colour = typeof state.props.color === 'string' ? state.props.color : (element.color ?? '#ffffff');
  const context = { frame: input.video.size, scale: input.video.scale };
  const strokeWidth = element.stroke ? resolveLength(element.stroke.width, text.geometry.size, context) : 0;
  const wide = strokeWidth >= WIDE_STROKE_EM * text.geometry.size;
  return {
    fill: parseColor(colour) ?? WHITE,
    box: element.background ? parseColor(element.background.color) : undefined,
    stroke: wide && element.stroke ? parseColor(element.stroke.color) : undefined,
    alpha,
  };
}

interface Measured {
  ratio: number;
}

/** Contrast the glyphs get at one background pixel: against the box and, if wide, the outline. */
function contrastAt(paint: TextPaint, pixel: Rgba): number {
  const behind = paint.box ? over(paint.box, paint.alpha, pixel) : pixel;
  if (!paint.stroke) return contrastRatio(over(paint.fill, paint.alpha, behind), behind);
  const outline = over(paint.stroke, paint.alpha, behind);
  const glyph = over(paint.fill, paint.alpha, outline);
  return Math.max(contrastRatio(glyph, behind), contrastRatio(glyph, outline));
}

export function measureContrast(paint: TextPaint, backdrop: Uint8Array): Measured | undefined {
  const ratios: number[] = [];
  for (let i = 0; i + 2 < backdrop.length; i += 3) {
    ratios.push(contrastAt(paint, { r: backdrop[i]!, g: backdrop[i + 1]!, b: backdrop[i + 2]!, a: 1 }));
  }
  if (ratios.length === 0) return undefined;
  ratios.sort((a, b) => a - b);
  return { ratio: ratios[Math.floor(CONTRAST_PERCENTILE * (ratios.length - 1))]! };
}

function isLarge(input: VisualCheckInput, text: SampledText): boolean {
  const { element } = text.drawn;
  const size = toDesign(input.video, text.geometry.fontPx);
  const weight = element.weight ?? defaultFontWeight(element.font ?? 'sans');
  return size >= LARGE_DESIGN_PX || (weight >= 700 && size >= LARGE_BOLD_DESIGN_PX);
}

const ratioText = (ratio: number) => `${ratio.toFixed(1)}:1`;

/** A colour as a spec would write it: hex when opaque, rgba() when not. */
function css(c: Rgba): string {
  const [r, g, b] = [c.r, c.g, c.b].map((v) => Math.round(v));
  if (c.a >= 0.995) return `#${[r, g, b].map((v) => v!.toString(16).padStart(2, '0')).join('')}`;
  return `rgba(${r}, ${g}, ${b}, ${Number(c.a.toFixed(2))})`;
}

/** The smallest change of each kind that reaches `min` over the same backdrop, measured the same way. */
function remedy(paint: TextPaint, backdrop: Uint8Array, min: number): string {
  const ratioOf = (changed: TextPaint) => measureContrast(changed, backdrop)?.ratio ?? 0;
  const opaque = paint.alpha * paint.fill.a < 0.95 ? ' at full opacity (opacity 1)' : '';
  const [white, black] = [WHITE, BLACK].map((fill) => ratioOf({ ...paint, fill, alpha: 1 })) as [
    number,
    number,
  ];
  const recolour =
    white >= black
      ? `set color to #ffffff${opaque} (${ratioText(white)} here)`
      : `set color to #000000${opaque} (${ratioText(black)} here)`;
  // A box in the colour opposite to the text's (or the text's own box moved that way), no more
  // opaque than needed, so the picture still shows through.
  const light = contrastRatio(paint.fill, BLACK) >= contrastRatio(paint.fill, WHITE);
  const away = light ? BLACK : WHITE;
  for (let step = 1; step <= 10; step++) {
    const t = step / 10;
    const box = paint.box
      ? { ...over(away, t, { ...paint.box, a: 1 }), a: Math.max(paint.box.a, t) }
      : { ...away, a: t };
    const ratio = ratioOf({ ...paint, box });
    if (ratio < min) continue;
    const change = paint.box
      ? `change its background color to '${css(box)}'`
      : `give it a backing box: background: { color: '${css(box)}' }`;
    return `${recolour}, or ${change} (${ratioText(ratio)})`;
  }
  return recolour;
}

export const checkLowContrast: VisualCheck = (input) => {
  const measured: [
    string,
    { text: SampledText; frame: number; seconds: number; m: Measured; min: number },
  ][] = [];
  for (const sample of input.samples) {
    for (const text of sample.texts) {
      if (!text.backdrop) continue;
      const m = measureContrast(textPaint(input, text), text.backdrop);
      if (!m) continue;
      const min = isLarge(input, text) ? MIN_RATIO_LARGE : MIN_RATIO;
      measured.push([text.drawn.key, { text, frame: sample.frame, seconds: sample.seconds, m, min }]);
    }
  }
  const drafts: FindingDraft[] = [];
  for (const [key, worst] of worstPerKey(measured, (a, b) => a.m.ratio < b.m.ratio)) {
    if (worst.m.ratio >= worst.min) continue;
    const paint = textPaint(input, worst.text);
    const large = worst.min === MIN_RATIO_LARGE ? 'large text' : 'text of this size';
    drafts.push({
      code: 'low_contrast',
      severity: 'warning',
      ...elementInterval(input, key, worst.frame),
      message:
        `${describeElement(key, worst.text.drawn.element)} has a contrast of ${ratioText(worst.m.ratio)} against ` +
        `what is behind it at ${formatSeconds(worst.seconds)} (${CONTRAST_PERCENTILE * 100}th percentile over its ` +
        `glyphs), below the ${ratioText(worst.min)} needed for ${large}`,
      remedy: remedy(paint, worst.text.backdrop!, worst.min),
    });
  }
  return drafts;
};
