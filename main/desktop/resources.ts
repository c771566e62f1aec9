// Where the packaged app finds ffmpeg and ffprobe: electron-builder copies them out of the npm
// packages into <resources>/ffmpeg/ (see electron-builder.yml; ffmpeg's licence notice goes there
// too), and main/ffmpeg/binaries.ts already honours FFMPEG_PATH / FFPROBE_PATH, which forked workers
// inherit. A path the user set still wins, and then neither is set here: binaries.ts takes the other
// tool from beside the user's, so the two always come from one build.
import path from 'node:path';

export function packagedToolEnv(
  env: NodeJS.ProcessEnv,
  resourcesPath: string,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const exe = platform === 'win32' ? '.exe' : '';
  const join = platform === 'win32' ? path.win32.join : path.posix.join;
  if (env.FFMPEG_PATH || env.FFPROBE_PATH) return {};
  return {
    FFMPEG_PATH: join(resourcesPath, 'ffmpeg', `ffmpeg${exe}`),
    FFPROBE_PATH: join(resourcesPath, 'ffmpeg', `ffprobe${exe}`),
  };
}
