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
import type { VideoFrameCopy } from '../media/video-frames.ts';
import { createCanvas, ImageData } from '@napi-rs/canvas';
import type { Canvas } from '@napi-rs/canvas';
import type { MediaPlan, VideoUse } from '../../shared/timeline/media-plan.ts';

/** A media file the render read: the source as written, the file it resolved to, and its use. */
export interface MediaFileUse {
  role: 'image' | 'video' | 'audio' | 'captions' | 'data';
  source: string;
  path: string;
}

/** A video's picture on one frame, passed from the session that decodes to one that draws. */
export interface RelayedVideoFrame {
  key: string;
  version: number;
  width: number;
  height: number;
  /** Left out when the receiving session already holds this version. */
  pixels?: Uint8ClampedArray | undefined;
}

/**
 * How a session gets video frames: it decodes them; it decodes them and keeps copies to relay to
 * drawing threads (so a clip is decoded once, in frame order, however many threads draw); or it
 * takes relayed frames.
 */
export type VideoFrameMode = 'decode' | 'relay' | 'relayed';

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
  readonly #videoMode: VideoFrameMode;
  #closed = false;
  /** Relayed frames: one canvas per video use, and the version it shows. */
  readonly #relayed = new Map<string, { version: number; canvas: Canvas }>();

  private constructor(
    images: Map<string, DrawableImage>,
    captions: Map<string, string>,
    files: Map<string, string>,
    plan: MediaPlan,
    fps: number,
    videoMode: VideoFrameMode,
  ) {
    this.#videoMode = videoMode;
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
    {
      decodeImages = true,
      videoFrames = 'decode',
    }: { decodeImages?: boolean; videoFrames?: VideoFrameMode | undefined } = {},
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
    return new MediaSession(images, captions, files, plan, fps, videoFrames);
  }

  /** The local file behind a source (for audio mixing). */
  filePath(src: string): string | undefined {
    return this.#files.get(src);
  }

  /**
   * The media files the render read, in plan order: every image (decoded up front), the videos a
   * frame was drawn from so far, and the other sources (audio) when `audio` is true. With
   * `videosBefore`, every video shown before that frame counts as drawn from: what a render of
   * those frames reads, named by a session that draws none (stitching a render's chunks).
   */
  filesUsed({ audio, videosBefore }: { audio: boolean; videosBefore?: number | undefined }): MediaFileUse[] {
    if (videosBefore !== undefined) {
      for (const use of this.#videos) {
        if (use.startFrame < videosBefore && use.frameCount > 0 && this.#files.has(use.src)) {
          this.#videosDrawn.add(use.src);
        }
      }
    }
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
    if (this.#closed) throw new Error('the media session was closed');
    this.#current.clear();
    if (this.#videoMode === 'relayed') return;
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
      // A session that draws on request (the workspace keeps one warm) may be asked for an earlier
      // frame of a clip than the last: its decoder only reads forward, so the clip opens again.
      if (source?.goesBack(frame - use.startFrame)) {
        source.close();
        this.#open.delete(use.key);
        source = undefined;
      }
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
          copyFrames: this.#videoMode === 'relay',
        });
        // Closed while the source was opening (a canceled render): nothing would close it later.
        if (this.#closed) {
          source.close();
          throw new Error('the media session was closed');
        }
        this.#open.set(use.key, source);
        this.#videosDrawn.add(use.src);
      }
      this.#current.set(use.key, await source.frameAt(frame - use.startFrame));
    }
  }

  /**
   * Decodes the video pictures shown at `frame` (as prepareFrame does) and returns them with their
   * pixels, for a drawing thread (a 'relay' session only).
   */
  async relayFrame(frame: number): Promise<(VideoFrameCopy & { key: string })[]> {
    await this.prepareFrame(frame);
    const frames: (VideoFrameCopy & { key: string })[] = [];
    for (const key of this.#current.keys()) {
      const copy = this.#open.get(key)?.frameCopy();
      if (copy) frames.push({ key, ...copy });
    }
    return frames;
  }

  /** Makes relayed pictures current, in place of prepareFrame's decoding (a 'relayed' session). */
  showRelayedFrames(frames: RelayedVideoFrame[]): void {
    this.#current.clear();
    // Frames only go up and a clip shows over one run of them: one not on this frame is over here.
    for (const key of this.#relayed.keys()) {
      if (!frames.some((frame) => frame.key === key)) this.#relayed.delete(key);
    }
    for (const frame of frames) {
      let held = this.#relayed.get(frame.key);
      if (frame.pixels) {
        if (!held || held.canvas.width !== frame.width || held.canvas.height !== frame.height) {
          held = { version: 0, canvas: createCanvas(frame.width, frame.height) };
          this.#relayed.set(frame.key, held);
        }
        const image = new ImageData(frame.pixels, frame.width, frame.height);
        held.canvas.getContext('2d').putImageData(image, 0, 0);
        held.version = frame.version;
      }
      if (!held || held.version !== frame.version) {
        throw new Error(`video frame ${frame.key} v${frame.version} was not relayed to this thread`);
      }
      this.#current.set(frame.key, held.canvas as unknown as DrawableImage);
    }
  }

  /** Every local file behind the plan's sources (remote ones as fetched into the cache). */
  filesRead(): string[] {
    return [...this.#files.values()];
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
    this.#closed = true;
    for (const source of this.#open.values()) source.close();
    this.#open.clear();
  }
}
