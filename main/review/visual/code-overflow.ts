// code_overflow: a code element whose widest line (in any of its steps) is wider than the room its
// box leaves for code, so the line is cut at the panel's edge. Measured with the same fonts and
// layout the drawing uses.
import type { DrawEnv } from '../../../shared/canvas/types.ts';
import { codeOverflow } from '../../../shared/elements/code/code-draw.ts';
import type { CodeElement } from '../../../shared/spec/code-element.ts';
import { createDrawEnv } from '../../engine/canvas-host.ts';
import type { FindingDraft } from '../finding.ts';
import { describeElement, elementInterval, toDesign } from './check.ts';
import type { VisualCheck } from './check.ts';

const NO_MEDIA = { image: () => undefined, videoFrame: () => undefined };
const START_CHARS = 40;

function lineStart(text: string): string {
  const trimmed = text.trim();
  return trimmed.length <= START_CHARS ? trimmed : `${trimmed.slice(0, START_CHARS - 1).trimEnd()}…`;
}

export const checkCodeOverflow: VisualCheck = (input) => {
  let env: DrawEnv | undefined;
  const drafts: FindingDraft[] = [];
  const seen = new Set<string>();
  for (const sample of input.samples) {
    for (const drawn of sample.elements) {
      if (drawn.element.type !== 'code' || seen.has(drawn.key) || !drawn.atRest) continue;
      seen.add(drawn.key);
      env ??= createDrawEnv(input.video.size, input.video.fps, NO_MEDIA);
      const element = drawn.element as CodeElement;
      const overflow = codeOverflow(element, env, drawn.box);
      if (!overflow) continue;
      const design = (pixels: number) => Math.round(toDesign(input.video, pixels));
      const size = design(overflow.size);
      const smaller = Math.floor((size * overflow.available) / overflow.width);
      const step = overflow.version === 0 ? '' : ` of step ${overflow.version}`;
      drafts.push({
        code: 'code_overflow',
        severity: 'error',
        ...elementInterval(input, drawn.key, sample.frame),
        message:
          `${describeElement(drawn.key, drawn.element)}: line ${overflow.line + 1}${step} ("${lineStart(overflow.text)}") ` +
          `is ${design(overflow.width)} px wide but the box leaves ${design(overflow.available)} px for code, so it is cut at the panel's edge`,
        remedy:
          `lower size to about ${smaller} (it is ${size}), widen the box by at least ` +
          `${Math.ceil(toDesign(input.video, overflow.width - overflow.available))} px (or leave width out), or wrap the line in the code`,
      });
    }
  }
  return drafts;
};
