// Where the packaged app finds ffmpeg and ffprobe: electron-builder copies them out of the npm
// packages into <resources>/ffmpeg/ (see electron-builder.yml), and main/ffmpeg/binaries.ts already
// honours FFMPEG_PATH / FFPROBE_PATH, which forked workers inherit. A path the user set still wins.
import path from 'node:path';

export function packagedToolEnv(
  env: NodeJS.ProcessEnv,
  resourcesPath: string,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const exe = platform === 'win32' ? '.exe' : '';
  const join = platform === 'win32' ? path.win32.join : path.posix.join;
  const found: Record<string, string> = {};
  if (!env.FFMPEG_PATH) found.FFMPEG_PATH = join(resourcesPath, 'ffmpeg', `ffmpeg${exe}`);
  if (!env.FFPROBE_PATH) found.FFPROBE_PATH = join(resourcesPath, 'ffmpeg', `ffprobe${exe}`);
  return found;
}
