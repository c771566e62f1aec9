import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Toolchain } from '../../shared/protocol/receipt.ts';
import { hashFile } from '../fs/hash-file.ts';
import { FileHashes, buildRenderReceipt, receiptPathFor, writeReceipt } from './receipt.ts';
import type { RenderResult } from './render-video.ts';

const TOOLCHAIN: Toolchain = {
  kino: '0.1.0',
  node: 'v24.0.0',
  ffmpeg: '7.1',
  ffprobe: '7.1',
  canvas: '@napi-rs/canvas 0.1.0 (Skia)',
  esbuild: '0.25.0',
};

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

let dir: string;
const file = (name: string) => path.join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'kino-receipt-'));
  writeFileSync(file('video.json'), '{"kinoSpec":1}');
  writeFileSync(file('film.ts'), 'export default 1;');
  writeFileSync(file('helper.ts'), 'export const x = 2;');
  writeFileSync(file('logo.png'), Buffer.alloc(70_000, 7)); // more than one read chunk
  writeFileSync(file('music.m4a'), 'not really audio');
  writeFileSync(file('Brand.ttf'), 'not really a font');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function result(overrides: Partial<RenderResult> = {}): RenderResult {
  const checks = [
    { name: 'video codec', expected: 'h264', actual: 'h264', ok: true },
    { name: 'frames', expected: '6', actual: '6', ok: true },
  ];
  return {
    output: {
      path: file('out.mp4'),
      bytes: 1234,
      sha256: 'b'.repeat(64),
      probe: {
        formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
        durationSeconds: 0.2,
        sizeBytes: 1234,
        video: {
          codec: 'h264',
          width: 540,
          height: 960,
          fps: 30,
          frames: 6,
          pixFmt: 'yuv420p',
          hasAlpha: false,
        },
        audio: undefined,
      },
      checks,
      ok: true,
    },
    poster: undefined,
    width: 540,
    height: 960,
    fps: 30,
    frames: 6,
    framesTotal: 90,
    aspect: 'reels',
    durationSeconds: 0.2,
    inputs: [
      { role: 'image', source: 'asset:logo.png', path: file('logo.png') },
      // The same file under another source string: listed twice, hashed once.
      { role: 'image', source: 'logo.png', path: file('logo.png') },
      { role: 'audio', source: 'asset:music.m4a', path: file('music.m4a') },
      { role: 'font', family: 'Brand', source: 'asset:Brand.ttf', path: file('Brand.ttf') },
    ],
    drawing: { workers: 0, reason: '1 thread asked for', fromFrame: undefined },
    timings: { prepareMs: 5, drawMs: 50, encodeWaitMs: 1, finishMs: 10, verifyMs: 20.4, totalMs: 120.6 },
    ...overrides,
  };
}

describe('receiptPathFor', () => {
  it('puts <name>.render.json beside the video, as the workspace names it', () => {
    expect(receiptPathFor('/out/launch.mp4')).toBe('/out/launch.render.json');
    expect(receiptPathFor('/out/my.clip.webm')).toBe('/out/my.clip.render.json');
    expect(receiptPathFor('out/launch')).toBe('out/launch.render.json');
  });
});

describe('hashFile and FileHashes', () => {
  it('streams a file through SHA-256 and counts its bytes', async () => {
    expect(await hashFile(file('logo.png'))).toEqual({ bytes: 70_000, sha256: sha256(file('logo.png')) });
  });

  it('hashes each distinct file once', async () => {
    const hashes = new FileHashes();
    const first = hashes.digest(file('music.m4a'));
    expect(hashes.digest(file('music.m4a'))).toBe(first);
    expect(await first).toEqual({ bytes: 16, sha256: sha256(file('music.m4a')) });
  });
});

