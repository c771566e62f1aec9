// A mounted composition ready to draw any frame: fonts registered, timeline resolved, media open,
// one Skia surface. The workspace keeps one warm across frame requests; review mounts a second one
// to check that drawing is repeatable.
import { drawFrame } from '../../shared/draw/frame.ts';
import type { DrawReviewHooks } from '../../shared/canvas/types.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import type { AspectName, FrameSize } from '../../shared/spec/sizes.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import type { ResolvedVideo } from '../../shared/timeline/types.ts';
import type { MediaError } from '../media/media-error.ts';
import { encodePng } from './png.ts';
import { createDrawEnv, createSkiaSurface, readRgba, reportingText } from './canvas-host.ts';
import type { SkiaSurface } from './canvas-host.ts';
import { prepareFonts } from './fonts.ts';
import type { FontFileUse } from './fonts.ts';
import { planMedia } from '../../shared/timeline/media-plan.ts';
import { checkCaptions } from '../../shared/elements/captions/captions-pages.ts';
import { checkCharts } from '../../shared/elements/chart/chart-data.ts';
import { MediaSession } from './media-session.ts';
import type { RelayedVideoFrame, VideoFrameMode } from './media-session.ts';
import { prepareCodeHighlighter } from './code-tokens.ts';
import type { CodeHighlighter } from '../../shared/canvas/types.ts';
import type { RenderProjectContext } from './project-context.ts';

export class FrameOutOfRangeError extends Error {
  constructor(frame: number, total: number) {
    super(`frame ${frame} is outside the timeline: it has ${total} frames (0–${total - 1})`);
    this.name = 'FrameOutOfRangeError';
  }
}

/** A source (media or font) the session could not get, kept instead of failing (lenient sessions). */
export interface UnavailableSource {
  src: string;
  kind: 'media' | 'font';
  error: MediaError;
}

export interface DrawingSessionOptions {
  model: VideoModel;
  project: RenderProjectContext;
  /** An aspect name or an explicit pixel size; default the model's aspect. */
  aspect?: AspectName | FrameSize | undefined;
  review?: DrawReviewHooks | undefined;
  /**
   * How the model becomes the timeline drawn; default: resolved at `aspect`. A render passes
   * resolveForOutput, which draws at its quality's size.
   */
  resolve?: ((model: VideoModel) => ResolvedVideo) | undefined;
  /** How the session gets video pictures (a rasterising thread takes them relayed). */
  videoFrames?: VideoFrameMode | undefined;
  /** Draw without sources that cannot be had, listing them in `unavailable`, instead of failing. */
  lenient?: boolean | undefined;
  signal?: AbortSignal | undefined;
}

export class DrawingSession {
  readonly video: ResolvedVideo;
  readonly unavailable: readonly UnavailableSource[];
  /** The declared font files registered for this video (the bundled ones are not listed). */
  readonly fonts: readonly FontFileUse[];
  readonly surface: SkiaSurface;
  readonly #media: MediaSession;
  readonly #env: ReturnType<typeof createDrawEnv>;

  private constructor(
    video: ResolvedVideo,
    media: MediaSession,
    unavailable: UnavailableSource[],
    fonts: FontFileUse[],
    review: DrawReviewHooks | undefined,
    code: CodeHighlighter | undefined,
  ) {
    this.video = video;
    this.#media = media;
    this.unavailable = unavailable;
    this.fonts = fonts;
    const surface = createSkiaSurface(video.size.width, video.size.height);
    this.surface = review?.text ? reportingText(surface, review.text) : surface;
    this.#env = createDrawEnv(video.size, video.fps, media, review, code);
  }

  static async open(options: DrawingSessionOptions): Promise<DrawingSession> {
    const unavailable: UnavailableSource[] = [];
    const collect = (kind: UnavailableSource['kind']) =>
      options.lenient
        ? (src: string, error: MediaError) => unavailable.push({ src, kind, error })
        : undefined;
    // Code is highlighted (from the token cache, else by shiki) while fonts and media load; drawing
    // then highlights without waiting.
    const highlighter = prepareCodeHighlighter(options.model);
    highlighter.catch(() => undefined);
    const fonts = await prepareFonts(options.model, options.project, options.signal, collect('font'));
    const video = options.resolve
      ? options.resolve(options.model)
      : resolveTimeline(options.model, { aspect: options.aspect });
    const media = await MediaSession.open(
      planMedia(video),
      video.fps,
      options.project.media,
      options.signal,
      collect('media'),
      { videoFrames: options.videoFrames },
    );
    checkCaptions(video.model, (src) => media.captionText(src));
    checkCharts(video.model, (src) => media.dataText(src));
    return new DrawingSession(video, media, unavailable, fonts, options.review, await highlighter);
  }

  get framesTotal(): number {
    return this.video.durationFrames;
  }

  assertFrame(frame: number): void {
    if (!Number.isInteger(frame) || frame < 0 || frame >= this.video.durationFrames) {
      throw new FrameOutOfRangeError(frame, this.video.durationFrames);
    }
  }

  /** Draws `frame` onto the session's surface (valid until the next draw). */
  async draw(frame: number): Promise<SkiaSurface> {
    this.assertFrame(frame);
    await this.#media.prepareFrame(frame);
    drawFrame(this.surface.ctx, this.video, frame, this.#env);
    return this.surface;
  }

  /** Draws `frame` with video pictures relayed from the render's own thread (a 'relayed' session). */
  drawRelayed(frame: number, videos: RelayedVideoFrame[]): SkiaSurface {
    this.assertFrame(frame);
    this.#media.showRelayedFrames(videos);
    drawFrame(this.surface.ctx, this.video, frame, this.#env);
    return this.surface;
  }

  /** A caption file's text as the session loaded it, for laying captions out without drawing them. */
  captionText(src: string): string | undefined {
    return this.#media.captionText(src);
  }

  /** A chart data file's text as the session loaded it, for laying charts out without drawing them. */
  dataText(src: string): string | undefined {
    return this.#media.dataText(src);
  }

  /**
   * The local files the session read its media and declared fonts from: what a session kept across
   * requests checks for changes (the source revision does not cover media outside the assets folder).
   */
  filesRead(): string[] {
    return [...this.#media.filesRead(), ...this.fonts.map((font) => font.path)];
  }

  /** The last drawn frame as straight RGBA. */
  rgba(): Uint8Array {
    return readRgba(this.surface);
  }

  /** The last drawn frame as PNG, with the fast encoder (Skia's own takes ~270 ms at 1080×1920). */
  async png(): Promise<Buffer> {
    const { width, height } = this.surface.skia;
    return encodePng(this.rgba(), width, height);
  }

  close(): void {
    this.#media.close();
  }
}
