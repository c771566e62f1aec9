import { describe, expect, it } from 'vitest';
import {
  AUDIO_BITRATE_KBPS,
  AUDIO_BITRATE_PATTERN,
  CRF_RANGES,
  EncoderSettingsSchema,
  chosenEncoderSettings,
  encoderSettingsIssues,
} from './encoder-settings.ts';
import type { EncoderSettings } from './encoder-settings.ts';
import type { OutputFormat } from './formats.ts';

const fields = (format: OutputFormat, settings: EncoderSettings) =>
  encoderSettingsIssues(format, settings).map((issue) => issue.field);

describe('encoder settings: bounds', () => {
  it('reads as audio bitrates exactly the whole kbit/s from 64k to 320k', () => {
    const pattern = new RegExp(AUDIO_BITRATE_PATTERN);
    const accepted = Array.from({ length: 1000 }, (_, kbps) => kbps).filter((kbps) =>
      pattern.test(`${kbps}k`),
    );
    expect(accepted[0]).toBe(AUDIO_BITRATE_KBPS.min);
    expect(accepted.at(-1)).toBe(AUDIO_BITRATE_KBPS.max);
    expect(accepted).toHaveLength(AUDIO_BITRATE_KBPS.max - AUDIO_BITRATE_KBPS.min + 1);
    for (const text of ['96', '96K', '096k', '96.5k', '96000', ' 96k', '96kb']) {
      expect(pattern.test(text), text).toBe(false);
    }
  });

  it('declares in the schema the widest bounds the formats allow', () => {
    expect(EncoderSettingsSchema.properties.crf.minimum).toBe(0);
    expect(EncoderSettingsSchema.properties.crf.maximum).toBe(
      Math.max(CRF_RANGES.mp4.max, CRF_RANGES.transparent.max),
    );
    expect(EncoderSettingsSchema.properties.audioBitrate.pattern).toBe(AUDIO_BITRATE_PATTERN);
  });

  it('takes every setting for mp4 within its bounds', () => {
    const all: EncoderSettings = {
      codec: 'libx264',
      crf: 30,
      preset: 'ultrafast',
      pixelFormat: 'yuv444p',
      audioBitrate: '96k',
    };
    expect(encoderSettingsIssues('mp4', all)).toEqual([]);
    expect(encoderSettingsIssues('mp4', { crf: 0 })).toEqual([]);
    expect(encoderSettingsIssues('mp4', { crf: 51 })).toEqual([]);
    expect(encoderSettingsIssues('mp4', {})).toEqual([]);
  });

  it('refuses a CRF past the codec, and a fractional one', () => {
    expect(encoderSettingsIssues('mp4', { crf: 52 })).toEqual([
      { field: 'crf', message: 'crf for mp4 (libx264) must be a whole number from 0 to 51, got 52' },
    ]);
    expect(fields('mp4', { crf: -1 })).toEqual(['crf']);
    expect(fields('mp4', { crf: 20.5 })).toEqual(['crf']);
    expect(fields('transparent', { crf: 63 })).toEqual([]);
    expect(fields('transparent', { crf: 64 })).toEqual(['crf']);
  });

  it('refuses out-of-list values that reach it untyped (the CLI checks its own, the API its schema)', () => {
    const loose = { preset: 'placebo', pixelFormat: 'yuv420p10le', codec: 'h264_amf', audioBitrate: '400k' };
    expect(fields('mp4', loose as unknown as EncoderSettings).sort()).toEqual(
      ['audioBitrate', 'codec', 'pixelFormat', 'preset'].sort(),
    );
  });
});

describe('encoder settings: the format must use them', () => {
  it('refuses for a GIF every setting, each with its reason', () => {
    const issues = encoderSettingsIssues('gif', {
      codec: 'libx264',
      crf: 20,
      preset: 'fast',
      pixelFormat: 'yuv420p',
      audioBitrate: '128k',
    });
    expect(issues.map((issue) => issue.field)).toEqual([
      'codec',
      'crf',
      'preset',
      'pixelFormat',
      'audioBitrate',
    ]);
    expect(issues.find((issue) => issue.field === 'crf')?.message).toBe(
      'gif has no CRF: crf applies to mp4 (libx264, 0–51) and transparent (VP9, 0–63)',
    );
    expect(issues.find((issue) => issue.field === 'audioBitrate')?.message).toBe('gif has no audio');
  });

  it('takes crf and the audio bitrate for transparent (VP9, Opus), not the x264 ones', () => {
    expect(encoderSettingsIssues('transparent', { crf: 40, audioBitrate: '128k' })).toEqual([]);
    expect(fields('transparent', { preset: 'fast', pixelFormat: 'yuv444p', codec: 'h264_nvenc' })).toEqual([
      'codec',
      'preset',
      'pixelFormat',
    ]);
  });

  it('takes nothing but mov: ProRes has no CRF and PCM no bitrate', () => {
    expect(fields('mov', { crf: 10, audioBitrate: '128k' })).toEqual(['crf', 'audioBitrate']);
    expect(encoderSettingsIssues('mov', { audioBitrate: '128k' })[0]?.message).toContain('PCM');
  });

  it('refuses with a hardware encoder the x264 rate settings and 4:2:2 or 4:4:4', () => {
    expect(encoderSettingsIssues('mp4', { codec: 'h264_nvenc', audioBitrate: '128k' })).toEqual([]);
    expect(encoderSettingsIssues('mp4', { codec: 'h264_vaapi', pixelFormat: 'yuv420p' })).toEqual([]);
    expect(
      encoderSettingsIssues('mp4', {
        codec: 'h264_nvenc',
        crf: 20,
        preset: 'fast',
        pixelFormat: 'yuv444p',
      }),
    ).toEqual([
      {
        field: 'crf',
        message: 'crf applies to libx264, not h264_nvenc (its bitrate follows the quality level)',
      },
      { field: 'preset', message: 'preset is an x264 setting; h264_nvenc has none here' },
      { field: 'pixelFormat', message: 'h264_nvenc encodes yuv420p only here; yuv444p needs libx264' },
    ]);
  });
});

describe('chosenEncoderSettings', () => {
  it('drops the unset fields, and is undefined when none is set', () => {
    expect(chosenEncoderSettings(undefined)).toBeUndefined();
    expect(chosenEncoderSettings({})).toBeUndefined();
    expect(chosenEncoderSettings({ crf: undefined, preset: undefined })).toBeUndefined();
    expect(chosenEncoderSettings({ crf: 0, preset: undefined })).toEqual({ crf: 0 });
  });
});
