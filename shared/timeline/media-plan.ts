// What media a resolved video needs, found by walking its scenes and overlays once before rendering.
import { elementKind } from '../spec/elements.ts';
import type { ClipElement } from '../spec/media-elements.ts';
import type { ResolvedElement, ResolvedVideo } from './types.ts';
import type { Trim } from '../spec/primitives.ts';
import { timeToSeconds } from '../spec/time.ts';

/** One place a video plays: a clip element or a video background, with its own timing. */
export interface VideoUse {
  /** The key drawing code asks for (element key, or "s<i>/background"). */
  key: string;
  src: string;
  /** First video frame on which it shows, and how many frames it shows for. */
  startFrame: number;
  frameCount: number;
  sourceStartSeconds: number;
  sourceEndSeconds: number | undefined;
  rate: number;
  loop: boolean;
}

export interface MediaPlan {
  images: Set<string>;
  videos: VideoUse[];
  /** Caption files (SRT, WebVTT), read as text before drawing. */
  captions: Set<string>;
  /** Chart data files (CSV, JSON), read as text before drawing. */
  data: Set<string>;
  /** Every source the render reads (images, videos, audio, fonts are added by the caller). */
  sources: Set<string>;
}

/** Where in the source a trimmed video starts and ends, in seconds (no end: the file's end). */
function trimSeconds(
  trim: Trim | undefined,
  fps: number,
): { sourceStartSeconds: number; sourceEndSeconds: number | undefined } {
  return {
    sourceStartSeconds: trim?.start === undefined ? 0 : timeToSeconds(trim.start, fps),
    sourceEndSeconds: trim?.end === undefined ? undefined : timeToSeconds(trim.end, fps),
  };
}

export function planMedia(video: ResolvedVideo): MediaPlan {
  const images = new Set<string>();
  const videos: VideoUse[] = [];
  const captions = new Set<string>();
  const data = new Set<string>();
  const fps = video.fps;

  const visit = (resolved: ResolvedElement, sceneStartSeconds: number) => {
    const element = resolved.element;
    if (element.type === 'custom') return;
    const definition = elementKind(element.type);
    const needs = definition?.media?.(element);
    needs?.images.forEach((src) => images.add(src));
    needs?.captions?.forEach((src) => captions.add(src));
    needs?.data?.forEach((src) => data.add(src));
    if (element.type === 'clip') {
      const clip = element as ClipElement;
      const start = Math.round((sceneStartSeconds + resolved.startSeconds) * fps);
      const end = Math.round((sceneStartSeconds + resolved.endSeconds) * fps);
      videos.push({
        key: resolved.key,
        src: clip.src,
        startFrame: start,
        frameCount: Math.max(1, end - start),
        ...trimSeconds(clip.trim, fps),
        rate: clip.rate ?? 1,
        loop: clip.loop ?? false,
      });
    }
    resolved.children.forEach((child) => visit(child, sceneStartSeconds));
  };

  for (const scene of video.scenes) {
    const background = scene.background;
    if (typeof background !== 'string') {
      if (background.type === 'image') images.add(background.src);
      if (background.type === 'video') {
        videos.push({
          key: `s${scene.index}/background`,
          src: background.src,
          startFrame: scene.startFrame,
          frameCount: Math.max(1, scene.endFrame - scene.startFrame),
          ...trimSeconds(background.trim, fps),
          rate: background.rate ?? 1,
          loop: background.loop ?? true,
        });
      }
    }
    scene.elements.forEach((resolved) => visit(resolved, scene.startSeconds));
  }
  video.overlays.elements.forEach((resolved) => visit(resolved, video.overlays.startSeconds));
  const sources = new Set<string>([
    ...images,
    ...captions,
    ...data,
    ...videos.map((v) => v.src),
    ...video.audio.map((a) => a.track.src),
  ]);
  return { images, videos, captions, data, sources };
}