describe('buildRenderReceipt', () => {
  it('lists the spec, each media file and font with bytes and sha256, and the resolved options', async () => {
    const receipt = await buildRenderReceipt({
      maker: 'cli',
      subject: { kind: 'spec', path: file('video.json') },
      request: { input: 'video.json', format: 'mp4', quality: 'draft', frames: 6 },
      options: { format: 'mp4', quality: 'draft' },
      result: result(),
      toolchain: TOOLCHAIN,
    });
    expect(receipt).toMatchObject({
      receipt: 'kino.render',
      version: 2,
      maker: 'cli',
      source: { kind: 'spec', path: file('video.json') },
      options: {
        format: 'mp4',
        quality: 'draft',
        aspect: 'reels',
        frames: 6,
        framesTotal: 90,
        width: 540,
        height: 960,
        fps: 30,
        durationSeconds: 0.2,
      },
      toolchain: TOOLCHAIN,
      output: { path: file('out.mp4'), bytes: 1234, sha256: 'b'.repeat(64) },
      verification: { ok: true, mismatches: [] },
      timings: { renderMilliseconds: 100, verifyMilliseconds: 20 },
    });
    expect(Date.parse(receipt.createdAt)).not.toBeNaN();
    expect(receipt.inputs.request).toEqual({
      input: 'video.json',
      format: 'mp4',
      quality: 'draft',
      frames: 6,
    });
    const digest = (name: string) => ({
      bytes: readFileSync(file(name)).byteLength,
      sha256: sha256(file(name)),
    });
    expect(receipt.inputs.files).toEqual([
      { role: 'spec', path: file('video.json'), ...digest('video.json') },
      { role: 'image', path: file('logo.png'), source: 'asset:logo.png', ...digest('logo.png') },
      { role: 'image', path: file('logo.png'), source: 'logo.png', ...digest('logo.png') },
      { role: 'audio', path: file('music.m4a'), source: 'asset:music.m4a', ...digest('music.m4a') },
      {
        role: 'font',
        path: file('Brand.ttf'),
        source: 'asset:Brand.ttf',
        family: 'Brand',
        ...digest('Brand.ttf'),
      },
    ]);
    // Workspace-only parts are absent, not empty.
    expect(receipt).not.toHaveProperty('findings');
    expect(receipt).not.toHaveProperty('qualityGate');
    expect(receipt.source).not.toHaveProperty('sourceRevision');
    expect(receipt.timings).not.toHaveProperty('reviewMilliseconds');
    expect(receipt.timings.hashMilliseconds).toEqual(expect.any(Number));
  });

  it('lists a composition and its local modules, and keeps the workspace parts', async () => {
    const receipt = await buildRenderReceipt({
      maker: 'workspace',
      subject: { kind: 'composition', path: file('film.ts'), modules: [file('film.ts'), file('helper.ts')] },
      request: { frameCount: 6 },
      options: { format: 'mp4', quality: 'standard', poster: 0.1 },
      result: result({ inputs: [], poster: { path: file('out.poster.png'), bytes: 99, frame: 3 } }),
      toolchain: TOOLCHAIN,
      workspace: {
        sourceRevision: 'c51f731b0700aaaa',
        findings: [],
        qualityGate: { strict: false, passed: true, failing: [] },
        reviewMilliseconds: 41.7,
      },
    });
    expect(receipt.inputs.files.map((f) => [f.role, f.path])).toEqual([
      ['composition', file('film.ts')],
      ['module', file('helper.ts')],
    ]);
    expect(receipt.source).toEqual({
      kind: 'composition',
      path: file('film.ts'),
      sourceRevision: 'c51f731b0700aaaa',
    });
    expect(receipt.findings).toEqual([]);
    expect(receipt.qualityGate).toEqual({ strict: false, passed: true, failing: [] });
    expect(receipt.timings.reviewMilliseconds).toBe(42);
    expect(receipt.poster).toEqual({ path: file('out.poster.png'), bytes: 99, time: '0.1s', frame: 3 });
  });

  it('hashes a spec sent as data, names files as displayPath says and hides the others (the API)', async () => {
    const specText = JSON.stringify({ kinoSpec: 1, scenes: [] });
    const receipt = await buildRenderReceipt({
      maker: 'api',
      subject: { kind: 'spec', specText },
      request: { input: { kind: 'spec' }, options: { format: 'mp4', quality: 'draft' } },
      options: { format: 'mp4', quality: 'draft', poster: '0.1s' },
      result: result({ poster: { path: file('poster.png'), bytes: 99, frame: 3 } }),
      toolchain: TOOLCHAIN,
      displayPath: (f) => (f.endsWith('.png') ? `assets/${path.basename(f)}` : undefined),
      outputName: 'rnd_x.mp4',
      posterName: 'rnd_x.poster.png',
    });
    expect(receipt.source).toEqual({ kind: 'spec' });
    expect(receipt.inputs.files[0]).toEqual({
      role: 'spec',
      source: 'request',
      bytes: Buffer.byteLength(specText),
      sha256: createHash('sha256').update(specText).digest('hex'),
    });
    expect(receipt.inputs.files[1]).toMatchObject({ role: 'image', path: 'assets/logo.png' });
    expect(receipt.inputs.files[3]).not.toHaveProperty('path');
    expect(receipt.inputs.files[3]).toMatchObject({ role: 'audio', source: 'asset:music.m4a' });
    expect(JSON.stringify(receipt)).not.toContain(dir);
    expect(receipt.output.path).toBe('rnd_x.mp4');
    expect(receipt.poster).toMatchObject({ path: 'rnd_x.poster.png', time: '0.1s', frame: 3 });
  });

  it('names the subject as displayPath says, and leaves out a path it hides', async () => {
    const named = await buildRenderReceipt({
      maker: 'api',
      subject: { kind: 'spec', path: file('video.json'), key: 'video' },
      request: {},
      options: { format: 'mp4', quality: 'draft' },
      result: result({ inputs: [] }),
      toolchain: TOOLCHAIN,
      displayPath: (f) => path.relative(dir, f),
    });
    expect(named.source).toEqual({ kind: 'spec', path: 'video.json', key: 'video' });
    expect(named.inputs.files[0]).toMatchObject({ role: 'spec', path: 'video.json' });
    const hidden = await buildRenderReceipt({
      maker: 'api',
      subject: { kind: 'spec', path: file('video.json'), key: 'video' },
      request: {},
      options: { format: 'mp4', quality: 'draft' },
      result: result({ inputs: [] }),
      toolchain: TOOLCHAIN,
      displayPath: () => undefined,
    });
    expect(hidden.source).toEqual({ kind: 'spec', key: 'video' });
    expect(hidden.inputs.files[0]).not.toHaveProperty('path');
  });

  it("records the encoder settings used: the quality level's, with the chosen ones over them", async () => {
    const silent = result({ inputs: [] });
    const sounding = result({ inputs: [] });
    sounding.output.probe.audio = { codec: 'aac', channels: 2, sampleRate: 48000 };
    const made = (
      encoder?: { crf?: number; pixelFormat?: 'yuv444p'; audioBitrate?: string },
      rendered = sounding,
    ) =>
      buildRenderReceipt({
        maker: 'cli',
        subject: { kind: 'spec', path: file('video.json') },
        request: {},
        options: { format: 'mp4', quality: 'draft', encoder },
        result: rendered,
        toolchain: TOOLCHAIN,
      });
    expect((await made()).options.encoder).toEqual({
      codec: 'libx264',
      preset: 'superfast',
      crf: 24,
      pixelFormat: 'yuv420p',
      audioCodec: 'aac',
      audioBitrate: '192k',
    });
    // A file without sound names no audio settings.
    expect((await made(undefined, silent)).options.encoder).toEqual({
      codec: 'libx264',
      preset: 'superfast',
      crf: 24,
      pixelFormat: 'yuv420p',
    });
    expect((await made({ crf: 30, pixelFormat: 'yuv444p', audioBitrate: '96k' })).options.encoder).toEqual({
      codec: 'libx264',
      preset: 'superfast',
      crf: 30,
      pixelFormat: 'yuv444p',
      audioCodec: 'aac',
      audioBitrate: '96k',
    });
  });

  it('lists the failed checks as mismatches', async () => {
    const failed = result();
    failed.output.checks[1] = { name: 'frames', expected: '6', actual: '5', ok: false };
    failed.output.ok = false;
    const receipt = await buildRenderReceipt({
      maker: 'cli',
      subject: { kind: 'spec', path: file('video.json') },
      request: {},
      options: { format: 'mp4', quality: 'draft' },
      result: failed,
      toolchain: TOOLCHAIN,
    });
    expect(receipt.verification.ok).toBe(false);
    expect(receipt.verification.mismatches).toEqual([failed.output.checks[1]]);
  });

  it('writes the receipt as indented JSON', async () => {
    const receipt = await buildRenderReceipt({
      maker: 'cli',
      subject: { kind: 'spec', path: file('video.json') },
      request: {},
      options: { format: 'mp4', quality: 'draft' },
      result: result({ inputs: [] }),
      toolchain: TOOLCHAIN,
    });
    const target = file('out.render.json');
    await writeReceipt(target, receipt);
    const text = readFileSync(target, 'utf8');
    expect(JSON.parse(text)).toEqual(receipt);
    expect(text.endsWith('}\n')).toBe(true);
  });
});
