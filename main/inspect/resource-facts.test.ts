import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VideoModel } from '../../shared/spec/model.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import { loadComposition } from '../composition/load.ts';
import { projectContext } from '../engine/project-context.ts';
import type { RenderProjectContext } from '../engine/project-context.ts';
import { DEFAULT_MEDIA_POLICY } from '../media/policy.ts';
import { remoteCachePath } from '../media/source.ts';
import { projectForFile } from '../project/load.ts';
import { probeFile } from '../ffmpeg/probe.ts';
import { collectResourceFacts } from './resource-facts.ts';
import type { AssetFact, ResourceFacts } from '../../shared/protocol/inspect.ts';

const travelReel = fileURLToPath(new URL('../../examples/compositions/travel-reel.ts', import.meta.url));
const examplesAssets = fileURLToPath(new URL('../../examples/assets', import.meta.url));

function sha256Of(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function asset(facts: ResourceFacts, src: string): AssetFact {
  const found = facts.assets.find((a) => a.src === src);
  if (!found) throw new Error(`no asset ${src} in ${facts.assets.map((a) => a.src).join(', ')}`);
  return found;
}

describe('collectResourceFacts on the travel reel', () => {
  let facts: ResourceFacts;
  beforeAll(async () => {
    const model = await loadComposition(travelReel);
    const project = await projectContext(await projectForFile(travelReel));
    facts = await collectResourceFacts(model, resolveTimeline(model), project);
  });

  it('lists every media source with its kind, file, size and hash', () => {
    expect(facts.assets.map((a) => [a.src, a.kind]).sort()).toEqual([
      ['asset:clip-waves.mp4', 'video'],
      ['asset:music-loop.m4a', 'audio'],
      ['asset:photo-city.jpg', 'image'],
      ['asset:photo-mountains.jpg', 'image'],
      ['asset:whoosh.wav', 'audio'],
    ]);
    for (const fact of facts.assets) {
      const path = join(examplesAssets, fact.src.slice('asset:'.length));
      expect(fact.path).toBe(path);
      expect(fact.bytes).toBe(statSync(path).size);
      expect(fact.sha256).toBe(sha256Of(path));
      expect(fact.missing).toBeUndefined();
    }
  });

  it('gives picture sizes and lengths as ffprobe reads them', async () => {
    for (const src of ['asset:photo-city.jpg', 'asset:photo-mountains.jpg', 'asset:clip-waves.mp4']) {
      const probe = await probeFile(join(examplesAssets, src.slice('asset:'.length)));
      expect(asset(facts, src)).toMatchObject({ width: probe.video!.width, height: probe.video!.height });
    }
    expect(asset(facts, 'asset:photo-city.jpg')).toMatchObject({ width: 1600, height: 1067 });
    for (const src of ['asset:music-loop.m4a', 'asset:whoosh.wav', 'asset:clip-waves.mp4']) {
      const probe = await probeFile(join(examplesAssets, src.slice('asset:'.length)));
      expect(asset(facts, src).durationSeconds).toBeCloseTo(probe.durationSeconds, 3);
    }
  });

  it('says where each source is used, in video frames', () => {
    expect(asset(facts, 'asset:photo-mountains.jpg').uses).toEqual([
      { key: 's0/e0', isElement: true, kind: 'image', startFrame: 0, endFrame: 108 },
    ]);
    expect(asset(facts, 'asset:clip-waves.mp4').uses).toEqual([
      { key: 's1/e0', isElement: true, kind: 'video', startFrame: 84, endFrame: 192 },
    ]);
    // The whoosh starts with scene 3 (5.7 s) and lasts as long as its 0.6 s file.
    expect(asset(facts, 'asset:whoosh.wav').uses).toEqual([
      { key: 'audio/1', isElement: false, kind: 'audio', startFrame: 171, endFrame: 189 },
    ]);
  });

  it('names the bundled face each text uses, with its file and hash', () => {
    const faces = facts.fonts.map((f) => [f.family, f.origin, f.weight, f.italic]);
    expect(faces).toEqual([
      ['sans', 'bundled', 600, false],
      ['display', 'bundled', 400, false],
      ['serif', 'bundled', 400, true],
      ['mono', 'bundled', 500, false],
    ]);
    for (const font of facts.fonts) {
      expect(font.sha256).toBe(sha256Of(font.path!));
      expect(font.bytes).toBe(statSync(font.path!).size);
    }
    expect(facts.fonts[0]!.usedBy.map((u) => u.key)).toEqual(['s0/e2/e0', 's2/e1/e0']);
  });
});

describe('collectResourceFacts on sources that cannot be had', () => {
  let base: string;
  let context: RenderProjectContext;
  let server: Server;
  let requests = 0;
  let remote: string;

  const model = (): VideoModel => ({
    kinoSpec: 1,
    aspect: 'square',
    scenes: [
      {
        duration: 1,
        elements: [
          { type: 'image', src: 'asset:pic.png' },
          { type: 'image', src: remote },
          { type: 'image', src: 'https://elsewhere.example.org/b.png' },
          { type: 'image', src: 'asset:gone.png' },
          { type: 'text', text: 'Declared', font: 'Brand' },
          { type: 'text', text: 'Unknown', font: 'Nope' },
        ],
      },
    ],
  });

  async function writePng(path: string, size: number): Promise<void> {
    await writeFile(path, createCanvas(size, size).toBuffer('image/png'));
  }

  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'kino-resource-facts-')));
    await mkdir(join(base, 'assets'), { recursive: true });
    await writePng(join(base, 'assets', 'pic.png'), 8);
    server = createServer((_req, res) => {
      requests++;
      res.end('never asked for');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    remote = `http://127.0.0.1:${(server.address() as AddressInfo).port}/a.png`;
    context = {
      root: base,
      assetsDir: join(base, 'assets'),
      fonts: [{ family: 'Brand', src: 'asset:fonts/Brand.ttf' }],
      media: {
        root: base,
        assetsDir: join(base, 'assets'),
        policy: { ...DEFAULT_MEDIA_POLICY, allowHosts: ['127.0.0.1'] },
        cacheDir: join(base, 'cache'),
      },
    };
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(base, { recursive: true, force: true });
  });

  const collect = () => {
    const spec = model();
    return collectResourceFacts(spec, resolveTimeline(spec), context);
  };

  it('reports remote sources without downloading them, and a cached copy once there', async () => {
    let facts = await collect();
    expect(asset(facts, remote)).toMatchObject({ remote: 'not-downloaded' });
    expect(asset(facts, remote).path).toBeUndefined();
    expect(requests).toBe(0);

    const cached = remoteCachePath(remote, context.media.cacheDir);
    await mkdir(context.media.cacheDir, { recursive: true });
    await writePng(cached, 4);
    facts = await collect();
    expect(asset(facts, remote)).toMatchObject({
      remote: 'cached',
      path: cached,
      sha256: sha256Of(cached),
      width: 4,
      height: 4,
    });
    expect(requests).toBe(0);
  });

  it('says why a source cannot be had', async () => {
    const facts = await collect();
    expect(asset(facts, 'https://elsewhere.example.org/b.png')).toMatchObject({
      missingCode: 'media_host_not_allowed',
    });
    const gone = asset(facts, 'asset:gone.png');
    expect(gone.missingCode).toBe('missing_asset');
    expect(gone.missing).toContain(join(base, 'assets', 'gone.png'));
    expect(gone.uses).toEqual([
      { key: 's0/e3', isElement: true, kind: 'image', startFrame: 0, endFrame: 30 },
    ]);
  });

  it('tells declared, missing and undeclared font families apart', async () => {
    const facts = await collect();
    const brand = facts.fonts.find((f) => f.family === 'Brand')!;
    expect(brand).toMatchObject({
      origin: 'project',
      src: 'asset:fonts/Brand.ttf',
      missingCode: 'missing_asset',
    });
    expect(brand.usedBy.map((u) => u.key)).toEqual(['s0/e4']);
    const nope = facts.fonts.find((f) => f.family === 'Nope')!;
    expect(nope).toMatchObject({ origin: 'undeclared', usedBy: [expect.objectContaining({ key: 's0/e5' })] });
  });

  it('hashes a file again once it changes', async () => {
    const path = join(base, 'assets', 'pic.png');
    const before = asset(await collect(), 'asset:pic.png');
    expect(before).toMatchObject({ sha256: sha256Of(path), width: 8 });
    await writePng(path, 16);
    const after = asset(await collect(), 'asset:pic.png');
    expect(after).toMatchObject({ sha256: sha256Of(path), bytes: statSync(path).size, width: 16 });
    expect(after.sha256).not.toBe(before.sha256);
  });
});
