import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { candidateName, specSlug, writeNewSpec } from './spec-file-names.ts';

const made: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'kino-spec-names-'));
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('specSlug', () => {
  it('keeps letters and digits, lowercased, accents dropped, the rest as single dashes', () => {
    expect(specSlug('Café opening: 3 scenes!')).toBe('cafe-opening-3-scenes');
    expect(specSlug('  --Hello__World--  ')).toBe('hello-world');
  });

  it('names a title of nothing usable "generated"', () => {
    expect(specSlug('')).toBe('generated');
    expect(specSlug('🎬 ✨')).toBe('generated');
    expect(specSlug('../../etc/passwd')).toBe('etc-passwd');
  });

  it('cuts a long title at a word, at most 40 characters', () => {
    const slug = specSlug('A product launch video for the new espresso machine with three scenes');
    expect(slug).toBe('a-product-launch-video-for-the-new');
    expect(slug.length).toBeLessThanOrEqual(40);
    expect(specSlug('x'.repeat(60))).toBe('x'.repeat(40));
  });
});

describe('writeNewSpec', () => {
  it('writes specs/<slug>.json, then -2, -3 beside it: never over a file that is there', async () => {
    const root = tempDir();
    const first = await writeNewSpec(root, 'intro', '{"a":1}\n');
    const second = await writeNewSpec(root, 'intro', '{"a":2}\n');
    writeFileSync(path.join(root, 'specs', candidateName('intro', 3)), 'mine');
    const fourth = await writeNewSpec(root, 'intro', '{"a":4}\n');
    expect([first, second, fourth].map((file) => path.relative(root, file))).toEqual([
      path.join('specs', 'intro.json'),
      path.join('specs', 'intro-2.json'),
      path.join('specs', 'intro-4.json'),
    ]);
    expect(readFileSync(first, 'utf8')).toBe('{"a":1}\n');
    expect(readFileSync(path.join(root, 'specs', 'intro-3.json'), 'utf8')).toBe('mine');
  });

  it('refuses a specs folder that is a link out of the project', async () => {
    const root = tempDir();
    const elsewhere = tempDir();
    mkdirSync(path.join(elsewhere, 'target'));
    symlinkSync(path.join(elsewhere, 'target'), path.join(root, 'specs'));
    await expect(writeNewSpec(root, 'intro', '{}')).rejects.toThrow(/leads outside the project/);
  });
});
