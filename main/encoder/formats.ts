// The output formats, and each as an ffmpeg command: raw RGBA frames on stdin (plus the audio
// sources) in, one finished file out.
import { audioMixGraph } from './audio-mix.ts';
import type { AudioMixPlan } from './audio-mix.ts';
import { GIF_MAX_FPS, qualitySettings } from './quality.ts';
import type { QualitySettings } from './quality.ts';
import { FORMATS, formatHasAudio } from '../../shared/output/formats.ts';
import type { OutputFormat, Quality } from '../../shared/output/formats.ts';

/** GIFs are played at no more than 15 fps: more frames cost size and few viewers see the difference. */
export function gifFps(fps: number): number {
  return Math.min(fps, GIF_MAX_FPS);
}

export interface FrameGeometry {
  width: number;
  height: number;
  fps: number;
}

function even(n: number): number {
  return Math.max(2, Math.round(n / 2) * 2);
}

/**
 * The size and rate of the encoded stream. Frames arrive at width×height (already drawn at the
 * quality's scale by the caller, or at full size with outputWidth/outputHeight set so ffmpeg scales);
 * a GIF is further capped to its quality's width and frame rate.
 */
export function outputGeometry(input: {
  format: OutputFormat;
  quality: Quality;
  width: number;
  height: number;
  fps: number;
  outputWidth?: number | undefined;
  outputHeight?: number | undefined;
}): FrameGeometry {
  const width = input.outputWidth ?? input.width;
  const height = input.outputHeight ?? input.height;
  if (input.format !== 'gif') return { width, height, fps: input.fps };
  const settings = qualitySettings('gif', input.quality);
  const maxWidth = settings.video.codec === 'gif' ? settings.video.maxWidth : width;
  if (width <= maxWidth) return { width, height, fps: gifFps(input.fps) };
  return { width: maxWidth, height: even((height * maxWidth) / width), fps: gifFps(input.fps) };
}

export interface EncoderArgsInput {
  format: OutputFormat;
  quality: Quality;
  /** Size of the raw RGBA frames written to stdin. */
  width: number;
  height: number;
  fps: number;
  /** Size to encode at when it differs from the frames' size (ffmpeg scales). */
  outputWidth?: number | undefined;
  outputHeight?: number | undefined;
  audio?: AudioMixPlan | undefined;
  outputPath: string;
  /** Replaces the quality's codec settings (the quality sweep tries many). */
  codecSettings?: QualitySettings['video'] | undefined;
  /** Where the raw frames come from; stdin unless a benchmark reads them from a file. */
  videoInput?: string | undefined;
}

// RGB becomes BT.709 limited-range YUV and is tagged so: untagged HD video is assumed BT.709 by
// players, while swscale's default matrix is BT.601, which would shift colours.
const BT709_TAGS = [
  '-colorspace',
  'bt709',
  '-color_primaries',
  'bt709',
  '-color_trc',
  'bt709',
  '-color_range',
  'tv',
];

// The scaler's flags are always named: the scale filter's default changed from bilinear (ffmpeg 4)
// to bicubic (5.x), which cost CPU and bytes for nothing Kino asked for. full_chroma_inp computes
// chroma from every pixel with swscale's SIMD RGB→UV code and then filters it down; without it,
// each pair of pixels is averaged first by a scalar C loop, the slowest step of the whole conversion
// (a third of its time on a 1080×1920 frame). Quality is the same within 0.0001 SSIM.
function scaleToYuv(width: number, height: number, resize: boolean, pixFmt: string): string {
  const size = resize ? `${width}:${height}:` : '';
  const flags = `${resize ? 'bicubic' : 'bilinear'}+full_chroma_inp`;
  return `scale=${size}flags=${flags}:out_color_matrix=bt709:out_range=tv,format=${pixFmt}`;
}

