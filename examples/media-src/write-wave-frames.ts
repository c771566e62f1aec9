// Writes the raw RGBA frames of clip-waves.mp4 to stdout, for ffmpeg to encode (see make-media.sh).
import { WAVES_FPS, WAVES_SECONDS, paintWaveFrame } from './paint-waves.ts';

const frames = WAVES_FPS * WAVES_SECONDS;
for (let index = 0; index < frames; index++) {
  const pixels = paintWaveFrame(index);
  const bytes = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  if (!process.stdout.write(bytes)) await new Promise((resolve) => process.stdout.once('drain', resolve));
}
