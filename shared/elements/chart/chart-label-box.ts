// The box a chart label is laid out and drawn in, shared by the geometry (which must know how much
// room a label takes: a donut fits its labels inside the ring) and the drawing.
import type { Box } from '../../canvas/types.ts';
import type { ChartText } from './chart-shapes.ts';

/** Text boxes get this much room over their measured width, so layout never wraps them. */
export const TEXT_BOX_SLACK = 4;
/** A label's box is one line tall: this many times its text size. */
export const LINE_BOX_EM = 1.3;

/**
 * The box a label is laid out in: its measured width (and a little), one line tall, placed by its
 * anchor. `size` is the chart's text size, used unless the label carries its own.
 */
export function textBox(text: ChartText, size: number): Box {
  const width = text.width + TEXT_BOX_SLACK;
  const x =
    text.align === 'left'
      ? text.x - TEXT_BOX_SLACK / 2
      : text.align === 'right'
        ? text.x - width + TEXT_BOX_SLACK / 2
        : text.x - width / 2;
  const height = (text.size ?? size) * LINE_BOX_EM;
  return { x, y: text.y - height / 2, width, height };
}
