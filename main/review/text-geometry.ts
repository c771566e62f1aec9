// Where a drawn text element's glyphs landed, re-derived from the same layout code the drawing used,
// under the transform the drawing reported: rendered font size, fit in its box, device-pixel lines.
import type { Ctx2D, DrawEnv, DrawnElement, Transform2D } from '../../shared/canvas/types.ts';
import { transformedBounds } from '../../shared/canvas/device-rect.ts';
import type { FrameRect } from '../../shared/canvas/device-rect.ts';
import { layoutTextElement } from '../../shared/elements/text/text-measure.ts';
import type { TextElement } from '../../shared/spec/text-element.ts';

/** Ascender to descender of most fonts is about one em around the line box's middle. */
const INK_HALF_HEIGHT_EM = 0.5;
/** The band from x-height to cap height holds most of the glyph strokes; what lies behind it is read. */
const GLYPH_BAND_HALF_HEIGHT_EM = 0.3;

export interface TextFit {
  /** Cut to maxLines (with an ellipsis). */
  truncated: boolean;
  /** Lines drawn, and lines the whole text needs in this width (more than drawn when truncated). */
  lines: number;
  linesNeeded: number;
  /** The text block (with background padding) against the box, in the element's pixels. */
  neededHeight: number;
  boxHeight: number;
  widestLine: number;
  areaWidth: number;
  tooTall: boolean;
  tooWide: boolean;
}

export interface TextGeometry {
  /** The font size the layout used, in the element's pixels before its transform. */
  size: number;
  /** The font size as it reaches the output, in output pixels: layout size × the transform's scale. */
  fontPx: number;
  fit: TextFit;
  /** Per line: ascender-to-descender bounds on the frame. */
  inkLines: FrameRect[];
  /** Per line: the x-height-to-cap-height band, where the glyphs' strokes are. */
  glyphBands: FrameRect[];
  /** All ink lines together. */
  ink: FrameRect | undefined;
}

export type DrawnText = DrawnElement & { element: TextElement };

export function isDrawnText<T extends DrawnElement>(drawn: T): drawn is T & DrawnText {
  return drawn.element.type === 'text';
}

/** The scale a transform applies to areas, as a length factor. */
export function transformScale(m: Transform2D): number {
  return Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
}

export function unionRect(rects: readonly FrameRect[]): FrameRect | undefined {
  if (rects.length === 0) return undefined;
  return {
    x0: Math.min(...rects.map((r) => r.x0)),
    y0: Math.min(...rects.map((r) => r.y0)),
    x1: Math.max(...rects.map((r) => r.x1)),
    y1: Math.max(...rects.map((r) => r.y1)),
  };
}

export function textGeometry(ctx: Ctx2D, env: DrawEnv, drawn: DrawnText): TextGeometry {
  const { element, box, transform, state } = drawn;
  const overrides = { size: state.props.size, letterSpacing: state.props.letterSpacing };
  const layout = layoutTextElement(ctx, element, env, box, overrides);
  const size = layout.style.size;
  const linesNeeded = layout.truncated
    ? layoutTextElement(ctx, { ...element, maxLines: undefined }, env, box, overrides).lines.length
    : layout.lines.length;
  const neededHeight = layout.height + (box.height - layout.area.height);
  const band = (halfEm: number) =>
    layout.lines
      .filter((line) => line.width > 0)
      .map((line) => {
        const middle = layout.top + line.y + layout.lineHeight / 2;
        const lineBox = {
          x: layout.area.x + line.x,
          y: middle - halfEm * size,
          width: line.width,
          height: 2 * halfEm * size,
        };
        return transformedBounds(lineBox, transform);
      });
  const inkLines = band(INK_HALF_HEIGHT_EM);
  return {
    size,
    fontPx: size * transformScale(transform),
    fit: {
      truncated: layout.truncated,
      lines: layout.lines.length,
      linesNeeded,
      neededHeight,
      boxHeight: box.height,
      widestLine: layout.width,
      areaWidth: layout.area.width,
      tooTall: layout.height > layout.area.height + 0.5,
      tooWide: layout.width > layout.area.width + 0.5,
    },
    inkLines,
    glyphBands: band(GLYPH_BAND_HALF_HEIGHT_EM),
    ink: unionRect(inkLines),
  };
}
