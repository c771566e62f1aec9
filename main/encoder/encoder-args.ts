// The output formats, and each as an ffmpeg command: raw frames on stdin (RGBA, or yuv420p already
// converted by Kino for a plain mp4) plus the audio sources in, one finished file out.
import { audioMixGraph } from './audio-mix.ts';
import type { AudioMixPlan } from './audio-mix.ts';
import { GIF_MAX_FPS, qualitySettings } from './quality.ts';
import type { QualitySettings } from './quality.ts';
import { FORMATS, formatHasAudio } from '../../shared/output/formats.ts';
import type { OutputFormat, Quality } from '../../shared/output/formats.ts';
import { yuv420pBytes, yuv420pSizeSupported } from './yuv420p/yuv420p-reference.ts';
import { isHardwareEncoder } from '../../shared/output/encoder-settings.ts';
import type {
  EncoderSettings,
  EncoderSettingsUsed,
  HardwareH264Encoder,
} from '../../shared/output/encoder-settings.ts';

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
  /** Size of the raw frames written to stdin. */
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
  /**
   * Settings chosen over the quality level's (--crf, options.encoder …), already checked against the
   * format by encoderSettingsIssues. Unset or empty: the quality level's command, unchanged.
   */
  encoder?: EncoderSettings | undefined;
  /**
   * A chunk of an mp4 render, joined to the others later by stream copy (stitchArgs): the same
   * video encoder settings, closed GOPs, no audio (the soundtrack is mixed once, when stitching),
   * and no faststart pass (the stitched file gets one).
   */
  chunk?: boolean | undefined;
  /**
   * What the raw frames are: straight RGBA (the default), which ffmpeg converts, or yuv420p planes
   * converted by Kino (only where yuv420pInputSupported says so: the filter then passes them on).
   */
  inputPixelFormat?: InputPixelFormat | undefined;
}

/** The pixel format of the raw frames Kino writes to ffmpeg. */
export type InputPixelFormat = 'rgba' | 'yuv420p';

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

/**
 * What a hardware H.264 encoder needs besides its name: options before the inputs (the device it
 * opens) and the filter step that hands it frames. Each takes NV12 (4:2:0, read back as yuv420p).
 * Not exercised by the test suite: it needs the hardware (README, "Encoder settings").
 */
const HARDWARE: Record<HardwareH264Encoder, { deviceArgs: string[]; upload: string }> = {
  h264_nvenc: { deviceArgs: [], upload: '' },
  h264_videotoolbox: { deviceArgs: [], upload: '' },
  h264_qsv: { deviceArgs: [], upload: '' },
  h264_vaapi: { deviceArgs: ['-vaapi_device', '/dev/dri/renderD128'], upload: ',hwupload' },
};

/**
 * A hardware encoder has no CRF: it is asked for a bitrate of this many bits per pixel of each
 * frame, by quality level (1080×1920 at 30 fps, standard: about 6.2 Mbit/s). Not measured here.
 */
const HARDWARE_BITS_PER_PIXEL: Record<Quality, number> = { draft: 0.06, standard: 0.1, high: 0.15 };

/** The video bitrate a hardware encoder is asked for, e.g. "6221k". */
export function hardwareVideoBitrate(geometry: FrameGeometry, quality: Quality): string {
  const bits = geometry.width * geometry.height * geometry.fps * HARDWARE_BITS_PER_PIXEL[quality];
  return `${Math.max(1, Math.round(bits / 1000))}k`;
}

/** The hardware encoder chosen for this encode, if any (the encoder is chosen for mp4 only). */
function hardwareEncoder(input: EncoderArgsInput): HardwareH264Encoder | undefined {
  const codec = input.encoder?.codec;
  return input.format === 'mp4' && isHardwareEncoder(codec) ? codec : undefined;
}

/** The pixel format an mp4's H.264 stream is encoded in: yuv420p unless another was chosen. */
export function h264PixelFormat(chosen: EncoderSettings | undefined): string {
  return chosen?.pixelFormat ?? 'yuv420p';
}

/** The quality level's codec settings with the chosen crf and preset over them. */
export function chosenCodecSettings(
  settings: QualitySettings['video'],
  chosen: EncoderSettings | undefined,
): QualitySettings['video'] {
  if (settings.codec === 'libx264') {
    return { ...settings, preset: chosen?.preset ?? settings.preset, crf: chosen?.crf ?? settings.crf };
  }
  if (settings.codec === 'libvpx-vp9') return { ...settings, crf: chosen?.crf ?? settings.crf };
  return settings;
}

