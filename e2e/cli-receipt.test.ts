// `kino render` writes a receipt beside the video, as a user checks it: the output hash is the file's,
// the probe is ffprobe's, and every input (the spec or the composition and its modules, each media
// file, the font file) is listed with its sha256. --no-receipt writes none.
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeFile } from '../main/ffmpeg/probe.ts';
import type { RenderReceipt } from '../shared/protocol/receipt.ts';
import { REPO_ROOT, runKino } from './cli-helpers.ts';

const require = createRequire(import.meta.url);
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const digest = (file: string) => ({ bytes: readFileSync(file).byteLength, sha256: sha256(file) });

/** A square second with an image, a video background, a sound and text in a project font. */
const SPEC = {
  kinoSpec: 1,
  aspect: 'square',
  fps: 30,
  fonts: [{ family: 'Brand', src: 'asset:fonts/Brand.ttf', weight: 700 }],
  audio: [{ src: 'asset:click.wav' }],
  scenes: [
    {
      duration: '1s',
      background: { type: 'video', src: 'asset:clip-waves.mp4', fit: 'cover' },
      elements: [
        { type: 'image', src: 'asset:logo.png', width: '30%', y: 0.3 },
        { type: 'text', text: 'Receipt', font: 'Brand', size: 90, y: 0.7 },
      ],
    },
  ],
};

const COMPOSITION = `import { scene, text, video } from 'kino';
import { accent } from './palette.ts';

export default video({ fps: 30, aspect: 'square', background: '#101018' }, [
  scene({ duration: '1s' }, [text('Palette', { size: 90, color: accent })]),
]);
`;

let project: string;
const at = (...parts: string[]) => join(project, ...parts);

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'kino-cli-receipt-'));
  mkdirSync(at('assets', 'fonts'), { recursive: true });
  for (const name of ['logo.png', 'clip-waves.mp4', 'click.wav']) {
    copyFileSync(join(REPO_ROOT, 'examples', 'assets', name), at('assets', name));
  }
  const fonts = dirname(require.resolve('@expo-google-fonts/jetbrains-mono/package.json'));
  copyFileSync(join(fonts, '700Bold', 'JetBrainsMono_700Bold.ttf'), at('assets', 'fonts', 'Brand.ttf'));
  writeFileSync(at('kino.json'), JSON.stringify({ name: 'receipt test', assetsDir: 'assets' }));
  writeFileSync(at('spec.json'), JSON.stringify(SPEC, null, 2));
  writeFileSync(at('film.ts'), COMPOSITION);
  writeFileSync(at('palette.ts'), "export const accent = '#ffb020';\n");
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** The first 6 frames of `input` at draft quality to `out`, plus `args`. */
const renderDraft = (input: string, out: string, ...args: string[]) =>
  runKino(['render', input, '-o', out, '--frames', '6', '--quality', 'draft', ...args]);

describe('kino render: the receipt', () => {
  it('writes <output>.render.json: output hash and probe of the file, every input hashed', async () => {
    const out = at('out', 'launch.mp4');
    const result = await renderDraft(at('spec.json'), out);
    expect(result.code, result.stderr).toBe(0);
    const receiptPath = at('out', 'launch.render.json');
    expect(result.stdout).toContain(`  receipt ${receiptPath}\n`);
    // Written whole: nothing staged is left beside it.
    expect(readdirSync(at('out')).sort()).toEqual(['launch.mp4', 'launch.render.json']);

    const receipt = JSON.parse(readFileSync(receiptPath, 'utf8')) as RenderReceipt;
    expect(receipt).toMatchObject({
      receipt: 'kino.render',
      version: 2,
      maker: 'cli',
      source: { kind: 'spec', path: at('spec.json') },
      options: { format: 'mp4', quality: 'draft', aspect: 'square', frames: 6, framesTotal: 30, fps: 30 },
      output: { path: out, bytes: readFileSync(out).byteLength, sha256: sha256(out) },
      verification: { ok: true, mismatches: [] },
    });
    expect(receipt.inputs.request).toMatchObject({ input: at('spec.json'), frames: 6, quality: 'draft' });
    // The probe is ffprobe's view of the file as it is now.
    expect(receipt.output.probe).toEqual(JSON.parse(JSON.stringify(await probeFile(out))));
    expect(receipt.options).toMatchObject({
      width: receipt.output.probe.video!.width,
      height: receipt.output.probe.video!.height,
    });
    expect(receipt.inputs.files).toEqual([
      { role: 'spec', path: at('spec.json'), ...digest(at('spec.json')) },
      {
        role: 'image',
        path: at('assets', 'logo.png'),
        source: 'asset:logo.png',
        ...digest(at('assets', 'logo.png')),
      },
      {
        role: 'video',
        path: at('assets', 'clip-waves.mp4'),
        source: 'asset:clip-waves.mp4',
        ...digest(at('assets', 'clip-waves.mp4')),
      },
      {
        role: 'audio',
        path: at('assets', 'click.wav'),
        source: 'asset:click.wav',
        ...digest(at('assets', 'click.wav')),
      },
      {
        role: 'font',
        path: at('assets', 'fonts', 'Brand.ttf'),
        source: 'asset:fonts/Brand.ttf',
        family: 'Brand',
        ...digest(at('assets', 'fonts', 'Brand.ttf')),
      },
    ]);
    expect(Object.keys(receipt.toolchain).sort()).toEqual([
      'canvas',
      'esbuild',
      'ffmpeg',
      'ffprobe',
      'kino',
      'node',
    ]);
    expect(receipt.timings).toEqual({
      renderMilliseconds: expect.any(Number),
      verifyMilliseconds: expect.any(Number),
      hashMilliseconds: expect.any(Number),
    });
    // Workspace-only parts are left out.
    expect(receipt).not.toHaveProperty('findings');
    expect(receipt).not.toHaveProperty('qualityGate');
  });

  it('lists a composition with the local modules it imports; --json carries the receipt and its path', async () => {
    const out = at('film.mp4');
    const result = await renderDraft(at('film.ts'), out, '--json');
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as { receiptPath: string; receipt: RenderReceipt };
    expect(json.receiptPath).toBe(at('film.render.json'));
    expect(JSON.parse(readFileSync(json.receiptPath, 'utf8'))).toEqual(json.receipt);
    expect(json.receipt.source).toEqual({ kind: 'composition', path: at('film.ts') });
    // Kino's own sources are not listed: its version is in the toolchain.
    expect(json.receipt.inputs.files).toEqual([
      { role: 'composition', path: at('film.ts'), ...digest(at('film.ts')) },
      { role: 'module', path: at('palette.ts'), ...digest(at('palette.ts')) },
    ]);
    expect(json.receipt.output.sha256).toBe(sha256(out));
  });

  it('--no-receipt writes none (and --json says so)', async () => {
    const out = at('bare', 'bare.mp4');
    const human = await renderDraft(at('spec.json'), out, '--no-receipt');
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).not.toMatch(/^ {2}receipt /m);
    expect(existsSync(at('bare', 'bare.render.json'))).toBe(false);

    const json = await renderDraft(at('spec.json'), out, '--no-receipt', '--json');
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ receiptPath: null, receipt: null });
    expect(readdirSync(at('bare'))).toEqual(['bare.mp4']);
  });
});
