// The timeline a render draws: the model resolved at the size its output format and quality draw at.
import type { VideoModel } from '../../shared/spec/model.ts';
import { resolveAspect } from '../../shared/spec/sizes.ts';
import type { AspectName, FrameSize } from '../../shared/spec/sizes.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import type { ResolvedVideo } from '../../shared/timeline/types.ts';
import { formatHasAlpha } from '../../shared/output/formats.ts';
import type { OutputFormat, Quality } from '../../shared/output/formats.ts';
import { qualitySettings } from '../encoder/quality.ts';

/** Alpha formats render on transparency unless the author chose a background. */
function modelForFormat(model: VideoModel, format: OutputFormat): VideoModel {
  if (!formatHasAlpha(format) || model.background !== undefined) return model;
  return { ...model, background: 'transparent' };
}

function scaledSize(size: FrameSize, scale: number): FrameSize {
  const even = (n: number) => Math.max(16, Math.round((n * scale) / 2) * 2);
  return scale === 1 ? size : { width: even(size.width), height: even(size.height) };
}

/** Resolves the timeline at the size the quality level draws at (draft draws smaller, not scaled later). */
export function resolveForOutput(
  model: VideoModel,
  options: { aspect?: AspectName | undefined; format: OutputFormat; quality: Quality },
): ResolvedVideo {
  const full = resolveAspect(options.aspect ?? model.aspect ?? 'reels');
  const scale = qualitySettings(options.format, options.quality).scale;
  return resolveTimeline(modelForFormat(model, options.format), { aspect: scaledSize(full, scale) });
}