/**
 * Whether Kino may hand ffmpeg yuv420p frames it converted itself (main/encoder/yuv420p: the same
 * bytes swscale makes of RGBA with scaleToYuv's flags, so the file is identical): an mp4 through
 * software libx264 in yuv420p, encoded at the frames' own size, even sides of at least 8 pixels.
 * Everything else (alpha formats, GIF, hardware encoders, other pixel formats, a resize) gets RGBA.
 */
export function yuv420pInputSupported(input: EncoderArgsInput): boolean {
  const settings = input.codecSettings ?? qualitySettings(input.format, input.quality).video;
  const out = outputGeometry(input);
  return (
    input.format === 'mp4' &&
    settings.codec === 'libx264' &&
    !hardwareEncoder(input) &&
    h264PixelFormat(input.encoder) === 'yuv420p' &&
    out.width === input.width &&
    out.height === input.height &&
    yuv420pSizeSupported(input.width, input.height)
  );
}

/**
 * The frames' pixel format for an encode: yuv420p wherever it is supported, unless the environment
 * sets KINO_YUV=0 (RGBA converted by ffmpeg, as before: for comparison, and as an escape hatch).
 */
export function inputPixelFormatFor(
  input: EncoderArgsInput,
  env: NodeJS.ProcessEnv = process.env,
): InputPixelFormat {
  return env.KINO_YUV !== '0' && yuv420pInputSupported(input) ? 'yuv420p' : 'rgba';
}

/** Bytes of one raw frame in the given pixel format. */
export function rawFrameBytes(width: number, height: number, format: InputPixelFormat): number {
  return format === 'yuv420p' ? yuv420pBytes(width, height) : width * height * 4;
}

