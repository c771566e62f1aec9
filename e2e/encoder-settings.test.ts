// Encoder settings on the command line, as a user gives them: a render with --crf, --preset,
// --pixel-format and --audio-bitrate comes out as ffprobe says it should and its receipt names them;
// a setting the format does not use is a usage error; a hardware encoder that cannot run here is
// refused in one line before anything is drawn.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hardwareEncoderProblem } from '../main/encoder/encoder-settings.ts';
import { ffprobePath } from '../main/ffmpeg/binaries.ts';
import type { RenderReceipt } from '../shared/protocol/receipt.ts';
import { REPO_ROOT, runKino } from './cli-helpers.ts';

/** Two seconds of square text over music: enough sound for its bitrate to be measured. */
const SPEC = {
  kinoSpec: 1,
  aspect: 'square',
  fps: 15,
  audio: [{ src: 'asset:music-loop.m4a' }],
  scenes: [{ duration: '2s', elements: [{ type: 'text', text: 'Encoder', size: 90 }] }],
};

let project: string;
const at = (...parts: string[]) => join(project, ...parts);

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'kino-encoder-settings-'));
  mkdirSync(at('assets'));
  copyFileSync(join(REPO_ROOT, 'examples', 'assets', 'music-loop.m4a'), at('assets', 'music-loop.m4a'));
  writeFileSync(at('kino.json'), JSON.stringify({ name: 'encoder settings test', assetsDir: 'assets' }));
  writeFileSync(at('spec.json'), JSON.stringify(SPEC));
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

interface Stream {
  codec_type: string;
  codec_name: string;
  pix_fmt?: string;
  profile?: string;
  bit_rate?: string;
}

function streams(file: string): Stream[] {
  const json = execFileSync(
    ffprobePath(),
    [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_type,codec_name,pix_fmt,profile,bit_rate',
      '-of',
      'json',
      file,
    ],
    { encoding: 'utf8' },
  );
  return (JSON.parse(json) as { streams: Stream[] }).streams;
}

describe('kino render with encoder settings', () => {
  it('encodes with the CRF, preset, pixel format and audio bitrate given, and records them', async () => {
    const out = at('out', 'chosen.mp4');
    const settings = [
      '--crf',
      '30',
      '--preset',
      'ultrafast',
      '--pixel-format',
      'yuv444p',
      '--audio-bitrate',
      '96k',
    ];
    const result = await runKino(['render', at('spec.json'), '-o', out, '--quality', 'draft', ...settings]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('verified: non-empty file, video stream, video codec');

    const [video, audio] = ['video', 'audio'].map((type) => streams(out).find((s) => s.codec_type === type));
    expect(video).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv444p' });
    expect(video?.profile).toMatch(/4:4:4/);
    expect(audio?.codec_name).toBe('aac');
    // AAC's rate control lands near its target over two seconds of music, not on it.
    expect(Number(audio?.bit_rate)).toBeGreaterThan(96_000 * 0.85);
    expect(Number(audio?.bit_rate)).toBeLessThan(96_000 * 1.15);

    const receipt = JSON.parse(readFileSync(at('out', 'chosen.render.json'), 'utf8')) as RenderReceipt;
    expect(receipt.options.encoder).toEqual({
      codec: 'libx264',
      preset: 'ultrafast',
      crf: 30,
      pixelFormat: 'yuv444p',
      audioCodec: 'aac',
      audioBitrate: '96k',
    });
    expect(receipt.inputs.request).toMatchObject({
      crf: 30,
      preset: 'ultrafast',
      pixelFormat: 'yuv444p',
      audioBitrate: '96k',
    });
    expect(receipt.verification.ok).toBe(true);
  });

  it('refuses a setting the format does not use, as a usage error, before rendering', async () => {
    const out = at('out', 'refused.gif');
    const result = await runKino(['render', at('spec.json'), '-o', out, '--format', 'gif', '--crf', '20']);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain(
      'error: --crf: gif has no CRF: crf applies to mp4 (libx264, 0–51) and transparent (VP9, 0–63)',
    );
    expect(existsSync(out)).toBe(false);
  });

  it('checks generate, edit and captions the same way before anything runs', async () => {
    const generate = await runKino([
      'generate',
      'a title card',
      '--format',
      'mov',
      '--audio-bitrate',
      '128k',
    ]);
    expect(generate.code).toBe(64);
    expect(generate.stderr).toContain('--audio-bitrate: mov carries uncompressed PCM audio');
    const edit = await runKino([
      'edit',
      at('spec.json'),
      'bigger',
      '--format',
      'gif',
      '--pixel-format',
      'yuv444p',
    ]);
    expect(edit.code).toBe(64);
    expect(edit.stderr).toContain('--pixel-format: the pixel format is chosen for mp4 only');
    const captions = await runKino([
      'captions',
      'clip.mp4',
      'clip.srt',
      '--preset',
      'slow',
      '--encoder',
      'h264_qsv',
    ]);
    expect(captions.code).toBe(64);
    expect(captions.stderr).toContain('--preset: preset is an x264 setting; h264_qsv has none here');
  });

  it('refuses a hardware encoder that cannot run here in one line naming it (no GPU on this machine)', async (context) => {
    // A machine where NVENC does run would render instead; this one has no NVIDIA driver.
    if ((await hardwareEncoderProblem({ codec: 'h264_nvenc' })) === undefined) context.skip();
    const out = at('out', 'nvenc.mp4');
    const result = await runKino([
      'render',
      at('spec.json'),
      '-o',
      out,
      '--quality',
      'draft',
      '--encoder',
      'h264_nvenc',
    ]);
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^kino: h264_nvenc (is not available|is listed by this ffmpeg but cannot encode here)/,
    );
    expect(lines[0]).toContain('leave the encoder out to use libx264');
    expect(existsSync(out)).toBe(false);
  });
});
