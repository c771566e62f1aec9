// The encoders `kino doctor` and the system-ffmpeg check require (main/ffmpeg/capabilities.ts) are
// exactly the ones the output formats use: a new codec here must be added there.
import { describe, expect, it } from 'vitest';
import { OUTPUT_FORMATS, QUALITIES } from '../../shared/output/formats.ts';
import { REQUIRED_ENCODERS } from '../ffmpeg/capabilities.ts';
import type { AudioMixPlan } from './audio-mix.ts';
import { encoderArgs } from './encoder-args.ts';

const tone: AudioMixPlan = {
  durationSeconds: 2,
  tracks: [
    {
      path: '/media/tone.wav',
      startSeconds: 0,
      sourceStartSeconds: 0,
      loop: false,
      volume: 1,
      fadeInSeconds: 0,
      fadeOutSeconds: 0,
      rate: 1,
    },
  ],
};

describe('required encoders', () => {
  it('are the encoders of every format and quality, video and audio', () => {
    const used = new Set<string>();
    for (const format of OUTPUT_FORMATS) {
      for (const quality of QUALITIES) {
        const args = encoderArgs({
          format,
          quality,
          width: 1080,
          height: 1920,
          fps: 30,
          audio: tone,
          outputPath: `/out/video.${format}`,
        });
        args.forEach((arg, i) => {
          if (arg === '-c:v' || arg === '-c:a') used.add(args[i + 1]!);
        });
      }
    }
    expect([...used].sort()).toEqual(REQUIRED_ENCODERS.map((e) => e.name).sort());
  });
});
