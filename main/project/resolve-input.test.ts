import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempDirs, write } from './test-files.fixture.ts';
import { KinoInputError, resolveRenderInput } from './resolve-input.ts';

const tempDir = useTempDirs('kino-input-');

const SPEC = {
  kinoSpec: 1,
  aspect: 'square',
  scenes: [{ duration: '2s', elements: [{ type: 'text', id: 'title', text: 'Hello' }] }],
};

const COMPOSITION = [
  "import { scene, text, video } from 'kino';",
  "export default video({ aspect: 'square' }, [scene({ duration: '1.5s' }, [text('From code')])]);",
].join('\n');

const savedEnv = process.env.RENDER_PROJECT;
afterEach(() => {
  if (savedEnv === undefined) delete process.env.RENDER_PROJECT;
  else process.env.RENDER_PROJECT = savedEnv;
});

async function failure(input: string, cwd: string): Promise<KinoInputError> {
  const error = await resolveRenderInput(input, cwd).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(KinoInputError);
  expect((error as Error).message).not.toContain('\n');
  return error as KinoInputError;
}

describe('resolveRenderInput: spec files', () => {
  it('loads a loose spec, relative to cwd, with its own folder as a default project', async () => {
    const dir = await tempDir();
    await write(path.join(dir, 'clips/intro.json'), JSON.stringify(SPEC));
    const resolved = await resolveRenderInput('clips/intro.json', dir);
    expect(resolved.kind).toBe('spec');
    expect(resolved.sourcePath).toBe(path.join(dir, 'clips/intro.json'));
    expect(resolved.model.scenes[0]?.elements?.[0]).toMatchObject({ type: 'text', text: 'Hello' });
    expect(resolved.project.root).toBe(path.join(dir, 'clips'));
    expect(resolved.project.configPath).toBeUndefined();
  });

  it('gives a spec inside a project that project', async () => {
    const dir = await tempDir();
    await write(path.join(dir, 'kino.json'), JSON.stringify({ name: 'Shop', assetsDir: 'media' }));
    await write(path.join(dir, 'specs/sale.json'), JSON.stringify(SPEC));
    const resolved = await resolveRenderInput(path.join(dir, 'specs/sale.json'), '/');
    expect(resolved.project.name).toBe('Shop');
    expect(resolved.project.assetsDir).toBe(path.join(dir, 'media'));
  });

  it('names the file, line and column of a JSON syntax error', async () => {
    const dir = await tempDir();
    await write(path.join(dir, 'broken.json'), '{\n  "kinoSpec": 1,\n  "scenes": [}\n}\n');
    const error = await failure('broken.json', dir);
    expect(error.message).toMatch(new RegExp(`^${path.join(dir, 'broken.json')}:3:14: invalid JSON`));
  });

  it('lists schema errors as pointer: message', async () => {
    const dir = await tempDir();
    const spec = { ...SPEC, fps: 0, scenes: [{ duration: 'soon', elements: [{ type: 'txt' }] }] };
    await write(path.join(dir, 'bad.json'), JSON.stringify(spec));
    const error = await failure('bad.json', dir);
    expect(error.message).toMatch(/bad\.json: invalid spec \(\d+ errors: /);
    const pointers = error.issues.map((issue) => issue.pointer);
    expect(pointers).toEqual(
      expect.arrayContaining(['/fps', '/scenes/0/duration', '/scenes/0/elements/0/type']),
    );
    for (const issue of error.issues) expect(error.message).toContain(`${issue.pointer}: ${issue.message}`);
  });

  it('reports timeline problems the schema cannot see', async () => {
    const dir = await tempDir();
    const spec = {
      ...SPEC,
      scenes: [
        {
          duration: '2s',
          elements: [
            { type: 'text', text: 'Hi', animate: [{ preset: 'fadeIn', trigger: { after: 'nobody' } }] },
          ],
        },
      ],
    };
    await write(path.join(dir, 'waits.json'), JSON.stringify(spec));
    const error = await failure('waits.json', dir);
    expect(error.issues.map((issue) => issue.pointer)).toEqual(['/scenes/0/elements/0/animate/0/trigger']);
  });

  it('says when the file does not exist', async () => {
    const dir = await tempDir();
    const error = await failure('nope.json', dir);
    expect(error.message).toBe(`spec ${path.join(dir, 'nope.json')} not found: check the path`);
  });
});

describe('resolveRenderInput: compositions', () => {
  it('compiles and loads a .ts composition, in the project above it', async () => {
    const dir = await tempDir();
    await write(path.join(dir, 'kino.json'), JSON.stringify({ name: 'Code' }));
    await write(path.join(dir, 'src/intro.ts'), COMPOSITION);
    const resolved = await resolveRenderInput('src/intro.ts', dir);
    expect(resolved.kind).toBe('composition');
    expect(resolved.project.name).toBe('Code');
    expect(resolved.model.aspect).toBe('square');
    expect(resolved.model.scenes[0]?.elements?.[0]).toMatchObject({ type: 'text', text: 'From code' });
  });
});

describe('resolveRenderInput: keys', () => {
  async function keyedProject(): Promise<string> {
    const dir = await tempDir();
    await write(
      path.join(dir, 'kino.json'),
      JSON.stringify({ compositions: { sale: 'specs/sale.json', intro: 'intro.ts', ghost: 'gone.json' } }),
    );
    await write(path.join(dir, 'specs/sale.json'), JSON.stringify(SPEC));
    await write(path.join(dir, 'intro.ts'), COMPOSITION);
    process.env.RENDER_PROJECT = dir;
    return dir;
  }

  it('renders a spec or a composition registered in RENDER_PROJECT', async () => {
    const dir = await keyedProject();
    const sale = await resolveRenderInput('sale', '/');
    expect(sale).toMatchObject({ kind: 'key', key: 'sale', sourcePath: path.join(dir, 'specs/sale.json') });
    expect(sale.project.root).toBe(dir);
    const intro = await resolveRenderInput('intro', '/');
    expect(intro.model.scenes[0]?.elements?.[0]).toMatchObject({ text: 'From code' });
  });

  it('lists the known keys when the key is unknown', async () => {
    const dir = await keyedProject();
    const error = await failure('sales', '/');
    expect(error.message).toBe(
      `unknown composition key "sales" in project ${dir}: known keys are ghost, intro, sale`,
    );
  });

  it('names the missing file a key points to', async () => {
    const dir = await keyedProject();
    const error = await failure('ghost', '/');
    expect(error.message).toBe(
      `composition "ghost" points to ${path.join(dir, 'gone.json')} not found: check the path`,
    );
  });

  it('resolves the keys of the examples project by default', async () => {
    delete process.env.RENDER_PROJECT;
    const resolved = await resolveRenderInput('launch', '/');
    expect(resolved.project.name).toBe('Kino examples');
    expect(resolved.model.title).toBe('Kino — launch teaser');
  });

  it('refuses input that is neither a spec, a composition nor a key', async () => {
    const error = await failure('movie.mp4', '/');
    expect(error.message).toContain('expected a spec (.json), a composition (.ts) or a composition key');
  });
});
