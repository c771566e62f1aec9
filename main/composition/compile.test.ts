import { mkdtemp, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompositionCompileError, KINO_BUILDER_ENTRY, compileComposition } from './compile.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
let dir: string;
let outDir: string;

beforeAll(async () => {
  // Inside the repo (in the git-ignored .kino/) so the composition can import the repo's npm packages.
  await mkdir(path.join(repoRoot, '.kino'), { recursive: true });
  dir = await mkdtemp(path.join(repoRoot, '.kino', 'compile-test-'));
  outDir = await mkdtemp(path.join(tmpdir(), 'kino-compile-out-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(outDir, { recursive: true, force: true });
});

async function write(name: string, source: string): Promise<string> {
  const file = path.join(dir, name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, source);
  return file;
}

describe('compileComposition', () => {
  it('bundles the local import graph and lists it, with the npm packages it uses', async () => {
    await write(
      'lib/palette.ts',
      "import data from './palette.json';\nexport const ink: string = data.ink;\n",
    );
    await write('lib/palette.json', '{ "ink": "#f8fafc" }\n');
    const entry = await write(
      'graph.ts',
      [
        "import { z } from 'zod';",
        "import { readFileSync } from 'node:fs';",
        "import { scene, text, video } from 'kino';",
        "import { ink } from './lib/palette.ts';",
        'const color = z.string().parse(ink);',
        'export const read = typeof readFileSync;',
        "export default video({}, [scene({ duration: 1 }, [text('Hi', { color })])]);",
      ].join('\n'),
    );
    const compiled = await compileComposition(entry, { outDir });
    expect(path.dirname(compiled.bundlePath)).toBe(outDir);
    expect(compiled.inputs).toContain(entry);
    expect(compiled.inputs).toContain(path.join(dir, 'lib/palette.ts'));
    expect(compiled.inputs).toContain(path.join(dir, 'lib/palette.json'));
    expect(compiled.inputs).toContain(KINO_BUILDER_ENTRY);
    expect(compiled.inputs.every((file) => path.isAbsolute(file) && !file.includes('node_modules'))).toBe(
      true,
    );
    expect(compiled.inputs).toEqual([...compiled.inputs].sort());

    // The builder's own packages (zod for schemas, culori for colours, webvtt-parser for captions,
    // shiki's language and theme lists and minisearch for close names in code elements), each with its
    // installed version.
    const version = async (name: string) =>
      (
        JSON.parse(await readFile(path.join(repoRoot, `node_modules/${name}/package.json`), 'utf8')) as {
          version: string;
        }
      ).version;
    expect(compiled.packages).toEqual([
      { name: 'culori', version: await version('culori') },
      { name: 'minisearch', version: await version('minisearch') },
      { name: 'shiki', version: await version('shiki') },
      { name: 'webvtt-parser', version: await version('webvtt-parser') },
      { name: 'zod', version: await version('zod') },
    ]);

    const bundle = await readFile(compiled.bundlePath, 'utf8');
    expect(bundle).toContain('sourceMappingURL=data:application/json;base64,');
    // The package stays outside the bundle, pinned to the file it resolved to; built-ins stay bare.
    expect(bundle).toMatch(/from "file:\/\/\/[^"]*node_modules\/zod\/[^"]*"/);
    expect(bundle).toMatch(/from "node:fs"/);
  });

  it('writes a new bundle file for every compile', async () => {
    const entry = await write(
      'twice.ts',
      "import { video, scene } from 'kino';\nexport default video({}, [scene({ duration: 1 })]);\n",
    );
    const first = await compileComposition(entry, { outDir });
    const second = await compileComposition(entry, { outDir });
    expect(first.bundlePath).not.toBe(second.bundlePath);
    expect((await stat(first.bundlePath)).isFile()).toBe(true);
    expect((await stat(second.bundlePath)).isFile()).toBe(true);
  });

  it('reports syntax errors as file:line:column, one line each', async () => {
    const entry = await write(
      'broken.ts',
      ["import { video } from 'kino';", 'const a = ;', 'export default video({}, [', '  scene(', ''].join(
        '\n',
      ),
    );
    const error = await compileComposition(entry, { outDir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CompositionCompileError);
    const { problems, message } = error as CompositionCompileError;
    expect(problems[0]).toMatchObject({ file: entry, line: 2, column: 11 });
    expect(problems[0]!.message).toMatch(/Unexpected ";"/);
    expect(message.split('\n')).toHaveLength(problems.length);
    expect(message.split('\n')[0]).toBe(`${entry}:2:11: ${problems[0]!.message}`);
  });

  it('reports an import that does not resolve at the import', async () => {
    const entry = await write(
      'missing.ts',
      "import { video } from 'kino';\nimport { helper } from './nowhere.ts';\nimport leftPad from 'left-pad-not-installed';\nexport default video({}, []);\n",
    );
    const error = (await compileComposition(entry, { outDir }).catch(
      (e: unknown) => e,
    )) as CompositionCompileError;
    expect(error).toBeInstanceOf(CompositionCompileError);
    expect(error.problems.map((p) => [p.line, p.column])).toEqual([
      [2, 24],
      [3, 21],
    ]);
    expect(error.message).toContain('Could not resolve "./nowhere.ts"');
    expect(error.message).toContain('Could not resolve "left-pad-not-installed"');
  });

  it('says when the composition file does not exist', async () => {
    const missing = path.join(dir, 'nope.ts');
    await expect(compileComposition(missing)).rejects.toThrow(`${missing}: composition file not found`);
  });
});
