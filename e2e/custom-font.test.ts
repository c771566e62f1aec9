// A project font declared in kino.json is registered from the project's assets and used by text.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pixelHash, runKino } from './cli-helpers.ts';

const require = createRequire(import.meta.url);
let project: string;

function specWithFont(font: string): object {
  return {
    kinoSpec: 1,
    aspect: 'square',
    scenes: [{ duration: 1, elements: [{ type: 'text', text: 'Brand 0123', font, weight: 700, size: 140 }] }],
  };
}

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'kino-font-project-'));
  mkdirSync(join(project, 'assets', 'fonts'), { recursive: true });
  const packageDir = dirname(require.resolve('@expo-google-fonts/jetbrains-mono/package.json'));
  copyFileSync(
    join(packageDir, '700Bold', 'JetBrainsMono_700Bold.ttf'),
    join(project, 'assets', 'fonts', 'Brand.ttf'),
  );
  writeFileSync(
    join(project, 'kino.json'),
    JSON.stringify({
      name: 'font test',
      fonts: [{ family: 'Brand', src: 'asset:fonts/Brand.ttf', weight: 700 }],
    }),
  );
  for (const font of ['Brand', 'mono', 'sans']) {
    writeFileSync(join(project, `${font}.json`), JSON.stringify(specWithFont(font)));
  }
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('project fonts', () => {
  it('draws text in the declared family, from the project assets', async () => {
    const hashes: Record<string, string> = {};
    for (const font of ['Brand', 'mono', 'sans']) {
      const out = join(project, `${font}.png`);
      const result = await runKino(['frame', join(project, `${font}.json`), '--frame', '0', '-o', out]);
      expect(result.code, result.stderr).toBe(0);
      hashes[font] = await pixelHash(out);
    }
    // "Brand" is the JetBrains Mono Bold file under another name: it must draw exactly like the
    // bundled mono at weight 700, and unlike the sans family (so it is not a fallback).
    expect(hashes.Brand).toBe(hashes.mono);
    expect(hashes.Brand).not.toBe(hashes.sans);
  });

  it('names a declared font file that is missing', async () => {
    rmSync(join(project, 'assets', 'fonts', 'Brand.ttf'));
    const result = await runKino([
      'frame',
      join(project, 'Brand.json'),
      '--frame',
      '0',
      '-o',
      join(project, 'x.png'),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('fonts/Brand.ttf');
  });
});
