// For tests that need ffmpeg: the binaries Kino would run, or undefined after a loud line saying
// which tests skip and how to get ffmpeg (`.ci/run` installs it, so CI never skips).
import { ffmpegPath, ffprobePath } from './binaries.ts';

export function ffmpegToolsOrWarn(skipping: string): { ffmpeg: string; ffprobe: string } | undefined {
  try {
    return { ffmpeg: ffmpegPath(), ffprobe: ffprobePath() };
  } catch {
    console.warn(
      `\n*** SKIPPING ${skipping}: no ffmpeg/ffprobe (install ffmpeg 5.1+, or set FFMPEG_PATH and FFPROBE_PATH). ***\n`,
    );
    return undefined;
  }
}
