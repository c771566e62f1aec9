import { mkdir, mkdtemp, readFile, readdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderFrameToPng } from '../engine/render-frame.ts';
import { projectContext } from '../engine/project-context.ts';
import { resolveRenderInput } from '../project/resolve-input.ts';
import { StudioInputError } from './errors.ts';
import { EXAMPLES_DIR, copyExample, describeExample, listExamples } from './examples.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'kino-examples-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function refusal(promise: Promise<unknown>): Promise<StudioInputError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StudioInputError);
  return error as StudioInputError;
}

describe('listExamples', () => {
  it('lists every composition in examples/compositions, sorted, titled from its opening comment', () => {
    const examples = listExamples();
    expect(examples.map((example) => example.id)).toEqual([
      'brand-intro',
      'data-story',
      'interview-clip',
      'product-launch',
      'release-notes',
      'stats-recap',
      'travel-reel',
    ]);
    expect(examples.find((example) => example.id === 'stats-recap')).toMatchObject({ title: 'Stats recap' });
    expect(examples[0]).toMatchObject({ title: 'Brand intro' });
    expect(examples[0]!.description).toMatch(/^the Kino mark arrives on springs .* on plum\.$/);
    expect(listExamples()).toEqual(examples);
  });

  it('falls back to a title from the id', () => {
    expect(describeExample('my-clip', '// Just a clip without a title line\nexport default 1;\n')).toEqual({
      id: 'my-clip',
      title: 'My clip',
      description: 'Just a clip without a title line',
    });
    expect(describeExample('bare', 'export default 1;\n')).toEqual({
      id: 'bare',
      title: 'Bare',
      description: '',
    });
  });
});

describe('copyExample', () => {
  it('copies a project that renders on its own, outside the repository', async () => {
    const folder = path.join(dir, 'new', 'intro');
    const entry = await copyExample('brand-intro', folder);
    expect(entry).toBe(path.join(folder, 'compositions', 'brand-intro.ts'));
    expect(await readFile(entry, 'utf8')).toBe(
      await readFile(path.join(EXAMPLES_DIR, 'compositions', 'brand-intro.ts'), 'utf8'),
    );
    expect((await readdir(path.join(folder, 'assets'))).sort()).toEqual(
      (await readdir(path.join(EXAMPLES_DIR, 'assets'))).sort(),
    );
    const config = JSON.parse(await readFile(path.join(folder, 'kino.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(config).toMatchObject({
      assetsDir: 'assets',
      compositions: { 'brand-intro': 'compositions/brand-intro.ts' },
    });

    const resolved = await resolveRenderInput(entry, folder);
    expect(resolved.project.root).toBe(await realpath(folder));
    expect(resolved.project.assetsDir).toBe(path.join(await realpath(folder), 'assets'));
    const output = path.join(dir, 'frame.png');
    const frame = await renderFrameToPng({
      model: resolved.model,
      project: await projectContext(resolved.project),
      frame: 40,
      outputPath: output,
    });
    expect(frame.width).toBeGreaterThan(0);
    expect((await stat(output)).size).toBeGreaterThan(1000);
  });

  it('refuses an unknown example', async () => {
    expect((await refusal(copyExample('nope', path.join(dir, 'x')))).code).toBe('unknown_example');
    expect((await refusal(copyExample('../kino', path.join(dir, 'x')))).code).toBe('unknown_example');
  });

  it('refuses a folder that is a file', async () => {
    const file = path.join(dir, 'a-file');
    await writeFile(file, '');
    expect((await refusal(copyExample('data-story', file))).code).toBe('not_a_folder');
  });

  it('never overwrites: one existing target refuses the whole copy', async () => {
    const folder = path.join(dir, 'busy');
    await mkdir(path.join(folder, 'assets'), { recursive: true });
    await writeFile(path.join(folder, 'assets', 'logo.png'), 'mine');
    const error = await refusal(copyExample('data-story', folder));
    expect(error.code).toBe('target_exists');
    expect(error.message).toContain('logo.png');
    expect(await readFile(path.join(folder, 'assets', 'logo.png'), 'utf8')).toBe('mine');
    expect(await readdir(folder)).toEqual(['assets']);
  });

  it('copies into a folder that already holds other files', async () => {
    const folder = path.join(dir, 'shared');
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'notes.txt'), 'keep');
    await copyExample('data-story', folder);
    await expect(copyExample('data-story', folder)).rejects.toThrow(/already exists/);
    expect(await readFile(path.join(folder, 'notes.txt'), 'utf8')).toBe('keep');
  });
});
