// Encoder settings a render may choose over its quality level's (the CLI's --crf, --preset,
// --pixel-format, --audio-bitrate and --encoder; options.encoder on the render API, the MCP render
// tools and workspace jobs). Declared once, here, as JSON Schema: the API validates with it, the MCP
// tools read it, and the type derives from it. The bounds that depend on the output format (crf has
// none for a GIF) are checked by encoderSettingsIssues, which every entry point runs.
import type { FromSchema } from 'json-schema-to-ts';
import type { OutputFormat } from './formats.ts';

/** libx264 (the default) and the hardware H.264 encoders an ffmpeg build may list. */
export const H264_ENCODERS = [
  'libx264',
  'h264_nvenc',
  'h264_videotoolbox',
  'h264_qsv',
  'h264_vaapi',
] as const;
export type H264Encoder = (typeof H264_ENCODERS)[number];
export type HardwareH264Encoder = Exclude<H264Encoder, 'libx264'>;

export function isHardwareEncoder(codec: string | undefined): codec is HardwareH264Encoder {
  return codec !== undefined && codec !== 'libx264' && (H264_ENCODERS as readonly string[]).includes(codec);
}

/** x264's presets, fastest first; veryslow and placebo cost much CPU for little and are left out. */
export const X264_PRESETS = [
  'ultrafast',
  'superfast',
  'veryfast',
  'faster',
  'fast',
  'medium',
  'slow',
  'slower',
] as const;
export type X264Preset = (typeof X264_PRESETS)[number];

/** 8-bit H.264 pixel formats. yuv420p plays everywhere; 4:2:2 and 4:4:4 (High 4:4:4) in fewer players. */
export const H264_PIXEL_FORMATS = ['yuv420p', 'yuv422p', 'yuv444p'] as const;

/** Constant rate factor per codec: libx264 (mp4) 0–51, VP9 (transparent) 0–63; lower is better and bigger. */
export const CRF_RANGES = {
  mp4: { min: 0, max: 51, codec: 'libx264' },
  transparent: { min: 0, max: 63, codec: 'VP9' },
} as const;

/** AAC (mp4) and Opus (transparent) bitrates, in kbit/s. */
export const AUDIO_BITRATE_KBPS = { min: 64, max: 320 } as const;
/** "64k" … "320k": exactly the whole numbers of AUDIO_BITRATE_KBPS followed by k. */
export const AUDIO_BITRATE_PATTERN = '^(6[4-9]|[7-9][0-9]|[12][0-9]{2}|3[01][0-9]|320)k$';

export const EncoderSettingsSchema = {
  type: 'object',
  additionalProperties: false,
  description:
    "Encoder settings over the quality level's; each one left out comes from the quality level. A setting the output format does not use (crf for a GIF) is refused, not ignored.",
  properties: {
    codec: {
      type: 'string',
      enum: H264_ENCODERS,
      description:
        'mp4 only: libx264 (the default) or a hardware H.264 encoder, refused when this ffmpeg does not list it or it cannot open here. A hardware encoder takes no crf or preset (its bitrate follows the quality level) and encodes yuv420p.',
    },
    crf: {
      type: 'integer',
      minimum: 0,
      maximum: CRF_RANGES.transparent.max,
      description:
        'Constant rate factor, lower is better and bigger: mp4 (libx264) 0–51 (0 is lossless, which plays in fewer players), transparent (VP9) 0–63.',
    },
    preset: {
      type: 'string',
      enum: X264_PRESETS,
      description: 'mp4 (libx264) only: the x264 preset, slower compresses better.',
    },
    pixelFormat: {
      type: 'string',
      enum: H264_PIXEL_FORMATS,
      description:
        'mp4 (libx264) only: yuv420p (the default, plays everywhere), yuv422p or yuv444p (High 4:2:2 / 4:4:4 profiles: sharper colour edges, but many browsers and phones do not play them).',
    },
    audioBitrate: {
      type: 'string',
      pattern: AUDIO_BITRATE_PATTERN,
      description: `mp4 (AAC, default 192k) and transparent (Opus, default 160k): ${AUDIO_BITRATE_KBPS.min}k–${AUDIO_BITRATE_KBPS.max}k.`,
    },
  },
} as const;

export type EncoderSettings = FromSchema<typeof EncoderSettingsSchema>;

/** The settings one encode used, every default filled in: what a render receipt records. */
export const EncoderSettingsUsedSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['codec'],
  description:
    "The encoder settings used, every default filled in: the chosen ones (options.encoder, --crf …) over the quality level's.",
  properties: {
    codec: {
      type: 'string',
      description: 'The video encoder: libx264, a hardware H.264 encoder, libvpx-vp9, prores_ks or gif.',
    },
    crf: { type: 'integer' },
    preset: { type: 'string' },
    pixelFormat: {
      type: 'string',
      description: 'The pixel format encoded (4:2:0 from a hardware encoder reads back as yuv420p).',
    },
    videoBitrate: { type: 'string', description: 'A hardware encoder\'s target bitrate, e.g. "6221k".' },
    audioCodec: { type: 'string' },
    audioBitrate: { type: 'string', description: 'Absent for uncompressed PCM (mov).' },
  },
} as const;

