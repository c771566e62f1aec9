// Where a video uses each media source and each font family, in video frames: resource facts list
// them, and a missing file is reported on exactly the frames (and element) that need it.
import type { TextElement } from '../../shared/spec/text-element.ts';
import { defaultFontWeight } from '../../shared/fonts/fonts.ts';
import type { ResolvedElement, ResolvedLayer, ResolvedVideo } from '../../shared/timeline/types.ts';
import { planMedia } from '../../shared/timeline/media-plan.ts';
import { captionFile } from '../../shared/spec/captions-element.ts';
import { isTextualType } from '../../shared/spec/elements.ts';
import { captionTextStyle } from '../../shared/elements/captions/captions-draw.ts';
import { elementInterval } from './timeline-facts.ts';
import type { MediaKind, SourceUse, TextFontUse } from '../../shared/protocol/inspect.ts';

export interface MediaSourceUses {
  src: string;
  /** video when any use plays it as video, else image, else audio. */
  kind: MediaKind;
  uses: SourceUse[];
}

function walk(elements: readonly ResolvedElement[], visit: (element: ResolvedElement) => void): void {
  for (const element of elements) {
    visit(element);
    walk(element.children, visit);
  }
}

function audioUses(video: ResolvedVideo): { src: string; use: SourceUse }[] {
  const total = video.durationFrames;
  return video.audio.flatMap((audio, index) => {
    // A clip's own sound is the clip's use: its video use already covers the same frames.
    if (audio.origin === 'clip') return [];
    const startFrame = Math.min(total, Math.max(0, Math.round(audio.startSeconds * video.fps)));
    // Without a duration it plays to the source's end; the video's end is the most it can cover.
    const endFrame =
      audio.durationSeconds === undefined
        ? total
        : Math.min(total, Math.round((audio.startSeconds + audio.durationSeconds) * video.fps));
    const use: SourceUse = {
      key: `audio/${index}`,
      isElement: false,
      kind: 'audio',
      startFrame,
      endFrame: Math.max(startFrame, endFrame),
    };
    return [{ src: audio.track.src, use }];
  });
}

/** The images, caption and data files a scene (its background included) or the overlays read. */
function layerFileUses(layer: ResolvedLayer, fps: number, images: Set<string>) {
  const uses: { src: string; use: SourceUse }[] = [];
  const background = layer.kind === 'scene' ? layer.background : undefined;
  if (layer.kind === 'scene' && typeof background === 'object' && background.type === 'image') {
    uses.push({
      src: background.src,
      use: {
        key: `s${layer.index}/background`,
        isElement: false,
        kind: 'image',
        startFrame: layer.startFrame,
        endFrame: layer.endFrame,
      },
    });
  }
  walk(layer.elements, (element) => {
    if (element.element.type === 'chart' && element.element.data) {
      const interval = elementInterval(layer, element, fps);
      uses.push({
        src: element.element.data.src,
        use: { key: element.key, isElement: true, kind: 'data', ...interval },
      });
      return;
    }
    const file = element.element.type === 'captions' ? captionFile(element.element) : undefined;
    if (file) {
      const interval = elementInterval(layer, element, fps);
      uses.push({ src: file.src, use: { key: element.key, isElement: true, kind: 'captions', ...interval } });
      return;
    }
    const src = 'src' in element.element ? element.element.src : undefined;
    if (element.element.type !== 'image' || typeof src !== 'string' || !images.has(src)) return;
    uses.push({
      src,
      use: { key: element.key, isElement: true, kind: 'image', ...elementInterval(layer, element, fps) },
    });
  });
  return uses;
}

/**
 * Ends the uses of a soundtrack entry that plays to its source's end, now that the source's length is
 * known (before, they ran to the video's end).
 */
export function endAudioUsesAtSource(
  uses: readonly SourceUse[],
  video: ResolvedVideo,
  sourceDurationSeconds: number,
): SourceUse[] {
  return uses.map((use) => {
    const audio = use.kind === 'audio' ? video.audio[Number(use.key.slice('audio/'.length))] : undefined;
    if (!audio || audio.durationSeconds !== undefined || audio.loop) return use;
    const playedSeconds = Math.max(0, sourceDurationSeconds - audio.sourceStartSeconds) / audio.rate;
    const end = Math.round((audio.startSeconds + playedSeconds) * video.fps);
    return { ...use, endFrame: Math.max(use.startFrame, Math.min(use.endFrame, end)) };
  });
}

const KIND_RANK: Record<MediaKind, number> = { video: 0, image: 1, audio: 2, captions: 3, data: 4 };

/** Every media source the video reads, in the order first used, with each place it is used. */
export function mediaSourceUses(video: ResolvedVideo): MediaSourceUses[] {
  const plan = planMedia(video);
  const found = [
    ...[...video.scenes, video.overlays].flatMap((layer) => layerFileUses(layer, video.fps, plan.images)),
    ...plan.videos.map((use) => ({
      src: use.src,
      use: {
        key: use.key,
        isElement: !use.key.endsWith('/background'),
        kind: 'video' as const,
        startFrame: use.startFrame,
        endFrame: use.startFrame + use.frameCount,
      },
    })),
    ...audioUses(video),
  ].sort((a, b) => a.use.startFrame - b.use.startFrame || a.use.key.localeCompare(b.use.key));
  const bySrc = new Map<string, MediaSourceUses>();
  for (const { src, use } of found) {
    const entry = bySrc.get(src) ?? { src, kind: use.kind, uses: [] };
    if (KIND_RANK[use.kind] < KIND_RANK[entry.kind]) entry.kind = use.kind;
    entry.uses.push(use);
    bySrc.set(src, entry);
  }
  // planMedia may know sources this walk does not (a future element type with media): keep them.
  for (const src of plan.sources) {
    if (bySrc.has(src)) continue;
    const kind = plan.images.has(src)
      ? 'image'
      : plan.captions.has(src)
        ? 'captions'
        : plan.data.has(src)
          ? 'data'
          : 'video';
    bySrc.set(src, { src, kind, uses: [] });
  }
  return [...bySrc.values()];
}

/** Every element that draws text, with the font face it asks for (family, weight, italic as the renderer reads them). */
export function textFontUses(video: ResolvedVideo): TextFontUse[] {
  const uses: TextFontUse[] = [];
  for (const layer of [...video.scenes, video.overlays]) {
    walk(layer.elements, (element) => {
      const drawn = element.element;
      if (drawn.type === 'custom' || !isTextualType(drawn.type)) return;
      // Captions draw in their style's face unless told otherwise (pop: 900).
      const text = drawn.type === 'captions' ? captionTextStyle(drawn) : (drawn as TextElement);
      const family = text.font ?? 'sans';
      uses.push({
        key: element.key,
        family,
        weight: text.weight ?? defaultFontWeight(family),
        italic: text.italic ?? false,
        ...elementInterval(layer, element, video.fps),
      });
    });
  }
  return uses;
}
