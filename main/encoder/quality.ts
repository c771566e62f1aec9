// What each quality level means per format. The H.264 "standard" numbers were chosen by measurement
// (main/bench/quality-sweep.ts); docs/quality.md has the table and the reasons for every other value.
import type { OutputFormat, Quality } from '../../shared/output/formats.ts';
import type { X264Preset } from '../../shared/output/encoder-settings.ts';

// The presets a user may choose (--preset, options.encoder.preset) are the ones the levels use.
export { X264_PRESETS } from '../../shared/output/encoder-settings.ts';
export type { X264Preset } from '../../shared/output/encoder-settings.ts';

export interface X264Settings {
  codec: 'libx264';
  preset: X264Preset;
  /** Constant rate factor: lower is better and bigger. */
  crf: number;
}

export interface Vp9Settings {
  codec: 'libvpx-vp9';
  crf: number;
  deadline: 'good' | 'realtime';
  /** Speed over quality, 0..8 (5+ only with the realtime deadline). */
  cpuUsed: number;
}

export interface ProresSettings {
  codec: 'prores_ks';
  /** 4 = ProRes 4444, the profile that carries alpha. */
  profile: 4;
}

export interface GifSettings {
  codec: 'gif';
  /** Wider frames are scaled down (lanczos) to this width. */
  maxWidth: number;
  dither: 'bayer' | 'sierra2_4a';
  /** Bayer pattern size, 0..5 (bayer only): larger shows less grid and costs more bytes. */
  bayerScale: number;
}

export type VideoCodecSettings = X264Settings | Vp9Settings | ProresSettings | GifSettings;

export interface QualitySettings {
  /** Fraction of the full frame size that frames are drawn and encoded at (kept even by the caller). */
  scale: number;
  video: VideoCodecSettings;
}

export const GIF_MAX_FPS = 15;

const SCALE: Record<Quality, number> = { draft: 0.5, standard: 1, high: 1 };

// standard: the least CPU with SSIM >= medium/CRF 20 and at most 1.5x its size; high: medium/CRF 16
// matched slow/CRF 16 within 0.0003 SSIM for 30% less CPU. Measured: docs/quality.md.
const X264: Record<Quality, X264Settings> = {
  draft: { codec: 'libx264', preset: 'superfast', crf: 24 },
  standard: { codec: 'libx264', preset: 'veryfast', crf: 17 },
  high: { codec: 'libx264', preset: 'medium', crf: 16 },
};

// VP9 with alpha encodes two streams and is the slowest format; realtime/cpu-used 6 scored the same
// SSIM as good/cpu-used 5 for less than half the CPU (docs/quality.md).
const VP9: Record<Quality, Vp9Settings> = {
  draft: { codec: 'libvpx-vp9', crf: 40, deadline: 'realtime', cpuUsed: 8 },
  standard: { codec: 'libvpx-vp9', crf: 32, deadline: 'realtime', cpuUsed: 6 },
  high: { codec: 'libvpx-vp9', crf: 24, deadline: 'good', cpuUsed: 2 },
};

const PRORES: ProresSettings = { codec: 'prores_ks', profile: 4 };

// Compared by eye on the reference clip (docs/quality.md): sierra2_4a hides gradient banding best;
// bayer leaves a fine grid but is ~14% smaller, which suits drafts.
const GIF: Record<Quality, GifSettings> = {
  draft: { codec: 'gif', maxWidth: 480, dither: 'bayer', bayerScale: 3 },
  standard: { codec: 'gif', maxWidth: 720, dither: 'sierra2_4a', bayerScale: 3 },
  high: { codec: 'gif', maxWidth: 1080, dither: 'sierra2_4a', bayerScale: 3 },
};

export function qualitySettings(format: OutputFormat, quality: Quality): QualitySettings {
  const scale = SCALE[quality];
  switch (format) {
    case 'mp4':
      return { scale, video: X264[quality] };
    case 'transparent':
      return { scale, video: VP9[quality] };
    case 'mov':
      return { scale, video: PRORES };
    case 'gif':
      return { scale, video: GIF[quality] };
  }
}
