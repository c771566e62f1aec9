// The browser's MediaLookup: images decoded before playback starts, videos from <video> elements.
// A source the server cannot give (missing, outside the project, a host not allowed) is reported
// with the server's reason and left out of the picture, so the rest of the composition still plays.
import type { DrawableImage, MediaLookup } from '../../shared/canvas/types.ts';
import type { ProblemBody } from '../../shared/protocol/problem.ts';
import type { MediaPlan } from '../../shared/timeline/media-plan.ts';
import { PreviewVideo } from './preview-video.ts';
import { mediaUrl } from './route-base.ts';

export interface MissingSource {
  src: string;
  message: string;
}

/** Why the server refused `src`: its problem's detail, else the HTTP status. */
export async function refusalReason(src: string): Promise<string> {
  try {
    const response = await fetch(mediaUrl(src));
    if (response.ok) return 'the browser could not decode it';
    const body = (await response.json().catch(() => undefined)) as Partial<ProblemBody> | undefined;
    return body?.detail ?? `HTTP ${response.status}`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

async function loadImage(src: string): Promise<HTMLImageElement> {
  const image = new Image();
  image.src = mediaUrl(src);
  await image.decode();
  return image;
}

async function loadText(src: string): Promise<string> {
  const response = await fetch(mediaUrl(src));
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return (await response.text()).replace(/^\uFEFF/, '');
}

/** Loads every source, each on its own; one that fails is listed in `missing` with the server's reason. */
async function loadEach<T>(
  sources: Iterable<string>,
  load: (src: string) => Promise<T>,
  missing: MissingSource[],
): Promise<Map<string, T>> {
  const loaded = new Map<string, T>();
  await Promise.all(
    [...sources].map(async (src) => {
      try {
        loaded.set(src, await load(src));
      } catch {
        missing.push({ src, message: await refusalReason(src) });
      }
    }),
  );
  return loaded;
}

export class PreviewMedia implements MediaLookup {
  readonly missing: MissingSource[];
  readonly #images: Map<string, DrawableImage>;
  readonly #captions: Map<string, string>;
  readonly #data: Map<string, string>;
  readonly #videos: Map<string, PreviewVideo>;

  private constructor(
    images: Map<string, DrawableImage>,
    captions: Map<string, string>,
    data: Map<string, string>,
    videos: Map<string, PreviewVideo>,
    missing: MissingSource[],
  ) {
    this.#images = images;
    this.#captions = captions;
    this.#data = data;
    this.#videos = videos;
    this.missing = missing;
  }

  /** Loads everything the plan needs; `onSeeked` fires when a paused video lands on a new picture. */
  static async load(plan: MediaPlan, fps: number, onSeeked: () => void): Promise<PreviewMedia> {
    const missing: MissingSource[] = [];
    const images = await loadEach(plan.images, loadImage, missing);
    const captions = await loadEach(plan.captions, loadText, missing);
    const data = await loadEach(plan.data, loadText, missing);
    const videos = new Map(plan.videos.map((use) => [use.key, new PreviewVideo(use, fps, onSeeked)]));
    await Promise.all([...videos.values()].map((video) => video.firstPicture()));
    const failed = new Set(
      [...videos.values()].filter((video) => video.failed).map((video) => video.use.src),
    );
    for (const src of failed) missing.push({ src, message: await refusalReason(src) });
    return new PreviewMedia(images, captions, data, videos, missing);
  }

  /** Brings every video to frame `frame` before it is drawn. */
  sync(frame: number, playing: boolean, rate = 1): void {
    for (const video of this.#videos.values()) video.sync(frame, playing, rate);
  }

  image(src: string): DrawableImage | undefined {
    return this.#images.get(src);
  }

  captionText(src: string): string | undefined {
    return this.#captions.get(src);
  }

  dataText(src: string): string | undefined {
    return this.#data.get(src);
  }

  videoFrame(key: string): DrawableImage | undefined {
    return this.#videos.get(key)?.picture;
  }

  dispose(): void {
    for (const video of this.#videos.values()) video.dispose();
  }
}