export type EncoderSettingsUsed = FromSchema<typeof EncoderSettingsUsedSchema>;
export type EncoderSettingName = keyof EncoderSettings;

/** One setting refused, by field (the CLI names its flag, the API its JSON pointer). */
export interface EncoderSettingIssue {
  field: EncoderSettingName;
  message: string;
}

function audioBitrateIssue(value: string): string | undefined {
  if (new RegExp(AUDIO_BITRATE_PATTERN).test(value)) return undefined;
  return `audio bitrate must be ${AUDIO_BITRATE_KBPS.min}k to ${AUDIO_BITRATE_KBPS.max}k in whole kbit/s (like 96k), got "${value}"`;
}

/**
 * Every setting that is out of bounds or that the format does not use. Types and bounds are also
 * in EncoderSettingsSchema (the API refuses them before this runs); the CLI's flags only come here.
 */
export function encoderSettingsIssues(
  format: OutputFormat,
  settings: EncoderSettings,
): EncoderSettingIssue[] {
  const issues: EncoderSettingIssue[] = [];
  const refuse = (field: EncoderSettingName, message: string) => issues.push({ field, message });
  const hardware = isHardwareEncoder(settings.codec) ? settings.codec : undefined;

  if (settings.codec !== undefined) {
    if (!(H264_ENCODERS as readonly string[]).includes(settings.codec)) {
      refuse('codec', `unknown encoder "${settings.codec}": one of ${H264_ENCODERS.join(', ')}`);
    } else if (format !== 'mp4') {
      refuse('codec', `the encoder is chosen for mp4 only; ${format} always encodes with its own codec`);
    }
  }
  if (settings.crf !== undefined) {
    const range = format === 'mp4' || format === 'transparent' ? CRF_RANGES[format] : undefined;
    if (!range) {
      refuse('crf', `${format} has no CRF: crf applies to mp4 (libx264, 0–51) and transparent (VP9, 0–63)`);
    } else if (hardware) {
      refuse('crf', `crf applies to libx264, not ${hardware} (its bitrate follows the quality level)`);
    } else if (!Number.isInteger(settings.crf) || settings.crf < range.min || settings.crf > range.max) {
      refuse(
        'crf',
        `crf for ${format} (${range.codec}) must be a whole number from ${range.min} to ${range.max}, got ${settings.crf}`,
      );
    }
  }
  if (settings.preset !== undefined) {
    if (format !== 'mp4') refuse('preset', `preset is an x264 setting, for mp4 only; not for ${format}`);
    else if (hardware) refuse('preset', `preset is an x264 setting; ${hardware} has none here`);
    else if (!(X264_PRESETS as readonly string[]).includes(settings.preset)) {
      refuse('preset', `unknown x264 preset "${settings.preset}": one of ${X264_PRESETS.join(', ')}`);
    }
  }
  if (settings.pixelFormat !== undefined) {
    if (format !== 'mp4') {
      refuse(
        'pixelFormat',
        `the pixel format is chosen for mp4 only; ${format} keeps its own (it carries alpha or a palette)`,
      );
    } else if (!(H264_PIXEL_FORMATS as readonly string[]).includes(settings.pixelFormat)) {
      refuse(
        'pixelFormat',
        `unknown pixel format "${settings.pixelFormat}": one of ${H264_PIXEL_FORMATS.join(', ')}`,
      );
    } else if (hardware && settings.pixelFormat !== 'yuv420p') {
      refuse('pixelFormat', `${hardware} encodes yuv420p only here; ${settings.pixelFormat} needs libx264`);
    }
  }
  if (settings.audioBitrate !== undefined) {
    if (format !== 'mp4' && format !== 'transparent') {
      refuse(
        'audioBitrate',
        format === 'gif'
          ? 'gif has no audio'
          : 'mov carries uncompressed PCM audio, which has no bitrate to choose',
      );
    } else {
      const problem = audioBitrateIssue(settings.audioBitrate);
      if (problem) refuse('audioBitrate', problem);
    }
  }
  return issues;
}

/** The settings with every unset field left out (a CLI's undefined flags), or undefined when none is set. */
export function chosenEncoderSettings(settings: EncoderSettings | undefined): EncoderSettings | undefined {
  if (!settings) return undefined;
  const set = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
  return Object.keys(set).length > 0 ? (set as EncoderSettings) : undefined;
}
