import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { FRAME_CONTENTS, ffmpegForYuvTests, testFrame } from './yuv420p-frames.fixture.ts';
import { rgbaToYuv420pReference, yuv420pBytes, yuv420pSizeSupported } from './yuv420p-reference.ts';

// The filter encoder-args.ts gives ffmpeg for RGBA frames of an mp4 at their own size.
const KINO_FILTER = 'scale=flags=bilinear+full_chroma_inp:out_color_matrix=bt709:out_range=tv,format=yuv420p';

const ffmpeg = ffmpegForYuvTests();
// The reference reproduces the x86-64 yuv2yuvX rounding of ffmpeg 5.1 exactly; other builds (aarch64,
// other majors) may round a chroma sample by one differently.
const exact = ffmpeg?.exact === true;
if (!ffmpeg) console.warn('yuv420p-reference.test.ts: no ffmpeg, the comparison with ffmpeg is SKIPPED.');
else if (!exact)
  console.warn(`yuv420p-reference.test.ts: ${ffmpeg.version} on ${process.arch}: max difference 1 allowed.`);

function ffmpegYuv(rgba: Uint8Array, width: number, height: number, frames: number): Buffer {
  return execFileSync(
    ffmpeg!.path,
    [
      ...[
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgba',
        '-s',
        `${width}x${height}`,
      ],
      ...[
        '-i',
        'pipe:0',
        '-filter_complex',
        `[0:v]${KINO_FILTER}[v]`,
        '-map',
        '[v]',
        '-frames:v',
        String(frames),
      ],
      ...['-f', 'rawvideo', 'pipe:1'],
    ],
    { input: rgba, maxBuffer: 1 << 28 },
  );
}

describe('rgbaToYuv420pReference', () => {
  it('knows which sizes it converts', () => {
    expect(yuv420pSizeSupported(1080, 1920)).toBe(true);
    expect(yuv420pSizeSupported(8, 8)).toBe(true);
    expect(yuv420pSizeSupported(6, 8)).toBe(false);
    expect(yuv420pSizeSupported(9, 10)).toBe(false);
    expect(yuv420pBytes(1080, 1920)).toBe(1080 * 1920 * 1.5);
    expect(() => rgbaToYuv420pReference(new Uint8Array(6 * 8 * 4), 6, 8)).toThrow(/even sides/);
  });

  it('maps black, white and primaries to BT.709 limited range', () => {
    const yuvOf = (r: number, g: number, b: number) => {
      const rgba = new Uint8Array(8 * 8 * 4).map((_, i) => [r, g, b, 255][i % 4]!);
      const out = rgbaToYuv420pReference(rgba, 8, 8);
      return [out[0], out[64], out[64 + 16]];
    };
    expect(yuvOf(0, 0, 0)).toEqual([16, 128, 128]);
    expect(yuvOf(255, 255, 255)).toEqual([235, 128, 128]);
    expect(yuvOf(255, 0, 0)).toEqual([63, 102, 240]);
  });

  // 1080×1920 and 540×960 are Kino's reels at standard and draft quality; the small ones exercise
  // widths that are not a multiple of 16 and the edges of the chroma filter.
  for (const [width, height] of [
    [1080, 1920],
    [540, 960],
    [66, 50],
    [18, 10],
  ] as const) {
    it.skipIf(!ffmpeg)(
      `equals ffmpeg's ${width}×${height} conversion on random, gradient and semi-transparent frames`,
      () => {
        const frameBytes = width * height * 4;
        const input = new Uint8Array(frameBytes * FRAME_CONTENTS.length);
        FRAME_CONTENTS.forEach((content, i) => input.set(testFrame(content, width, height), i * frameBytes));
        const ours = ffmpegYuv(input, width, height, FRAME_CONTENTS.length);
        const size = yuv420pBytes(width, height);
        expect(ours.length).toBe(size * FRAME_CONTENTS.length);
        FRAME_CONTENTS.forEach((content, i) => {
          const expected = ours.subarray(i * size, (i + 1) * size);
          const actual = rgbaToYuv420pReference(
            input.subarray(i * frameBytes, (i + 1) * frameBytes),
            width,
            height,
          );
          let differing = 0;
          let maxDiff = 0;
          for (let k = 0; k < size; k++) {
            const diff = Math.abs(actual[k]! - expected[k]!);
            if (diff > 0) differing++;
            maxDiff = Math.max(maxDiff, diff);
          }
          if (exact) expect({ content, differing }).toEqual({ content, differing: 0 });
          else {
            if (differing > 0)
              console.warn(`${width}×${height} ${content}: ${differing} of ${size} bytes differ`);
            expect({ content, maxDiff: Math.min(maxDiff, 2) }).toEqual({
              content,
              maxDiff: Math.min(maxDiff, 1),
            });
          }
        });
      },
    );
  }
});
