// What Kino produces: the output formats with the codecs a verified file must carry, and the quality
// levels. Part of every render contract (CLI, API, workspace), so it lives where both sides read it.
import { z } from 'zod';

export const OUTPUT_FORMATS = ['mp4', 'gif', 'transparent', 'mov'] as const;
export const OutputFormatSchema = z.enum(OUTPUT_FORMATS);
export type OutputFormat = z.infer<typeof OutputFormatSchema>;

export const QUALITIES = ['draft', 'standard', 'high'] as const;
export const QualitySchema = z.enum(QUALITIES);
export type Quality = z.infer<typeof QualitySchema>;

export interface FormatInfo {
  /** With the leading dot. */
  extension: string;
  contentType: string;
  /** ffmpeg's muxer name. */
  muxer: string;
  /** The codec name ffprobe reports for the video and audio streams. */
  videoCodec: string;
  audioCodec: string | undefined;
  alpha: boolean;
}

export const FORMATS: Record<OutputFormat, FormatInfo> = {
  mp4: {
    extension: '.mp4',
    contentType: 'video/mp4',
    muxer: 'mp4',
    videoCodec: 'h264',
    audioCodec: 'aac',
    alpha: false,
  },
  gif: {
    extension: '.gif',
    contentType: 'image/gif',
    muxer: 'gif',
    videoCodec: 'gif',
    audioCodec: undefined,
    alpha: false,
  },
  transparent: {
    extension: '.webm',
    contentType: 'video/webm',
    muxer: 'webm',
    videoCodec: 'vp9',
    audioCodec: 'opus',
    alpha: true,
  },
  mov: {
    extension: '.mov',
    contentType: 'video/quicktime',
    muxer: 'mov',
    videoCodec: 'prores',
    audioCodec: 'pcm_s16le',
    alpha: true,
  },
};

export const FORMAT_EXTENSIONS: Record<OutputFormat, string> = {
  mp4: FORMATS.mp4.extension,
  gif: FORMATS.gif.extension,
  transparent: FORMATS.transparent.extension,
  mov: FORMATS.mov.extension,
};

export function formatHasAlpha(format: OutputFormat): boolean {
  return FORMATS[format].alpha;
}

export function formatHasAudio(format: OutputFormat): boolean {
  return FORMATS[format].audioCodec !== undefined;
}
