// offscreen_element: an element that is drawn (visible, not faded out) but lies wholly outside the
// frame while at rest: nobody sees it, which is usually a wrong position or unit.
import type { ModelElement } from '../../../shared/spec/model.ts';
import type { SampledElement } from '../capture.ts';
import type { FindingDraft } from '../finding.ts';
import { transformedBounds } from '../../../shared/canvas/device-rect.ts';
import type { FrameRect } from '../../../shared/canvas/device-rect.ts';
import { describeElement, elementInterval, formatSeconds, toDesign } from './check.ts';
import type { VisualCheck } from './check.ts';

function isOutside(bounds: FrameRect, size: { width: number; height: number }): boolean {
  return bounds.x1 <= 0 || bounds.x0 >= size.width || bounds.y1 <= 0 || bounds.y0 >= size.height;
}

function position(element: ModelElement): string {
  const parts = [
    element.x === undefined ? undefined : `x = ${JSON.stringify(element.x)}`,
    element.y === undefined ? undefined : `y = ${JSON.stringify(element.y)}`,
  ].filter(Boolean);
  return parts.length > 0 ? ` (it has ${parts.join(', ')})` : '';
}

export const checkOffscreenElement: VisualCheck = (input) => {
  const found = new Map<
    string,
    { element: SampledElement; bounds: FrameRect; frame: number; seconds: number }
  >();
  for (const sample of input.samples) {
    const outside: string[] = [];
    for (const element of sample.elements) {
      // Inside a group that is itself off the frame: the group is the one to report.
      if (outside.some((key) => element.key.startsWith(`${key}/`))) continue;
      const bounds = transformedBounds(element.box, element.transform);
      if (!element.atRest || !isOutside(bounds, input.video.size)) continue;
      outside.push(element.key);
      if (!found.has(element.key))
        found.set(element.key, { element, bounds, frame: sample.frame, seconds: sample.seconds });
    }
  }
  const drafts: FindingDraft[] = [];
  const design = (value: number) => Math.round(toDesign(input.video, value));
  for (const [key, seen] of found) {
    const { bounds, element } = seen;
    const { width, height } = input.video.size;
    drafts.push({
      code: 'offscreen_element',
      severity: 'warning',
      ...elementInterval(input, key, seen.frame),
      message:
        `${describeElement(key, element.element)} is drawn at ${Math.round(element.alpha * 100)} % opacity but lies ` +
        `entirely outside the ${design(width)}×${design(height)} frame at ${formatSeconds(seen.seconds)}: its box spans ` +
        `x ${design(bounds.x0)} to ${design(bounds.x1)}, y ${design(bounds.y0)} to ${design(bounds.y1)}`,
      remedy:
        `bring it into the frame${position(element.element)}: x and y are fractions of the containing box, ` +
        `0 to 1 (or lengths like "120px"); or remove it if it is not meant to be seen`,
    });
  }
  return drafts;
};