/** The video part of the filter graph, from input 0 to [vout]. Shared with the quality sweep's reference. */
export function videoFilter(input: EncoderArgsInput, settings: QualitySettings['video']): string {
  const out = outputGeometry(input);
  const resize = out.width !== input.width || out.height !== input.height;
  switch (settings.codec) {
    case 'libx264': {
      const hardware = hardwareEncoder(input);
      if (hardware) {
        return `[0:v]${scaleToYuv(out.width, out.height, resize, 'nv12')}${HARDWARE[hardware].upload}[vout]`;
      }
      // Frames Kino already converted need no scaler: the graph only labels the input.
      if (input.inputPixelFormat === 'yuv420p') return '[0:v]null[vout]';
      return `[0:v]${scaleToYuv(out.width, out.height, resize, h264PixelFormat(input.encoder))}[vout]`;
    }
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

function hardwareCodecArgs(codec: HardwareH264Encoder, bitrate: string): string[] {
  return ['-c:v', codec, '-b:v', bitrate, ...BT709_TAGS];
}

/** The audio codec and its default bitrate per format (the bitrate may be chosen). */
const AUDIO_CODECS: Record<OutputFormat, { codec: string; bitrate?: string } | undefined> = {
  mp4: { codec: 'aac', bitrate: '192k' },
  transparent: { codec: 'libopus', bitrate: '160k' },
  mov: { codec: 'pcm_s16le' },
  gif: undefined,
};

/** The soundtrack's encoding: codec, bitrate, 48 kHz stereo (a single render's and a stitch's alike). */
function audioOutputArgs(format: OutputFormat, chosenBitrate: string | undefined): string[] {
  const audio = AUDIO_CODECS[format];
  if (!audio) return [];
  const bitrate = audio.bitrate && (chosenBitrate ?? audio.bitrate);
  return ['-c:a', audio.codec, ...(bitrate ? ['-b:a', bitrate] : []), '-ar', '48000', '-ac', '2'];
}

/** ffmpeg quiet but for errors, which the caller reads from stderr. */
const QUIET = ['-hide_banner', '-nostats', '-loglevel', 'error'];

/** What encoderArgs asks ffmpeg for, as settings: the codec, its rate control, pixel format and audio. */
export function encoderSettingsUsed(input: EncoderArgsInput): EncoderSettingsUsed {
  const settings = chosenCodecSettings(
    input.codecSettings ?? qualitySettings(input.format, input.quality).video,
    input.encoder,
  );
  const audioCodec = AUDIO_CODECS[input.format];
  const audio = audioCodec
    ? {
        audioCodec: audioCodec.codec,
        ...(audioCodec.bitrate ? { audioBitrate: input.encoder?.audioBitrate ?? audioCodec.bitrate } : {}),
      }
    : {};
  const hardware = hardwareEncoder(input);
  if (hardware) {
    const videoBitrate = hardwareVideoBitrate(outputGeometry(input), input.quality);
    return { codec: hardware, pixelFormat: 'yuv420p', videoBitrate, ...audio };
  }
  switch (settings.codec) {
    case 'libx264':
      return {
        codec: 'libx264',
        preset: settings.preset,
        crf: settings.crf,
        pixelFormat: h264PixelFormat(input.encoder),
        ...audio,
      };
    case 'libvpx-vp9':
      return { codec: 'libvpx-vp9', crf: settings.crf, pixelFormat: 'yuva420p', ...audio };
    case 'prores_ks':
      return { codec: 'prores_ks', pixelFormat: 'yuva444p10le', ...audio };
    case 'gif':
      return { codec: 'gif' };
  }
}

/**
 * A one-frame encode from a generated picture through the hardware encoder's own filter step and
 * options, to nothing: whether it opens on this machine (ffmpeg may list one it cannot run).
 */
export function hardwareTrialArgs(codec: HardwareH264Encoder): string[] {
  return [
    ...QUIET,
    ...HARDWARE[codec].deviceArgs,
    '-f',
    'lavfi',
    '-i',
    'color=c=black:s=256x256:r=30:d=0.1',
    '-vf',
    `${scaleToYuv(256, 256, false, 'nv12')}${HARDWARE[codec].upload}`,
    '-frames:v',
    '1',
    ...hardwareCodecArgs(codec, '1000k'),
    '-f',
    'null',
    '-',
  ];
}

/** The whole ffmpeg argument list for one encode. Pure: the same input gives the same command. */
export function encoderArgs(input: EncoderArgsInput): string[] {
  const settings = chosenCodecSettings(
    input.codecSettings ?? qualitySettings(input.format, input.quality).video,
    input.encoder,
  );
  if (input.chunk && input.format !== 'mp4')
    throw new Error(`only mp4 encodes in chunks, not ${input.format}.`);
  const pixelFormat = input.inputPixelFormat ?? 'rgba';
  if (pixelFormat === 'yuv420p' && !yuv420pInputSupported(input)) {
    throw new Error(`yuv420p frames are only taken for an mp4 in yuv420p through libx264 at their own size.`);
  }
  const audio =
    formatHasAudio(input.format) && input.audio && !input.chunk ? audioMixGraph(input.audio, 1) : undefined;
  const out = outputGeometry(input);
  const hardware = hardwareEncoder(input);
  const graph = [videoFilter(input, settings), ...(audio ? [audio.filterGraph] : [])].join(';');
  return [
    ...QUIET,
    '-y',
    ...(hardware ? HARDWARE[hardware].deviceArgs : []),
    '-f',
    'rawvideo',
    '-pix_fmt',
    pixelFormat,
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
    ...(hardware
      ? hardwareCodecArgs(hardware, hardwareVideoBitrate(out, input.quality))
      : videoCodecArgs(settings)),
    // libx264 closes its GOPs unless asked otherwise; a chunk says so for any H.264 encoder.
    ...(input.chunk ? ['-flags', '+cgop'] : []),
    '-r',
    String(out.fps),
    ...(audio ? audioOutputArgs(input.format, input.encoder?.audioBitrate) : ['-an']),
    ...(input.format === 'mp4' && !input.chunk ? ['-movflags', '+faststart'] : []),
    '-map_metadata',
    '-1',
    '-f',
    FORMATS[input.format].muxer,
    input.outputPath,
  ];
}

export interface StitchArgsInput {
  /** An ffconcat list naming the chunks, with each one's exact duration (see stitch-video.ts). */
  listPath: string;
  /** The soundtrack of the whole render, mixed as a single mp4 render mixes it. */
  audio?: AudioMixPlan | undefined;
  /** The render's encoder settings (the audio bitrate is read from them). */
  encoder?: EncoderSettings | undefined;
  outputPath: string;
}

/**
 * Joins mp4 chunks (encoderArgs with `chunk`) into the render's mp4: the H.264 stream copied as it
 * is, the soundtrack encoded once over the whole length with the audio settings of a single mp4
 * render, faststart as every mp4. The list names absolute paths, so the concat demuxer runs with
 * -safe 0; only the file protocol is allowed, for the list and every file it names.
 */
export function stitchArgs(input: StitchArgsInput): string[] {
  const audio = input.audio ? audioMixGraph(input.audio, 1) : undefined;
  return [
    ...QUIET,
    '-y',
    '-f',
    'concat',
    '-safe',
    '0',
    '-protocol_whitelist',
    'file',
    '-i',
    `file:${input.listPath}`,
    ...(audio ? [...audio.inputArgs, '-filter_complex', audio.filterGraph] : []),
    '-map',
    '0:v:0',
    ...(audio ? ['-map', `[${audio.outputLabel}]`] : []),
    '-c:v',
    'copy',
    ...(audio ? audioOutputArgs('mp4', input.encoder?.audioBitrate) : ['-an']),
    '-movflags',
    '+faststart',
    '-map_metadata',
    '-1',
    '-f',
    FORMATS.mp4.muxer,
    input.outputPath,
  ];
}
