// A drawing session set up for review: it records every element drawn on a frame, can draw the same
// frame again without its text (to sample what the text sits on), and reads pixels back. One session
// serves both drawings, so media and fonts are opened once and the two passes see the same frame.
import { isTextualType } from '../../shared/spec/elements.ts';
import { createHash } from 'node:crypto';
import type { DrawEnv, DrawnElement } from '../../shared/canvas/types.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import type { AspectName, FrameSize } from '../../shared/spec/sizes.ts';
import type { ResolvedVideo } from '../../shared/timeline/types.ts';
import { createDrawEnv, createSkiaSurface } from '../engine/canvas-host.ts';
import type { SkiaSurface } from '../engine/canvas-host.ts';
import { DrawingSession } from '../engine/drawing-session.ts';
import type { UnavailableSource } from '../engine/drawing-session.ts';
import type { RenderProjectContext } from '../engine/project-context.ts';
import { bundledFontFiles } from '../fonts/bundled.ts';
import { GlyphCoverage } from '../fonts/glyph-coverage.ts';

export interface ReviewSessionOptions {
  model: VideoModel;
  project: RenderProjectContext;
  aspect?: AspectName | FrameSize | undefined;
  /** Draw without media or fonts that cannot be had (another check reports them); default true. */
  lenient?: boolean | undefined;
  signal?: AbortSignal | undefined;
}

/** A device-pixel rectangle [x0, x1) × [y0, y1). */
export interface PixelRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** One run of text an element drew, in the CSS font it was drawn in. */
export interface TextRun {
  /** The element's key, e.g. "s0/e2". */
  key: string;
  font: string;
  text: string;
}

/** What one observed drawing saw: the elements in drawing order, and each distinct run of text. */
export interface ObservedFrame {
  elements: DrawnElement[];
  textRuns: TextRun[];
}

/** What the hooks do on the current draw: collect drawn elements and text, leave text out. */
interface DrawMode {
  observed: ObservedFrame | undefined;
  /** The keys of the elements being drawn, innermost last. */
  drawing: string[];
  hideText: boolean;
}

function recordRun(mode: DrawMode, font: string, text: string): void {
  const key = mode.drawing.at(-1);
  const runs = mode.observed?.textRuns;
  if (key === undefined || !runs) return;
  // Fill, outline and shadow passes draw the same run again.
  if (!runs.some((run) => run.key === key && run.font === font && run.text === text))
    runs.push({ key, font, text });
}

const NO_MEDIA = { image: () => undefined, videoFrame: () => undefined };

export class ReviewSession {
  readonly drawing: DrawingSession;
  /**
   * An environment for measuring text the way the drawing did (fonts are registered by the session),
   * with the caption files the session loaded, so captions page the same way.
   */
  readonly layoutEnv: DrawEnv;
  /** A 1×1 canvas to measure text on. */
  readonly measuring: SkiaSurface;
  readonly #mode: DrawMode;

  private constructor(drawing: DrawingSession, mode: DrawMode) {
    this.drawing = drawing;
    this.#mode = mode;
    this.layoutEnv = createDrawEnv(drawing.video.size, drawing.video.fps, {
      ...NO_MEDIA,
      captionText: (src) => drawing.captionText(src),
      dataText: (src) => drawing.dataText(src),
    });
    this.measuring = createSkiaSurface(1, 1);
  }

  static async open(options: ReviewSessionOptions): Promise<ReviewSession> {
    const mode: DrawMode = { observed: undefined, drawing: [], hideText: false };
    const drawing = await DrawingSession.open({
      model: options.model,
      project: options.project,
      aspect: options.aspect,
      lenient: options.lenient ?? true,
      signal: options.signal,
      review: {
        observe: (drawn) => mode.observed?.elements.push(drawn),
        hide: (element) => mode.hideText && isTextualType(element.type),
        enter: (key) => mode.drawing.push(key),
        leave: () => mode.drawing.pop(),
        text: (font, text) => recordRun(mode, font, text),
      },
    });
    return new ReviewSession(drawing, mode);
  }

  get video(): ResolvedVideo {
    return this.drawing.video;
  }

  get unavailable(): readonly UnavailableSource[] {
    return this.drawing.unavailable;
  }

  /** Draws the frame as rendered and returns every element and run of text drawn on it, in order. */
  async drawObserved(frame: number): Promise<ObservedFrame> {
    const observed: ObservedFrame = { elements: [], textRuns: [] };
    this.#mode.observed = observed;
    this.#mode.drawing.length = 0;
    try {
      await this.drawing.draw(frame);
    } finally {
      this.#mode.observed = undefined;
    }
    return observed;
  }

  /**
   * Draws the frame with every text element left out. With `only`, pixels outside those rects are
   * left undrawn (Skia skips rasterising them), for when only what lies behind some text is read.
   */
  async drawWithoutText(frame: number, only?: readonly PixelRect[]): Promise<void> {
    const { ctx } = this.drawing.surface;
    this.#mode.hideText = true;
    ctx.save();
    try {
      if (only) {
        ctx.beginPath();
        for (const rect of only) ctx.rect(rect.x0, rect.y0, rect.x1 - rect.x0, rect.y1 - rect.y0);
        ctx.clip();
      }
      await this.drawing.draw(frame);
    } finally {
      ctx.restore();
      this.#mode.hideText = false;
    }
  }

  /** Which characters the fonts this video can draw with have: the bundled ones and its declared ones. */
  glyphs(): GlyphCoverage {
    const bundled = bundledFontFiles().map((file) => ({ family: file.alias, path: file.path }));
    return new GlyphCoverage([...bundled, ...this.drawing.fonts]);
  }

  /** The last drawn frame as straight RGBA. */
  rgba(): Uint8Array {
    return this.drawing.rgba();
  }

  /** Straight RGBA of part of the last drawn frame (row-major, the rect's width per row). */
  region(rect: PixelRect): Uint8Array {
    const image = this.drawing.surface.ctx.getImageData(
      rect.x0,
      rect.y0,
      rect.x1 - rect.x0,
      rect.y1 - rect.y0,
    );
    return new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  }

  /** Draws a frame as rendered and hashes its pixels. */
  async frameSha256(frame: number): Promise<string> {
    await this.drawing.draw(frame);
    return sha256(this.rgba());
  }

  close(): void {
    this.drawing.close();
  }
}

export function sha256(pixels: Uint8Array): string {
  return createHash('sha256').update(pixels).digest('hex');
}
