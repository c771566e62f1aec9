// Encoder settings in the ffmpeg command: nothing chosen is the quality level's command unchanged;
// each setting chosen changes its own argument and nothing else.
import { describe, expect, it } from 'vitest';
import { OUTPUT_FORMATS, QUALITIES } from '../../shared/output/formats.ts';
import type { OutputFormat } from '../../shared/output/formats.ts';
import type { AudioMixPlan } from './audio-mix.ts';
import {
  encoderArgs,
  encoderSettingsUsed,
  hardwareTrialArgs,
  hardwareVideoBitrate,
  inputPixelFormatFor,
  rawFrameBytes,
  stitchArgs,
  yuv420pInputSupported,
} from './encoder-args.ts';
import type { EncoderArgsInput } from './encoder-args.ts';
import { FrameEncoder } from './frame-encoder.ts';

const music: AudioMixPlan = {
  durationSeconds: 2,
  tracks: [
    {
      path: '/media/music.m4a',
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

const EXTENSIONS: Record<OutputFormat, string> = { mp4: 'mp4', gif: 'gif', transparent: 'webm', mov: 'mov' };

function input(over: Partial<EncoderArgsInput> = {}): EncoderArgsInput {
  const format = over.format ?? 'mp4';
  return {
    format,
    quality: 'standard',
    width: 1080,
    height: 1920,
    fps: 30,
    audio: music,
    outputPath: `/out/video.${EXTENSIONS[format]}`,
    ...over,
  };
}

const valueAfter = (list: string[], flag: string) => {
  const index = list.indexOf(flag);
  return index < 0 ? undefined : list[index + 1];
};

/** What encoderArgs gave for standard mp4 with audio before encoder settings existed (commit 7beff37). */
const STANDARD_MP4_WITH_AUDIO = [
  '-hide_banner',
  '-nostats',
  '-loglevel',
  'error',
  '-y',
  '-f',
  'rawvideo',
  '-pix_fmt',
  'rgba',
  '-s',
  '1080x1920',
  '-r',
  '30',
  '-i',
  'pipe:0',
  '-protocol_whitelist',
  'file',
  '-i',
  'file:/media/music.m4a',
  '-filter_complex',
  '[0:v]scale=flags=bilinear+full_chroma_inp:out_color_matrix=bt709:out_range=tv,format=yuv420p[vout];' +
    '[1:a]aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo,apad=whole_len=96000,atrim=end_sample=96000[mix0];' +
    '[mix0]alimiter=limit=0.95:attack=0.1:level=0,apad=whole_len=96000,atrim=end_sample=96000[aout]',
  '-map',
  '[vout]',
  '-map',
  '[aout]',
  '-c:v',
  'libx264',
  '-preset',
  'veryfast',
  '-crf',
  '17',
  '-colorspace',
  'bt709',
  '-color_primaries',
  'bt709',
  '-color_trc',
  'bt709',
  '-color_range',
  'tv',
  '-r',
  '30',
  '-c:a',
  'aac',
  '-b:a',
  '192k',
  '-ar',
  '48000',
  '-ac',
  '2',
  '-movflags',
  '+faststart',
  '-map_metadata',
  '-1',
  '-f',
  'mp4',
  '/out/video.mp4',
];

describe('encoderArgs with nothing chosen', () => {
  it('is the command of before encoder settings', () => {
    expect(encoderArgs(input())).toEqual(STANDARD_MP4_WITH_AUDIO);
    expect(encoderArgs(input({ encoder: {} }))).toEqual(STANDARD_MP4_WITH_AUDIO);
  });

  it('is the same with an empty choice, or the level’s own values chosen, for every format and quality', () => {
    for (const format of OUTPUT_FORMATS) {
      for (const quality of QUALITIES) {
        const plain = encoderArgs(input({ format, quality }));
        expect(encoderArgs(input({ format, quality, encoder: {} })), `${format} ${quality}`).toEqual(plain);
        const used = encoderSettingsUsed(input({ format, quality }));
        const same = {
          ...(used.codec === 'libx264' ? { codec: 'libx264' as const } : {}),
          ...(used.crf === undefined ? {} : { crf: used.crf }),
          ...(used.preset === undefined ? {} : { preset: used.preset as 'veryfast' }),
          ...(format === 'mp4' ? { pixelFormat: 'yuv420p' as const } : {}),
          ...(used.audioBitrate === undefined ? {} : { audioBitrate: used.audioBitrate }),
        };
        expect(encoderArgs(input({ format, quality, encoder: same })), `${format} ${quality}`).toEqual(plain);
      }
    }
  });
});

describe('encoderArgs with settings chosen', () => {
  it('puts the x264 CRF, preset, pixel format and AAC bitrate where the level’s were', () => {
    const chosen = encoderArgs(
      input({ encoder: { crf: 30, preset: 'ultrafast', pixelFormat: 'yuv444p', audioBitrate: '96k' } }),
    );
    const expected = STANDARD_MP4_WITH_AUDIO.map((arg) =>
      arg === 'veryfast'
        ? 'ultrafast'
        : arg === '17'
          ? '30'
          : arg === '192k'
            ? '96k'
            : arg.replace('format=yuv420p[vout]', 'format=yuv444p[vout]'),
    );
    expect(chosen).toEqual(expected);
  });

  it('changes only what is chosen: a CRF alone keeps the preset and the rest', () => {
    const list = encoderArgs(input({ quality: 'high', encoder: { crf: 22 } }));
    expect(valueAfter(list, '-crf')).toBe('22');
    expect(valueAfter(list, '-preset')).toBe('medium');
    expect(valueAfter(list, '-b:a')).toBe('192k');
  });

  it('sets VP9’s CRF and the Opus bitrate for transparent', () => {
    const list = encoderArgs(input({ format: 'transparent', encoder: { crf: 45, audioBitrate: '128k' } }));
    expect(valueAfter(list, '-c:v')).toBe('libvpx-vp9');
    expect(valueAfter(list, '-crf')).toBe('45');
    expect(valueAfter(list, '-c:a')).toBe('libopus');
    expect(valueAfter(list, '-b:a')).toBe('128k');
    expect(valueAfter(list, '-filter_complex')).toContain('format=yuva420p[vout]');
  });
});

describe('frames converted to yuv420p by Kino', () => {
  it('are read as yuv420p and passed on unscaled; everything else of the command stays', () => {
    const rgba = encoderArgs(input());
    const yuv = encoderArgs(input({ inputPixelFormat: 'yuv420p' }));
    expect(valueAfter(yuv, '-pix_fmt')).toBe('yuv420p');
    const graph = valueAfter(yuv, '-filter_complex')!;
    expect(graph.split(';')[0]).toBe('[0:v]null[vout]');
    expect(graph.split(';').slice(1)).toEqual(valueAfter(rgba, '-filter_complex')!.split(';').slice(1));
    const rest = (args: string[]) =>
      args.filter((arg, i) => arg !== '-pix_fmt' && args[i - 1] !== '-pix_fmt' && !arg.includes('[0:v]'));
    expect(rest(yuv)).toEqual(rest(rgba));
    expect(valueAfter(encoderArgs(input({ inputPixelFormat: 'rgba' })), '-pix_fmt')).toBe('rgba');
  });

  it('apply to software H.264 in yuv420p at the frames’ own size, chunks and draft included', () => {
    expect(yuv420pInputSupported(input())).toBe(true);
    expect(yuv420pInputSupported(input({ quality: 'draft', width: 540, height: 960, chunk: true }))).toBe(
      true,
    );
    expect(
      yuv420pInputSupported(input({ encoder: { crf: 20, preset: 'fast', pixelFormat: 'yuv420p' } })),
    ).toBe(true);
    expect(yuv420pInputSupported(input({ width: 66, height: 50 }))).toBe(true);
    for (const format of ['gif', 'transparent', 'mov'] as const) {
      expect(yuv420pInputSupported(input({ format }))).toBe(false);
    }
    expect(yuv420pInputSupported(input({ encoder: { pixelFormat: 'yuv444p' } }))).toBe(false);
    expect(yuv420pInputSupported(input({ encoder: { codec: 'h264_nvenc' } }))).toBe(false);
    expect(yuv420pInputSupported(input({ outputWidth: 540, outputHeight: 960 }))).toBe(false);
    expect(yuv420pInputSupported(input({ width: 6, height: 8 }))).toBe(false);
    expect(() => encoderArgs(input({ format: 'gif', inputPixelFormat: 'yuv420p' }))).toThrow(
      /only taken for an mp4/,
    );
  });

  it('are chosen unless KINO_YUV=0, and take 1.5 bytes a pixel', () => {
    expect(inputPixelFormatFor(input(), {})).toBe('yuv420p');
    expect(inputPixelFormatFor(input(), { KINO_YUV: '1' })).toBe('yuv420p');
    expect(inputPixelFormatFor(input(), { KINO_YUV: '0' })).toBe('rgba');
    expect(inputPixelFormatFor(input({ format: 'mov' }), {})).toBe('rgba');
    expect(rawFrameBytes(1080, 1920, 'yuv420p')).toBe(1080 * 1920 * 1.5);
    expect(rawFrameBytes(1080, 1920, 'rgba')).toBe(1080 * 1920 * 4);
  });
});

describe('a render in chunks', () => {
  it('encodes a chunk with the render’s video settings, closed GOPs, no sound and no faststart pass', () => {
    const chosen = { crf: 0, preset: 'ultrafast', pixelFormat: 'yuv444p', audioBitrate: '96k' } as const;
    const whole = encoderArgs(input({ encoder: chosen }));
    const chunk = encoderArgs(input({ encoder: chosen, chunk: true }));
    const videoPart = (list: string[]) => list.slice(0, list.indexOf('-r', list.indexOf('-c:v')));
    // Up to the codec options the chunk's command is the whole render's, without the audio inputs.
    const withoutAudio = encoderArgs(input({ encoder: chosen, audio: undefined }));
    expect(videoPart(chunk)).toEqual([...videoPart(withoutAudio), '-flags', '+cgop']);
    expect(whole.some((arg) => arg.includes('music.m4a'))).toBe(true);
    expect(chunk.some((arg) => arg.includes('music.m4a'))).toBe(false);
    expect(chunk).toContain('-an');
    expect(chunk).not.toContain('-movflags');
    expect(() => encoderArgs(input({ format: 'mov', chunk: true }))).toThrow(/only mp4 encodes in chunks/);
  });

  it('stitches by stream copy from a concat list through the file protocol, mixing the sound as a render does', () => {
    const list = stitchArgs({
      listPath: '/work/chunks.ffconcat',
      audio: music,
      encoder: { audioBitrate: '96k' },
      outputPath: '/out/video.mp4',
    });
    expect(list.slice(5, 13)).toEqual([
      '-f',
      'concat',
      '-safe',
      '0',
      '-protocol_whitelist',
      'file',
      '-i',
      'file:/work/chunks.ffconcat',
    ]);
    const render = encoderArgs(input({ encoder: { audioBitrate: '96k' } }));
    expect(valueAfter(list, '-filter_complex')).toBe(
      valueAfter(render, '-filter_complex')!.split(';').slice(1).join(';'),
    );
    expect(valueAfter(list, '-c:v')).toBe('copy');
    for (const flag of ['-c:a', '-b:a', '-ar', '-ac', '-movflags']) {
      expect(valueAfter(list, flag), flag).toBe(valueAfter(render, flag));
    }
    const silent = stitchArgs({ listPath: '/work/chunks.ffconcat', outputPath: '/out/video.mp4' });
    expect(silent).toContain('-an');
    expect(silent).not.toContain('-filter_complex');
  });
});

describe('encoderArgs with a hardware encoder', () => {
  it('hands NV12 to it with a bitrate from the size, rate and quality, and no x264 options', () => {
    const list = encoderArgs(input({ encoder: { codec: 'h264_nvenc', audioBitrate: '128k' } }));
    expect(valueAfter(list, '-c:v')).toBe('h264_nvenc');
    expect(valueAfter(list, '-b:v')).toBe('6221k');
    expect(list).not.toContain('-preset');
    expect(list).not.toContain('-crf');
    expect(valueAfter(list, '-filter_complex')).toContain(
      '[0:v]scale=flags=bilinear+full_chroma_inp:out_color_matrix=bt709:out_range=tv,format=nv12[vout]',
    );
    expect(valueAfter(list, '-colorspace')).toBe('bt709');
    expect(valueAfter(list, '-b:a')).toBe('128k');
    expect(list.slice(0, 5)).toEqual(STANDARD_MP4_WITH_AUDIO.slice(0, 5));
  });

  it('opens the VA-API device before the inputs and uploads the frames to it', () => {
    const list = encoderArgs(input({ encoder: { codec: 'h264_vaapi' } }));
    expect(list.indexOf('-vaapi_device')).toBeLessThan(list.indexOf('-i'));
    expect(valueAfter(list, '-vaapi_device')).toBe('/dev/dri/renderD128');
    expect(valueAfter(list, '-filter_complex')).toContain('format=nv12,hwupload[vout]');
  });

  it('scales the bitrate with the quality level', () => {
    const geometry = { width: 1080, height: 1920, fps: 30 };
    expect(hardwareVideoBitrate(geometry, 'draft')).toBe('3732k');
    expect(hardwareVideoBitrate(geometry, 'standard')).toBe('6221k');
    expect(hardwareVideoBitrate(geometry, 'high')).toBe('9331k');
  });

  it('is tried on one generated frame with its own filter step and options, to nothing', () => {
    const trial = hardwareTrialArgs('h264_vaapi');
    expect(trial.join(' ')).toContain('-vaapi_device /dev/dri/renderD128 -f lavfi');
    expect(valueAfter(trial, '-vf')).toMatch(/format=nv12,hwupload$/);
    expect(valueAfter(trial, '-c:v')).toBe('h264_vaapi');
    expect(trial.slice(-3)).toEqual(['-f', 'null', '-']);
    expect(valueAfter(hardwareTrialArgs('h264_nvenc'), '-vf')).toMatch(/format=nv12$/);
  });
});

describe('encoderSettingsUsed', () => {
  it('names every setting of each format, defaults filled in', () => {
    expect(encoderSettingsUsed(input({ quality: 'draft' }))).toEqual({
      codec: 'libx264',
      preset: 'superfast',
      crf: 24,
      pixelFormat: 'yuv420p',
      audioCodec: 'aac',
      audioBitrate: '192k',
    });
    expect(encoderSettingsUsed(input({ format: 'transparent', encoder: { crf: 50 } }))).toEqual({
      codec: 'libvpx-vp9',
      crf: 50,
      pixelFormat: 'yuva420p',
      audioCodec: 'libopus',
      audioBitrate: '160k',
    });
    expect(encoderSettingsUsed(input({ format: 'mov' }))).toEqual({
      codec: 'prores_ks',
      pixelFormat: 'yuva444p10le',
      audioCodec: 'pcm_s16le',
    });
    expect(encoderSettingsUsed(input({ format: 'gif' }))).toEqual({ codec: 'gif' });
    expect(encoderSettingsUsed(input({ encoder: { codec: 'h264_qsv', audioBitrate: '256k' } }))).toEqual({
      codec: 'h264_qsv',
      pixelFormat: 'yuv420p',
      videoBitrate: '6221k',
      audioCodec: 'aac',
      audioBitrate: '256k',
    });
  });
});

describe('FrameEncoder', () => {
  it('refuses settings the format does not use rather than leave them out', () => {
    const job = {
      outputPath: '/nonexistent/out.gif',
      format: 'gif' as const,
      quality: 'draft' as const,
      width: 64,
      height: 64,
      fps: 10,
      totalFrames: 1,
    };
    expect(() => FrameEncoder.start({ ...job, encoder: { crf: 20 } })).toThrow(/gif has no CRF/);
  });
});