/** The video part of the filter graph, from input 0 to [vout]. Shared with the quality sweep's reference. */
export function videoFilter(input: EncoderArgsInput, settings: QualitySettings['video']): string {
  const out = outputGeometry(input);
  const resize = out.width !== input.width || out.height !== input.height;
  switch (settings.codec) {
    case 'libx264':
      return `[0:v]${scaleToYuv(out.width, out.height, resize, 'yuv420p')}[vout]`;
    case 'libvpx-vp9':
      return `[0:v]${scaleToYuv(out.width, out.height, resize, 'yuva420p')}[vout]`;
    case 'prores_ks':
      return `[0:v]${scaleToYuv(out.width, out.height, resize, 'yuva444p10le')}[vout]`;
    case 'gif': {
      const rate = out.fps < input.fps ? `fps=${out.fps},` : '';
      const scale = resize ? `scale=${out.width}:${out.height}:flags=lanczos,` : '';
      const dither =
        settings.dither === 'bayer' ? `bayer:bayer_scale=${settings.bayerScale}` : settings.dither;
      return (
        `[0:v]${rate}${scale}split[gifa][gifb];[gifa]palettegen=stats_mode=diff[palette];` +
        `[gifb][palette]paletteuse=dither=${dither}:diff_mode=rectangle[vout]`
      );
    }
  }
}

function videoCodecArgs(settings: QualitySettings['video']): string[] {
  switch (settings.codec) {
    case 'libx264':
      return ['-c:v', 'libx264', '-preset', settings.preset, '-crf', String(settings.crf), ...BT709_TAGS];
    case 'libvpx-vp9':
      return [
        '-c:v',
        'libvpx-vp9',
        '-crf',
        String(settings.crf),
        '-b:v',
        '0',
        '-deadline',
        settings.deadline,
        '-cpu-used',
        String(settings.cpuUsed),
        '-row-mt',
        '1',
        '-tile-columns',
        '2',
        // libvpx cannot encode alpha together with alternate reference frames.
        '-auto-alt-ref',
        '0',
        ...BT709_TAGS,
      ];
    case 'prores_ks':
      return ['-c:v', 'prores_ks', '-profile:v', String(settings.profile), '-vendor', 'apl0', ...BT709_TAGS];
    case 'gif':
      return ['-c:v', 'gif', '-loop', '0'];
  }
}

const AUDIO_CODEC_ARGS: Record<OutputFormat, string[]> = {
  mp4: ['-c:a', 'aac', '-b:a', '192k'],
  transparent: ['-c:a', 'libopus', '-b:a', '160k'],
  mov: ['-c:a', 'pcm_s16le'],
  gif: [],
};

/** The whole ffmpeg argument list for one encode. Pure: the same input gives the same command. */
export function encoderArgs(input: EncoderArgsInput): string[] {
  const settings = input.codecSettings ?? qualitySettings(input.format, input.quality).video;
  const audio = formatHasAudio(input.format) && input.audio ? audioMixGraph(input.audio, 1) : undefined;
  const out = outputGeometry(input);
  const graph = [videoFilter(input, settings), ...(audio ? [audio.filterGraph] : [])].join(';');
  return [
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
    `${input.width}x${input.height}`,
    '-r',
    String(input.fps),
    '-i',
    input.videoInput ?? 'pipe:0',
    ...(audio?.inputArgs ?? []),
    '-filter_complex',
    graph,
    '-map',
    '[vout]',
    ...(audio ? ['-map', `[${audio.outputLabel}]`] : []),
    ...videoCodecArgs(settings),
    '-r',
    String(out.fps),
    ...(audio ? [...AUDIO_CODEC_ARGS[input.format], '-ar', '48000', '-ac', '2'] : ['-an']),
    ...(input.format === 'mp4' ? ['-movflags', '+faststart'] : []),
    '-map_metadata',
    '-1',
    '-f',
    FORMATS[input.format].muxer,
    input.outputPath,
  ];
}
