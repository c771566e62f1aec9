// --encoder, --crf, --preset, --pixel-format and --audio-bitrate: encoder settings over the quality
// level's, for every command that renders a video file (render, generate, edit, captions). Bounds
// and the formats each applies to are declared once in shared/output/encoder-settings.ts; a setting
// the format does not use is a usage error, and a hardware encoder this machine cannot run is refused
// before anything is drawn (or authored).
import { InvalidArgumentError, Option } from 'commander';
import type { Command } from 'commander';
import {
  AUDIO_BITRATE_KBPS,
  AUDIO_BITRATE_PATTERN,
  CRF_RANGES,
  H264_ENCODERS,
  H264_PIXEL_FORMATS,
  X264_PRESETS,
  chosenEncoderSettings,
  encoderSettingsIssues,
  isHardwareEncoder,
} from '../../shared/output/encoder-settings.ts';
import type { EncoderSettingName, EncoderSettings } from '../../shared/output/encoder-settings.ts';
import type { OutputFormat } from '../../shared/output/formats.ts';

export interface EncoderOptions {
  encoder?: EncoderSettings['codec'];
  crf?: number;
  preset?: EncoderSettings['preset'];
  pixelFormat?: EncoderSettings['pixelFormat'];
  audioBitrate?: string;
}

const FLAGS: Record<EncoderSettingName, string> = {
  codec: '--encoder',
  crf: '--crf',
  preset: '--preset',
  pixelFormat: '--pixel-format',
  audioBitrate: '--audio-bitrate',
};

function parseCrf(value: string): number {
  const max = CRF_RANGES.transparent.max;
  if (!/^\d+$/.test(value) || Number(value) > max) {
    throw new InvalidArgumentError(
      `expected a whole number: 0–${CRF_RANGES.mp4.max} for mp4, 0–${max} for transparent`,
    );
  }
  return Number(value);
}

function parseAudioBitrate(value: string): string {
  if (!new RegExp(AUDIO_BITRATE_PATTERN).test(value)) {
    throw new InvalidArgumentError(
      `expected ${AUDIO_BITRATE_KBPS.min}k to ${AUDIO_BITRATE_KBPS.max}k in whole kbit/s, like 96k`,
    );
  }
  return value;
}

/** The settings the flags choose; undefined when none is given (the quality level's command). */
export function encoderSettingsOf(opts: EncoderOptions): EncoderSettings | undefined {
  return chosenEncoderSettings({
    codec: opts.encoder,
    crf: opts.crf,
    preset: opts.preset,
    pixelFormat: opts.pixelFormat,
    audioBitrate: opts.audioBitrate,
  });
}

/** The command-line form of the settings' refusals: "--crf: gif has no CRF …". */
export function encoderFlagProblems(format: OutputFormat, opts: EncoderOptions): string[] {
  const settings = encoderSettingsOf(opts);
  if (!settings) return [];
  return encoderSettingsIssues(format, settings).map((issue) => `${FLAGS[issue.field]}: ${issue.message}`);
}

/**
 * Adds the flags, and a check before the command runs: a setting the format (--format, else mp4)
 * does not use is a usage error; a hardware encoder that cannot run here fails with why.
 */
export function addEncoderOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--encoder <name>',
        'mp4 video encoder: libx264, or a hardware one when ffmpeg lists it and it runs here',
      ).choices(H264_ENCODERS),
    )
    .addOption(
      new Option(
        '--crf <n>',
        `constant rate factor over the quality level's (lower is better and bigger): mp4 0–${CRF_RANGES.mp4.max}, transparent 0–${CRF_RANGES.transparent.max}`,
      ).argParser(parseCrf),
    )
    .addOption(
      new Option('--preset <preset>', "x264 preset over the quality level's (mp4)").choices(X264_PRESETS),
    )
    .addOption(
      new Option(
        '--pixel-format <format>',
        'mp4 pixel format (default yuv420p; yuv422p and yuv444p play in fewer players)',
      ).choices(H264_PIXEL_FORMATS),
    )
    .addOption(
      new Option(
        '--audio-bitrate <rate>',
        `AAC (mp4, default 192k) or Opus (transparent, default 160k) bitrate, ${AUDIO_BITRATE_KBPS.min}k–${AUDIO_BITRATE_KBPS.max}k`,
      ).argParser(parseAudioBitrate),
    )
    .hook('preAction', async (_command, action) => {
      const opts = action.opts<EncoderOptions & { format?: OutputFormat }>();
      const problems = encoderFlagProblems(opts.format ?? 'mp4', opts);
      if (problems.length > 0) action.error(`error: ${problems.join('; ')}`, { exitCode: 64 });
      if (isHardwareEncoder(opts.encoder)) {
        // Loaded only when a hardware encoder is asked for: it runs ffmpeg.
        const { assertEncoderAvailable } = await import('../encoder/encoder-settings.ts');
        await assertEncoderAvailable(encoderSettingsOf(opts));
      }
    });
}
