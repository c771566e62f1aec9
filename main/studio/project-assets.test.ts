import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listProjectAssets } from './project-assets.ts';

describe('the project assets a media variable offers', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'kino-assets-'));
    for (const name of [
      'photo.jpg',
      'clips/intro.mp4',
      'music.m4a',
      'data.csv',
      '.private/secret.png',
      'logo.svg',
    ]) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), '');
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists images and videos as asset: sources, and nothing private or of another kind', async () => {
    expect(await listProjectAssets(dir)).toEqual([
      { src: 'asset:clips/intro.mp4', kind: 'clip' },
      { src: 'asset:logo.svg', kind: 'image' },
      { src: 'asset:photo.jpg', kind: 'image' },
    ]);
  });

  it('gives nothing for a project without an assets folder', async () => {
    expect(await listProjectAssets(path.join(dir, 'missing'))).toEqual([]);
  });
});
