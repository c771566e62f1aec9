// What a render costs, as frames × width × height at the size it renders, and how to say it is
// over a limit (MAX_RENDER_PIXELS): one wording for the API's 400 and AI authoring's repair request.
import type { ResolvedVideo } from '../../shared/timeline/types.ts';

/** Undefined when the video is within `max`; else what it is and the limit, in one line. */
export function renderCostOver(
  video: Pick<ResolvedVideo, 'durationFrames' | 'size'>,
  max: number,
): string | undefined {
  const pixels = video.durationFrames * video.size.width * video.size.height;
  if (pixels <= max) return undefined;
  return `this render is ${video.durationFrames} frames of ${video.size.width}×${video.size.height} = ${pixels.toExponential(2)} pixels, over this server's limit of ${max.toExponential(2)} (MAX_RENDER_PIXELS); shorten it, lower its fps or pick a smaller aspect`;
}
