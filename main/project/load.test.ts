import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempDirs, write } from './test-files.fixture.ts';
import { KinoInputError } from './input-error.ts';
import { defaultProjectDir, findProjectRoot, loadProject, projectForFile } from './load.ts';

const tempDir = useTempDirs('kino-project-');

const savedEnv = process.env.RENDER_PROJECT;
afterEach(() => {
  if (savedEnv === undefined) delete process.env.RENDER_PROJECT;
  else process.env.RENDER_PROJECT = savedEnv;
});

describe('loadProject', () => {
  it('loads kino.json into absolute paths, with the media policy defaults filled in', async () => {
    const dir = await tempDir();
    await write(
      path.join(dir, 'kino.json'),
      JSON.stringify({
        name: 'Demo',
        assetsDir: 'media',
        compositions: { intro: 'compositions/intro.ts', spec: 'specs/a.json' },
        fonts: [{ family: 'Brand', src: 'asset:fonts/Brand.ttf', weight: 700 }],
        media: { allowHosts: ['cdn.example.com'] },
      }),
    );
    const project = await loadProject(dir);
    expect(project.root).toBe(dir);
    expect(project.name).toBe('Demo');
    expect(project.configPath).toBe(path.join(dir, 'kino.json'));
    expect(project.assetsDir).toBe(path.join(dir, 'media'));
    expect([...project.compositions]).toEqual([
      ['intro', path.join(dir, 'compositions/intro.ts')],
      ['spec', path.join(dir, 'specs/a.json')],
    ]);
    expect(project.fonts).toEqual([{ family: 'Brand', src: 'asset:fonts/Brand.ttf', weight: 700 }]);
    expect(project.media).toEqual({
      allowHosts: ['cdn.example.com'],
      maxBytes: 50 * 1024 * 1024,
      timeoutMs: 15_000,
      maxRedirects: 3,
      maxImagePixels: 40_000_000,
    });
  });

  it('defaults the name to the folder and the assets to assets/', async () => {
    const dir = await tempDir();
    await write(path.join(dir, 'kino.json'), '{}');
    const project = await loadProject(dir);
    expect(project.name).toBe(path.basename(dir));
    expect(project.assetsDir).toBe(path.join(dir, 'assets'));
    expect(project.compositions.size).toBe(0);
    expect(project.media.allowHosts).toEqual([]);
  });

  it('compiles and loads kino.config.ts', async () => {
    const dir = await tempDir();
    await write(
      path.join(dir, 'kino.config.ts'),
      [
        "const keys: string[] = ['one', 'two'];",
        'export default {',
        "  name: 'From code',",
        '  compositions: Object.fromEntries(keys.map((key) => [key, `specs/${key}.json`])),',
        "  media: { allowHosts: ['*.example.com'], maxRedirects: 0 },",
        '};',
      ].join('\n'),
    );
    const project = await loadProject(dir);
    expect(project.name).toBe('From code');
    expect(project.compositions.get('two')).toBe(path.join(dir, 'specs/two.json'));
    expect(project.media.maxRedirects).toBe(0);
  });

  it('reports config errors at their JSON pointers, in one line naming the file', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'kino.json');
    await write(
      file,
      JSON.stringify({
        compositions: { Intro: 'intro.ts', ok: 'x.mp4' },
        media: { allowHosts: ['bad host!'] },
      }),
    );
    const error = await loadProject(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KinoInputError);
    const message = (error as Error).message;
    expect(message).toContain(`${file}: invalid project config (2 errors: `);
    expect(message).toContain('/compositions/Intro: invalid key');
    expect(message).toContain('/compositions/ok: expected a composition (.ts) or a spec (.json) file');
    expect(message).not.toContain('\n');

    // Host rules belong to the media policy, checked once the config's own shape is right.
    await write(file, JSON.stringify({ media: { allowHosts: ['bad host!'] } }));
    const hostError = (await loadProject(dir).catch((e: unknown) => e)) as KinoInputError;
    expect(hostError.issues.map((issue) => issue.pointer)).toEqual(['/media/allowHosts/0']);
    expect(hostError.message).toContain('expected a host like "cdn.example.com"');
  });

  it('reports a JSON syntax error at its line and column', async () => {
    const dir = await tempDir();
    await write(path.join(dir, 'kino.json'), '{\n  "name": "x"\n  "assetsDir": "a"\n}');
    await expect(loadProject(dir)).rejects.toThrow(`${path.join(dir, 'kino.json')}:3:3: invalid JSON`);
  });

  it('refuses a folder with two configs, without one, or that does not exist', async () => {
    const dir = await tempDir();
    await expect(loadProject(dir)).rejects.toThrow('is not a render project: add a kino.json');
    await write(path.join(dir, 'kino.json'), '{}');
    await write(path.join(dir, 'kino.config.ts'), 'export default {};');
    await expect(loadProject(dir)).rejects.toThrow('has both kino.json and kino.config.ts: keep only one');
    await expect(loadProject(path.join(dir, 'missing'))).rejects.toThrow('not found: check the path');
  });

  it('says what to do when kino.config.ts has no default export', async () => {
    const dir = await tempDir();
    await write(path.join(dir, 'kino.config.ts'), 'export const name = "x";');
    await expect(loadProject(dir)).rejects.toThrow('no default export');
  });
});

describe('finding the project of a file', () => {
  it('uses the nearest folder above with a config, else the file’s own folder with defaults', async () => {
    const dir = await tempDir();
    await write(path.join(dir, 'kino.json'), JSON.stringify({ name: 'Outer' }));
    await write(path.join(dir, 'deep/er/spec.json'), '{}');
    expect(await findProjectRoot(path.join(dir, 'deep/er'))).toBe(dir);
    expect((await projectForFile(path.join(dir, 'deep/er/spec.json'))).name).toBe('Outer');

    const loose = await tempDir();
    await write(path.join(loose, 'spec.json'), '{}');
    const project = await projectForFile(path.join(loose, 'spec.json'));
    expect(project.root).toBe(loose);
    expect(project.configPath).toBeUndefined();
    expect(project.assetsDir).toBe(path.join(loose, 'assets'));
  });
});

describe('defaultProjectDir', () => {
  it('is the repository’s examples project', async () => {
    delete process.env.RENDER_PROJECT;
    const dir = defaultProjectDir();
    expect(path.basename(dir)).toBe('examples');
    expect(existsSync(path.join(dir, 'kino.json'))).toBe(true);
    expect((await loadProject(dir)).name).toBe('Kino examples');
  });

  it('follows RENDER_PROJECT', async () => {
    const dir = await tempDir();
    process.env.RENDER_PROJECT = dir;
    expect(defaultProjectDir()).toBe(dir);
  });
});
