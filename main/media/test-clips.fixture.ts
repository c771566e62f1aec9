// Test fixtures: small clips whose frames say their own number, so a test can check which source
// frame a decoder returned. Frame k paints two gray blocks in the top-left: (k mod 16) and
// floor(k / 16), each as 16 * value + 8, which survives lossy encoding and scaling.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { DrawableImage } from '../../shared/canvas/types.ts';
import { ffmpegPath } from '../ffmpeg/binaries.ts';

const run = promisify(execFile);

export interface CounterClipOptions {
  seconds: number;
  fps: number;
  width: number;
  height: number;
  /** Adds a sine tone as an audio stream. */
  withAudio?: boolean;
  /** Stores a display rotation (degrees) in the container. */
  rotate?: number;
  name?: string;
}

const BLOCKS = 'if(lt(Y,H/8)*lt(X,W/10),mod(N,16)*16+8,if(lt(Y,H/8)*lt(X,W/5),floor(N/16)*16+8,128))';

export async function makeCounterClip(dir: string, options: CounterClipOptions): Promise<string> {
  const { seconds, fps, width, height } = options;
  const path = join(dir, options.name ?? `counter-${width}x${height}-${fps}fps-${seconds}s.mp4`);
  const args = ['-y', '-hide_banner', '-loglevel', 'error', '-f', 'lavfi'];
  args.push(
    '-i',
    `nullsrc=s=${width}x${height}:r=${fps}:d=${seconds},format=gbrp,geq=r='${BLOCKS}':g='${BLOCKS}':b='${BLOCKS}'`,
  );
  if (options.withAudio)
    args.push('-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-c:a', 'aac');
  args.push('-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-crf', '12', '-g', '15', '-preset', 'ultrafast');
  if (options.rotate === undefined) {
    await run(ffmpegPath(), [...args, path]);
    return path;
  }
  // ffmpeg 4.1 drops the rotate tag when encoding; a stream copy keeps it.
  const unrotated = `${path}.unrotated.mp4`;
  await run(ffmpegPath(), [...args, unrotated]);
  await run(ffmpegPath(), [
    '-y',
    '-loglevel',
    'error',
    '-i',
    unrotated,
    '-c',
    'copy',
    '-metadata:s:v:0',
    `rotate=${options.rotate}`,
    path,
  ]);
  return path;
}

/** Reads the frame number painted by makeCounterClip back from a decoded frame. */
export function frameNumberOf(image: DrawableImage): number {
  const canvas = image as unknown as { getContext(type: '2d'): CanvasRenderingContext2D };
  const ctx = canvas.getContext('2d');
  const y = Math.floor(image.height / 16);
  const low = ctx.getImageData(Math.floor(image.width / 20), y, 1, 1).data[0]!;
  const high = ctx.getImageData(Math.floor((image.width * 3) / 20), y, 1, 1).data[0]!;
  return Math.floor(low / 16) + 16 * Math.floor(high / 16);
}
