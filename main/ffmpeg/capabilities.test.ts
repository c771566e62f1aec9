import { describe, expect, it } from 'vitest';
import {
  installHint,
  isRecentEnough,
  missingEncoders,
  parseEncoderList,
  parseLibavcodec,
  parseVersionLine,
  REQUIRED_ENCODERS,
  unfitReason,
} from './capabilities.ts';
import type { BuildProbe } from './capabilities.ts';

// Trimmed from Debian 12's `ffmpeg -encoders`: the banner goes to stderr, the table to stdout.
const BANNER = `ffmpeg version 5.1.9-0+deb12u1 Copyright (c) 2000-2026 the FFmpeg developers
  built with gcc 12 (Debian 12.2.0-14+deb12u1)
  libavutil      57. 28.100 / 57. 28.100
  libavcodec     59. 37.100 / 59. 37.100
`;
const TABLE = `Encoders:
 V..... = Video
 A..... = Audio
 S..... = Subtitle
 .F.... = Frame-level multithreading
 ------
 V....D a64multi             Multicolor charset for Commodore 64 (codec a64_multi)
 V..... gif                  GIF (Graphics Interchange Format)
 V....D libx264              libx264 H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10 (codec h264)
 VFS... prores_ks            Apple ProRes (iCodec Pro) (codec prores)
 V....D libvpx-vp9           libvpx VP9 (codec vp9)
 A..... aac                  AAC (Advanced Audio Coding)
 A..... libopus              libopus Opus (codec opus)
 A....D pcm_s16le            PCM signed 16-bit little-endian
 S..... ssa                  ASS (Advanced SubStation Alpha) subtitle (codec ass)
`;

function probe(overrides: Partial<BuildProbe> = {}): BuildProbe {
  return {
    ffmpegVersion: '5.1.9-0+deb12u1',
    ffprobeVersion: '5.1.9-0+deb12u1',
    libavcodec: '59.37.100',
    encoders: parseEncoderList(TABLE),
    ...overrides,
  };
}

describe('reading a build', () => {
  it('reads the version, libavcodec and the encoder table', () => {
    expect(parseVersionLine(BANNER, 'ffmpeg')).toBe('5.1.9-0+deb12u1');
    expect(parseVersionLine('ffprobe version n6.1.1 Copyright', 'ffprobe')).toBe('n6.1.1');
    expect(parseLibavcodec(BANNER)).toBe('59.37.100');
    expect(parseEncoderList(TABLE)).toEqual([
      'a64multi',
      'gif',
      'libx264',
      'prores_ks',
      'libvpx-vp9',
      'aac',
      'libopus',
      'pcm_s16le',
      'ssa',
    ]);
  });

  it.each([
    ['5.1.9-0+deb12u1', undefined, true],
    ['5.0.3', undefined, false],
    ['4.4.2-0ubuntu0.22.04.1', undefined, false],
    ['n6.1.1', undefined, true],
    ['7.0.2-static', undefined, true],
    ['N-47683-g0e8eb07980-static', '58.42.100', false],
    ['N-113000-g1234abcd', '60.31.102', true],
    ['2023-10-12-git-a1b2c3', '59.37.100', true],
    ['custom', undefined, undefined],
  ] as const)('tells whether %s (libavcodec %s) is 5.1 or newer', (ffmpegVersion, libavcodec, expected) => {
    expect(isRecentEnough({ ffmpegVersion, libavcodec })).toBe(expected);
  });
});

describe('judging a system pair', () => {
  it('accepts a 5.1 build with every encoder', () => {
    expect(missingEncoders(probe())).toEqual([]);
    expect(unfitReason('/usr/bin/ffmpeg', probe())).toBeUndefined();
  });

  it('names what is wrong', () => {
    expect(unfitReason('/usr/bin/ffmpeg', probe({ ffmpegVersion: '4.4.2' }))).toBe(
      '/usr/bin/ffmpeg is ffmpeg 4.4.2, older than 5.1',
    );
    const noVp9 = probe({ encoders: probe().encoders.filter((e) => e !== 'libvpx-vp9' && e !== 'libopus') });
    expect(unfitReason('/usr/bin/ffmpeg', noVp9)).toBe(
      '/usr/bin/ffmpeg (5.1.9-0+deb12u1) lacks the encoders libvpx-vp9, libopus',
    );
    expect(unfitReason('/usr/bin/ffmpeg', probe({ ffprobeVersion: '6.0' }))).toMatch(/not one build/);
  });

  it('lists the encoders of every output format', () => {
    expect(REQUIRED_ENCODERS.map((e) => e.name).sort()).toEqual(
      ['aac', 'gif', 'libopus', 'libvpx-vp9', 'libx264', 'pcm_s16le', 'prores_ks'].sort(),
    );
  });

  it('says what to install on each platform', () => {
    expect(installHint('linux')).toMatch(/^sudo apt-get install ffmpeg/);
    expect(installHint('darwin')).toBe('brew install ffmpeg');
    expect(installHint('win32')).toMatch(/winget/);
  });
});
