// inspect: the mounted timeline, the resource facts and warnings; with frameIndex, also that frame
// as a PNG and every element drawn on it (where, how opaque), which is what a finding's
// "Inspect frame" action opens.
import path from 'node:path';
import type { DrawnElement } from '../../../shared/draw/types.ts';
import type { ModelElement } from '../../../shared/spec/model.ts';
import { DrawingSession } from '../../engine/drawing-session.ts';
import { writePngAtomically } from '../../engine/render-frame.ts';
import { inspectComposition } from '../../inspect/inspect.ts';
import type { InspectResult } from '../../inspect/inspect.ts';
import { frameFileName, revisionTag } from './context.ts';
import type { OperationContext } from './context.ts';
import { assertFrameIndex } from './frame.ts';

export interface VisibleElement {
  key: string;
  id?: string | undefined;
  type: string;
  label?: string | undefined;
  /** Its box on the frame in pixels (the transform applied: rotation widens it). */
  box: { x: number; y: number; width: number; height: number };
  alpha: number;
}

export interface InspectOperationResult extends InspectResult {
  frame?: { index: number; seconds: number; path: string; visible: VisibleElement[] };
}

function label(element: ModelElement): string | undefined {
  if (element.type === 'text')
    return element.text.length > 60 ? `${element.text.slice(0, 57)}…` : element.text;
  const src = (element as { src?: unknown }).src;
  return typeof src === 'string' ? src : undefined;
}

function deviceBox(drawn: DrawnElement): VisibleElement['box'] {
  const { box, transform: m } = drawn;
  const corners = [
    [box.x, box.y],
    [box.x + box.width, box.y],
    [box.x, box.y + box.height],
    [box.x + box.width, box.y + box.height],
  ].map(([x, y]) => [m.a * x! + m.c * y! + m.e, m.b * x! + m.d * y! + m.f] as const);
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    x: round(Math.min(...xs)),
    y: round(Math.min(...ys)),
    width: round(Math.max(...xs) - Math.min(...xs)),
    height: round(Math.max(...ys) - Math.min(...ys)),
  };
}

export async function inspectOperation(ctx: OperationContext): Promise<InspectOperationResult> {
  const visible: VisibleElement[] = [];
  const session = await DrawingSession.open({
    model: ctx.model,
    project: ctx.renderProject,
    aspect: ctx.job.aspect,
    lenient: true,
    review: {
      observe: (drawn) =>
        visible.push({
          key: drawn.key,
          ...(drawn.element.id === undefined ? {} : { id: drawn.element.id }),
          type: drawn.element.type,
          label: label(drawn.element),
          box: deviceBox(drawn),
          alpha: Number(drawn.alpha.toFixed(3)),
        }),
    },
    signal: ctx.signal,
  });
  try {
    const facts = await inspectComposition({
      model: ctx.model,
      project: ctx.renderProject,
      video: session.video,
      signal: ctx.signal,
    });
    const index = ctx.job.frameIndex;
    if (index === undefined) return facts;
    assertFrameIndex(index, session.framesTotal);
    await session.draw(index);
    const file = path.join(
      ctx.resultsDir,
      'frames',
      revisionTag(ctx.sourceRevision),
      frameFileName(index, ctx.job.aspect),
    );
    await writePngAtomically(file, await session.png());
    return {
      ...facts,
      frame: { index, seconds: Number((index / session.video.fps).toFixed(3)), path: file, visible },
    };
  } finally {
    session.close();
  }
}
