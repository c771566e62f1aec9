// The token cache: shiki runs once per text; later sessions draw from the cache, and the cache holds
// every text the drawing asks for (a miss would cost a cold start, or draw uncoloured code).
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeHighlighter, HighlightedCode } from '../../shared/canvas/types.ts';
import { drawFrame } from '../../shared/draw/frame.ts';
import { codeTextKey, codeTexts } from '../../shared/elements/code/code-texts.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import { registerBundledFonts } from '../fonts/register.ts';
import { loadSpecFile } from '../project/resolve-input.ts';
import { createDrawEnv, createSkiaSurface } from './canvas-host.ts';
import { prepareCodeHighlighter } from './code-tokens.ts';

let dir: string;
beforeAll(async () => {
  registerBundledFonts();
  dir = await mkdtemp(path.join(tmpdir(), 'kino-code-tokens-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const model: VideoModel = {
  kinoSpec: 1,
  fps: 30,
  aspect: 'landscape',
  scenes: [
    {
      duration: 2,
      elements: [
        {
          type: 'code',
          code: 'const a = 1;',
          language: 'ts',
          steps: [{ code: 'const a = 2;' }],
        },
        {
          type: 'group',
          children: [
            { type: 'markdown', markdown: '# Hi\n\n```python\nprint("hi")\n```', theme: 'github-light' },
          ],
        },
      ],
    },
  ],
} as VideoModel;

async function cacheFiles(): Promise<string[]> {
  const found: string[] = [];
  for (const shard of await readdir(path.join(dir), { withFileTypes: true }).catch(() => [])) {
    if (!shard.isDirectory()) continue;
    for (const file of await readdir(path.join(dir, shard.name)))
      found.push(path.join(dir, shard.name, file));
  }
  return found;
}

describe('prepareCodeHighlighter', () => {
  it('highlights each version and fenced block once, and serves the next session from the cache', async () => {
    const first = (await prepareCodeHighlighter(model, dir))!;
    const typescript = first.highlight('const a = 1;', 'typescript', 'github-dark')!;
    expect(typescript.lines[0]![0]).toMatchObject({ text: 'const' });
    expect(first.highlight('print("hi")', 'python', 'github-light')!.dark).toBe(false);
    const files = await cacheFiles();
    expect(files).toHaveLength(3); // two code versions, one fence

    // A changed entry shows up in the next session: it reads the cache instead of running shiki.
    for (const file of files) {
      const entry = JSON.parse(await readFile(file, 'utf8')) as HighlightedCode;
      if (entry.lines[0]?.[0]?.text !== 'const') continue;
      entry.lines[0][0].color = '#123456';
      await writeFile(file, JSON.stringify(entry));
    }
    const second = (await prepareCodeHighlighter(model, dir))!;
    expect(second.highlight('const a = 1;', 'ts', 'github-dark')!.lines[0]![0]!.color).toBe('#123456');
  });

  it('highlights again over a damaged entry', async () => {
    for (const file of await cacheFiles()) await writeFile(file, '{"lines": "no"');
    const again = (await prepareCodeHighlighter(model, dir))!;
    expect(again.highlight('const a = 2;', 'ts', 'github-dark')!.lines[0]![0]!.color).not.toBe('#123456');
  });

  it('is undefined for a video without code', async () => {
    const plain = { ...model, scenes: [{ duration: 1, elements: [] }] } as VideoModel;
    expect(await prepareCodeHighlighter(plain, dir)).toBeUndefined();
  });
});

describe('codeTexts', () => {
  it('lists every text the drawing of the code walkthrough asks for, in every frame', async () => {
    const examples = fileURLToPath(new URL('../../examples/', import.meta.url));
    const walkthrough = await loadSpecFile(path.join(examples, 'specs', 'code-walkthrough.json'));
    const listed = new Set(
      codeTexts(walkthrough).map((text) => codeTextKey(text.code, text.language, text.theme)),
    );
    const asked = new Set<string>();
    const recording: CodeHighlighter = {
      highlight(code, language, theme) {
        asked.add(codeTextKey(code, language, theme));
        return undefined;
      },
    };
    const video = resolveTimeline(walkthrough);
    const surface = createSkiaSurface(video.size.width / 4, video.size.height / 4);
    const env = createDrawEnv(
      video.size,
      video.fps,
      { image: () => undefined, videoFrame: () => undefined },
      undefined,
      recording,
    );
    for (let frame = 0; frame < video.durationFrames; frame += 6) drawFrame(surface.ctx, video, frame, env);
    expect(asked.size).toBeGreaterThan(2);
    expect([...asked].filter((key) => !listed.has(key))).toEqual([]);
  });
});
