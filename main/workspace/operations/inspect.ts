// inspect: the mounted timeline, the resource facts and warnings; with frameIndex, also that frame
// as a PNG and every element drawn on it (where, how opaque), which is what a finding's
// "Inspect frame" action opens. It draws on the session the worker keeps warm for inspecting.
import type { DrawnElement } from '../../../shared/canvas/types.ts';
import type { ModelElement } from '../../../shared/spec/model.ts';
import { inspectComposition } from '../../inspect/inspect.ts';
import { transformedBounds } from '../../../shared/canvas/device-rect.ts';
import { withWarmDrawing } from './context.ts';
import type { OperationContext } from './context.ts';
import { captureFrame } from './frame.ts';
import type { VisibleElement, InspectOperationResult } from '../../../shared/protocol/workspace.ts';

function label(element: ModelElement): string | undefined {
  if (element.type === 'text')
    return element.text.length > 60 ? `${element.text.slice(0, 57)}…` : element.text;
  const src = (element as { src?: unknown }).src;
  return typeof src === 'string' ? src : undefined;
}

function deviceBox(drawn: DrawnElement): VisibleElement['box'] {
  const bounds = transformedBounds(drawn.box, drawn.transform);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    x: round(bounds.x0),
    y: round(bounds.y0),
    width: round(bounds.x1 - bounds.x0),
    height: round(bounds.y1 - bounds.y0),
  };
}

export async function inspectOperation(ctx: OperationContext): Promise<InspectOperationResult> {
  return withWarmDrawing(ctx, 'inspect', async (warm) => {
    const visible: VisibleElement[] = [];
    const facts = await inspectComposition({
      model: ctx.model,
      project: ctx.renderProject,
      video: warm.drawing.video,
      signal: ctx.signal,
    });
    const index = ctx.job.frameIndex;
    if (index === undefined) return facts;
    warm.observer = (drawn) =>
      visible.push({
        key: drawn.key,
        ...(drawn.element.id === undefined ? {} : { id: drawn.element.id }),
        type: drawn.element.type,
        label: label(drawn.element),
        box: deviceBox(drawn),
        alpha: Number(drawn.alpha.toFixed(3)),
      });
    try {
      const frame = await captureFrame(ctx, warm.drawing, index);
      return { ...facts, frame: { ...frame, visible } };
    } finally {
      warm.observer = undefined;
    }
  });
}
