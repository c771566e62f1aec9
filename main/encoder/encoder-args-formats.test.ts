import { describe, expect, it } from 'vitest';
import type { AudioMixPlan } from './audio-mix.ts';
import { encoderArgs, gifFps, outputGeometry } from './encoder-args.ts';
import { FORMATS, formatHasAlpha, formatHasAudio } from '../../shared/output/formats.ts';
import type { EncoderArgsInput } from './encoder-args.ts';
import { qualitySettings } from './quality.ts';

const tone: AudioMixPlan = {
  durationSeconds: 2,
  tracks: [
    {
      path: '/media/tone.wav',
      startSeconds: 0.5,
      sourceStartSeconds: 0,
      loop: false,
      volume: 1,
      fadeInSeconds: 0,
      fadeOutSeconds: 0,
      rate: 1,
    },
  ],
};

function args(input: Partial<EncoderArgsInput> & Pick<EncoderArgsInput, 'format'>): string[] {
  return encoderArgs({
    quality: 'standard',
    width: 1080,
    height: 1920,
    fps: 30,
    outputPath: '/out/video.mp4',
    ...input,
  });
}

function valueAfter(list: string[], flag: string): string | undefined {
  const index = list.indexOf(flag);
  return index < 0 ? undefined : list[index + 1];
}

function graph(list: string[]): string {
  return valueAfter(list, '-filter_complex') ?? '';
}

describe('encoderArgs', () => {
  it('reads raw RGBA frames of the given size and rate from stdin', () => {
    const list = args({ format: 'mp4', width: 320, height: 568, fps: 24 });
    expect(list.join(' ')).toContain('-f rawvideo -pix_fmt rgba -s 320x568 -r 24 -i pipe:0');
    expect(list.at(-1)).toBe('/out/video.mp4');
  });

  it('encodes mp4 as H.264 yuv420p with the quality preset and CRF, BT.709-tagged, faststart, no audio', () => {
    const list = args({ format: 'mp4', quality: 'high' });
    const x264 = qualitySettings('mp4', 'high').video;
    if (x264.codec !== 'libx264') throw new Error('mp4 must use libx264');
    expect(valueAfter(list, '-c:v')).toBe('libx264');
    expect(valueAfter(list, '-preset')).toBe(x264.preset);
    expect(valueAfter(list, '-crf')).toBe(String(x264.crf));
    expect(graph(list)).toContain('format=yuv420p');
    expect(graph(list)).toContain('out_color_matrix=bt709');
    expect(valueAfter(list, '-colorspace')).toBe('bt709');
    expect(valueAfter(list, '-movflags')).toBe('+faststart');
    expect(valueAfter(list, '-f')).toBe('rawvideo');
    expect(list.slice(-3)).toEqual(['-f', 'mp4', '/out/video.mp4']);
    expect(list).toContain('-an');
  });

  it('adds the audio mix as AAC 192k, 48 kHz stereo, for mp4', () => {
    const list = args({ format: 'mp4', audio: tone });
    expect(list).not.toContain('-an');
    expect(valueAfter(list, '-c:a')).toBe('aac');
    expect(valueAfter(list, '-b:a')).toBe('192k');
    expect(valueAfter(list, '-ar')).toBe('48000');
    expect(valueAfter(list, '-ac')).toBe('2');
    expect(list.join(' ')).toContain('-protocol_whitelist file -i file:/media/tone.wav');
    expect(list.join(' ')).toContain('-map [vout] -map [aout]');
    expect(graph(list)).toContain('[1:a]');
  });

  it('keeps an empty mix silent: no audio input, no audio stream', () => {
    const list = args({ format: 'mp4', audio: { durationSeconds: 2, tracks: [] } });
    expect(list).toContain('-an');
    expect(list.filter((a) => a === '-i')).toHaveLength(1);
  });

  it('makes a GIF in one pass with a generated palette, capped at 15 fps and the quality width', () => {
    const list = args({ format: 'gif', quality: 'draft', audio: tone, outputPath: '/out/a.gif' });
    const filter = graph(list);
    expect(filter).toMatch(/^\[0:v\]fps=15,scale=480:854:flags=lanczos,split/);
    expect(filter).toContain('palettegen=stats_mode=diff');
    expect(filter).toMatch(/paletteuse=dither=(bayer|sierra2_4a)/);
    expect(valueAfter(list, '-r')).toBe('30');
    expect(list[list.lastIndexOf('-r') + 1]).toBe('15');
    expect(list).toContain('-an');
    expect(list.filter((a) => a === '-i')).toHaveLength(1);
    expect(list.slice(-3)).toEqual(['-f', 'gif', '/out/a.gif']);
  });

  it('keeps a small GIF at its size and a slow one at its rate', () => {
    const filter = graph(args({ format: 'gif', width: 320, height: 240, fps: 12, outputPath: '/o.gif' }));
    expect(filter).not.toContain('fps=');
    expect(filter).not.toMatch(/[\],]scale=/);
  });

  it('encodes transparent as VP9 with alpha and Opus', () => {
    const list = args({ format: 'transparent', audio: tone, outputPath: '/out/a.webm' });
    expect(valueAfter(list, '-c:v')).toBe('libvpx-vp9');
    expect(graph(list)).toContain('format=yuva420p');
    expect(valueAfter(list, '-auto-alt-ref')).toBe('0');
    expect(valueAfter(list, '-b:v')).toBe('0');
    expect(valueAfter(list, '-c:a')).toBe('libopus');
    expect(list.slice(-3)).toEqual(['-f', 'webm', '/out/a.webm']);
  });

  it('encodes mov as ProRes 4444 with alpha and PCM audio', () => {
    const list = args({ format: 'mov', audio: tone, outputPath: '/out/a.mov' });
    expect(valueAfter(list, '-c:v')).toBe('prores_ks');
    expect(valueAfter(list, '-profile:v')).toBe('4');
    expect(graph(list)).toContain('format=yuva444p10le');
    expect(valueAfter(list, '-c:a')).toBe('pcm_s16le');
  });

  it('scales in ffmpeg (bicubic) only when an output size is asked for', () => {
    expect(graph(args({ format: 'mp4' }))).not.toContain('flags=bicubic');
    const scaled = graph(args({ format: 'mp4', outputWidth: 540, outputHeight: 960 }));
    expect(scaled).toContain('scale=540:960:flags=bicubic');
  });

  it("names the scaler's flags, whose default differs between ffmpeg versions", () => {
    // Without full_chroma_inp swscale averages chroma pairs in scalar C: a third slower.
    for (const format of ['mp4', 'transparent', 'mov'] as const) {
      expect(graph(args({ format }))).toMatch(
        /\[0:v\]scale=flags=bilinear\+full_chroma_inp:out_color_matrix=bt709/,
      );
    }
    const scaled = graph(args({ format: 'mp4', outputWidth: 540, outputHeight: 960 }));
    expect(scaled).toContain('scale=540:960:flags=bicubic+full_chroma_inp:');
  });

  it('is pure: the same job gives the same command', () => {
    expect(args({ format: 'transparent', audio: tone })).toEqual(
      args({ format: 'transparent', audio: tone }),
    );
  });
});

