// Loads a render's media up front (images) or as it plays (video frames), behind the MediaLookup
// the drawing code reads synchronously.
import type { DrawableImage, MediaLookup } from '../../shared/canvas/types.ts';
import { loadImages } from '../media/images.ts';
import { readCaptionFile } from '../media/caption-files.ts';
import { readDataFile } from '../media/data-files.ts';
import { MediaError } from '../media/media-error.ts';
import { resolveMediaSource } from '../media/source.ts';
import type { MediaContext } from './project-context.ts';
import { VideoFrameSource } from '../media/video-frames.ts';
import type { MediaPlan, VideoUse } from '../../shared/timeline/media-plan.ts';

/** A media file the render read: the source as written, the file it resolved to, and its use. */
export interface MediaFileUse {
  role: 'image' | 'video' | 'audio' | 'captions' | 'data';
  source: string;
  path: string;
}

export class MediaSession implements MediaLookup {
  readonly #images: Map<string, DrawableImage>;
  /** Text files by source: caption files and chart data files (the plan says which). */
  readonly #texts: Map<string, string>;
  readonly #dataFiles: Set<string>;
  readonly #files: Map<string, string>;
  readonly #videos: VideoUse[];
  readonly #imageSources: Set<string>;
  readonly #fps: number;
  /** Video sources a frame was decoded from. */
  readonly #videosDrawn = new Set<string>();
  readonly #open = new Map<string, VideoFrameSource>();
  readonly #current = new Map<string, DrawableImage>();

  private constructor(
    images: Map<string, DrawableImage>,
    captions: Map<string, string>,
    files: Map<string, string>,
    plan: MediaPlan,
    fps: number,
  ) {
    this.#images = images;
    this.#texts = captions;
    this.#dataFiles = plan.data;
    this.#files = files;
    this.#videos = plan.videos;
    this.#imageSources = plan.images;
    this.#fps = fps;
  }

  /**
   * Resolves every source (fetching allowed remote ones) and decodes the images. With `onMissing`,
   * a source that cannot be had is reported there and left out (review draws without it) instead of
   * failing the session.
   */
  static async open(
    plan: MediaPlan,
    fps: number,
    context: MediaContext,
    signal?: AbortSignal,
    onMissing?: (src: string, error: MediaError) => void,
    { decodeImages = true }: { decodeImages?: boolean } = {},
  ): Promise<MediaSession> {
    const files = new Map<string, string>();
    const captions = new Map<string, string>();
    for (const src of plan.sources) {
      try {
        const resolved = await resolveMediaSource(src, context, signal);
        files.set(src, resolved.path);
        if (plan.captions.has(src))
          captions.set(src, await readCaptionFile(src, resolved.path, resolved.root));
        else if (plan.data.has(src)) captions.set(src, await readDataFile(src, resolved.path, resolved.root));
      } catch (error) {
        if (!onMissing || !(error instanceof MediaError)) throw error;
        onMissing(src, error);
      }
    }
    // A session that only plans (worker threads draw) resolves images but leaves them undecoded.
    const imagePaths = new Map(
      [...plan.images].filter((src) => decodeImages && files.has(src)).map((src) => [src, files.get(src)!]),
    );
    const images = (await loadImages(imagePaths, {
      maxPixels: context.policy.maxImagePixels,
    })) as unknown as Map<string, DrawableImage>;
    return new MediaSession(images, captions, files, plan, fps);
  }

  /** The local file behind a source (for audio mixing). */
  filePath(src: string): string | undefined {
    return this.#files.get(src);
  }

  /**
   * The media files the render read, in plan order: every image (decoded up front), the videos a
   * frame was drawn from so far, and the other sources (audio) when `audio` is true.
   */
  filesUsed({ audio }: { audio: boolean }): MediaFileUse[] {
    const used: MediaFileUse[] = [];
    for (const [source, path] of this.#files) {
      const role = this.#imageSources.has(source)
        ? 'image'
        : this.#dataFiles.has(source)
          ? 'data'
          : this.#texts.has(source)
            ? 'captions'
            : this.#videos.some((use) => use.src === source)
              ? 'video'
              : 'audio';
      if (role === 'video' && !this.#videosDrawn.has(source)) continue;
      if (role === 'audio' && !audio) continue;
      used.push({ role, source, path });
    }
    return used;
  }

  /**
   * Decodes the video frames shown at `frame`. Sources open when their use begins and close when it
   * ends, so a long video holds at most the clips on screen.
   */
  async prepareFrame(frame: number): Promise<void> {
    this.#current.clear();
    for (const use of this.#videos) {
      if (!this.#files.has(use.src)) continue;
      const end = use.startFrame + use.frameCount;
      const open = this.#open.get(use.key);
      if (frame < use.startFrame || frame >= end) {
        if (open && frame >= end) {
          open.close();
          this.#open.delete(use.key);
        }
        continue;
      }
      let source = open;
      if (!source) {
        source = await VideoFrameSource.open({
          path: this.#files.get(use.src)!,
          fps: this.#fps,
          sourceStartSeconds: use.sourceStartSeconds,
          sourceEndSeconds: use.sourceEndSeconds,
          source: use.src,
          rate: use.rate,
          loop: use.loop,
          durationSeconds: use.frameCount / this.#fps,
        });
        this.#open.set(use.key, source);
        this.#videosDrawn.add(use.src);
      }
      this.#current.set(use.key, await source.frameAt(frame - use.startFrame));
    }
  }

  /** Frames 0..frames-1 were drawn by other sessions (worker threads): their videos count as read. */
  noteFramesDrawn(frames: number): void {
    for (const use of this.#videos) {
      if (this.#files.has(use.src) && use.startFrame < frames && use.frameCount > 0)
        this.#videosDrawn.add(use.src);
    }
  }

  image(src: string): DrawableImage | undefined {
    return this.#images.get(src);
  }

  captionText(src: string): string | undefined {
    return this.#dataFiles.has(src) ? undefined : this.#texts.get(src);
  }

  dataText(src: string): string | undefined {
    return this.#dataFiles.has(src) ? this.#texts.get(src) : undefined;
  }

  videoFrame(key: string): DrawableImage | undefined {
    return this.#current.get(key);
  }

  close(): void {
    for (const source of this.#open.values()) source.close();
    this.#open.clear();
  }
}
