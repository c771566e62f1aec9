// The drawing session a frame or inspect request draws on, kept warm between requests (see
// warm-sessions.ts). Inspect draws leniently and reports each element drawn; since its session
// outlives the request, the report goes to whichever request is drawing now.
import type { DrawnElement } from '../../../shared/canvas/types.ts';
import type { VideoModel } from '../../../shared/spec/model.ts';
import { DrawingSession } from '../../engine/drawing-session.ts';
import type { DrawingSessionOptions } from '../../engine/drawing-session.ts';
import type { RenderProjectContext } from '../../engine/project-context.ts';
import type { ReusableSession, WarmSessionKey } from '../warm-sessions.ts';

/** frame: fails on a missing source; inspect: draws without it and observes every element. */
export type WarmDrawingKind = 'frame' | 'inspect';

export interface WarmDrawingOptions {
  kind: WarmDrawingKind;
  model: VideoModel;
  project: RenderProjectContext;
  aspect?: DrawingSessionOptions['aspect'];
  signal?: AbortSignal | undefined;
}

type Observer = (drawn: DrawnElement) => void;

export class WarmDrawing implements ReusableSession {
  readonly drawing: DrawingSession;
  readonly #observing: { current?: Observer | undefined };

  private constructor(drawing: DrawingSession, observing: { current?: Observer | undefined }) {
    this.drawing = drawing;
    this.#observing = observing;
  }

  static async open(options: WarmDrawingOptions): Promise<WarmDrawing> {
    const observing: { current?: Observer | undefined } = {};
    const inspect = options.kind === 'inspect';
    const drawing = await DrawingSession.open({
      model: options.model,
      project: options.project,
      aspect: options.aspect,
      signal: options.signal,
      ...(inspect ? { lenient: true, review: { observe: (drawn) => observing.current?.(drawn) } } : {}),
    });
    return new WarmDrawing(drawing, observing);
  }

  /** Receives every element drawn (inspect sessions): set by the request drawing now. */
  get observer(): Observer | undefined {
    return this.#observing.current;
  }

  set observer(observer: Observer | undefined) {
    this.#observing.current = observer;
  }

  filesRead(): string[] {
    return this.drawing.filesRead();
  }

  /** A lenient session that went without a font or media file is not kept: the file may turn up. */
  reusable(): boolean {
    return this.drawing.unavailable.length === 0;
  }

  close(): void {
    this.drawing.close();
  }
}

/**
 * What a warm session is kept by: the revision, and the kind, aspect and template values it was
 * opened with (values sorted by name, so their order in a request does not matter).
 */
export function warmDrawingKey(
  kind: WarmDrawingKind,
  sourceRevision: string,
  aspect: string | undefined,
  variables: Readonly<Record<string, unknown>> | undefined,
): WarmSessionKey {
  const values = Object.keys(variables ?? {})
    .sort()
    .map((name) => [name, variables![name]]);
  return { sourceRevision, variant: JSON.stringify([kind, aspect ?? null, values]) };
}