describe('outputGeometry', () => {
  it('caps GIF width per quality, keeping the aspect with an even height', () => {
    const base = { format: 'gif' as const, width: 1080, height: 1920, fps: 30 };
    expect(outputGeometry({ ...base, quality: 'draft' })).toEqual({ width: 480, height: 854, fps: 15 });
    expect(outputGeometry({ ...base, quality: 'standard' })).toEqual({ width: 720, height: 1280, fps: 15 });
    expect(outputGeometry({ ...base, quality: 'high' })).toEqual({ width: 1080, height: 1920, fps: 15 });
  });

  it('encodes other formats at the frame size unless told otherwise', () => {
    expect(outputGeometry({ format: 'mp4', quality: 'draft', width: 540, height: 960, fps: 25 })).toEqual({
      width: 540,
      height: 960,
      fps: 25,
    });
  });
});

describe('format facts', () => {
  it('knows which formats carry alpha and audio', () => {
    expect(['mp4', 'gif', 'transparent', 'mov'].filter((f) => formatHasAlpha(f as 'mp4'))).toEqual([
      'transparent',
      'mov',
    ]);
    expect(['mp4', 'gif', 'transparent', 'mov'].filter((f) => formatHasAudio(f as 'mp4'))).toEqual([
      'mp4',
      'transparent',
      'mov',
    ]);
    expect(FORMATS.transparent.extension).toBe('.webm');
    expect(gifFps(30)).toBe(15);
    expect(gifFps(10)).toBe(10);
  });
});
