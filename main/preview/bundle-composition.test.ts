import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KINO_BUILDER_ENTRY } from '../composition/compile.ts';
import { bundleCompositionForBrowser, isAuthorSource } from './bundle-composition.ts';
import { makeTestProject } from './test-project.fixture.ts';
import type { TestProject } from './test-project.fixture.ts';

let project: TestProject | undefined;
afterEach(() => project?.cleanup());

describe('bundleCompositionForBrowser', () => {
  it('bundles the composition, its imports and the kino builder into one browser module', async () => {
    project = makeTestProject();
    const bundle = await bundleCompositionForBrowser(project.composition);
    expect(bundle.ok).toBe(true);
    if (!bundle.ok) return;
    expect(bundle.code).toContain('Hello preview');
    expect(bundle.code).toContain('#f59e0b'); // from palette.ts
    // Nothing left for the browser to resolve: 'kino' and zod are inside.
    expect(bundle.code).not.toMatch(/from\s*["']kino["']/);
    expect(bundle.code).toMatch(/\/\/# sourceMappingURL=data:application\/json;base64,/);
    expect(bundle.inputs).toEqual(
      expect.arrayContaining([project.composition, project.palette, KINO_BUILDER_ENTRY]),
    );
  });

  it("keeps the text of the author's files in the source map, not Kino's or the packages'", async () => {
    project = makeTestProject();
    const bundle = await bundleCompositionForBrowser(project.composition);
    if (!bundle.ok) throw new Error('the test project should bundle');
    const encoded = /\/\/# sourceMappingURL=data:application\/json;base64,(\S+)\s*$/.exec(bundle.code)![1]!;
    const map = JSON.parse(Buffer.from(encoded, 'base64').toString()) as {
      sources: string[];
      sourcesContent: (string | null)[];
      mappings: string;
    };
    const textOf = (name: string) =>
      map.sourcesContent[map.sources.findIndex((source) => source.endsWith(name))];
    expect(textOf('palette.ts')).toContain('#f59e0b');
    const kinos = map.sources.flatMap((source, index) => (source.includes('/shared/') ? [index] : []));
    expect(kinos.length).toBeGreaterThan(10);
    expect(kinos.every((index) => map.sourcesContent[index] === null)).toBe(true);
    expect(map.sources.some((source) => source.includes('node_modules/zod/'))).toBe(true);
    expect(map.sourcesContent.filter((text) => text !== null)).toHaveLength(2); // composition, palette
    expect(map.mappings.length).toBeGreaterThan(1000); // every file keeps its mappings: stacks still map
    expect(bundle.code.match(/sourceMappingURL/g)).toHaveLength(1);
  });

  it("tells the author's files from Kino's and the packages'", () => {
    expect(isAuthorSource(project?.composition ?? '/home/me/video/intro.ts')).toBe(true);
    expect(isAuthorSource(KINO_BUILDER_ENTRY)).toBe(false);
    expect(isAuthorSource(join('/home/me/video/node_modules/zod/index.js'))).toBe(false);
  });

  it('reports a syntax error at file:line:column instead of throwing', async () => {
    project = makeTestProject();
    writeFileSync(project.palette, "export const accent = '#f59e0b'\nexport const = 3;\n");
    const bundle = await bundleCompositionForBrowser(project.composition);
    expect(bundle.ok).toBe(false);
    if (bundle.ok) return;
    expect(bundle.problems).toEqual([
      expect.objectContaining({ file: project.palette, line: 2, column: 14, message: expect.any(String) }),
    ]);
    expect(bundle.inputs).toEqual(expect.arrayContaining([project.composition, project.palette]));
  });

  it('refuses Node built-ins, which a browser does not have', async () => {
    project = makeTestProject();
    writeFileSync(
      join(project.root, 'comp.ts'),
      "import { readFileSync } from 'node:fs';\nexport default readFileSync;\n",
    );
    const bundle = await bundleCompositionForBrowser(project.composition);
    expect(bundle.ok).toBe(false);
    if (bundle.ok) return;
    expect(bundle.problems[0]).toMatchObject({ file: project.composition, line: 1 });
    expect(bundle.problems[0]!.message).toMatch(/node:fs/);
  });

  it('reports a missing file as a problem', async () => {
    project = makeTestProject();
    const missing = join(project.root, 'nope.ts');
    const bundle = await bundleCompositionForBrowser(missing);
    expect(bundle).toEqual({
      ok: false,
      problems: [{ file: missing, message: 'composition file not found' }],
      inputs: [missing],
    });
  });
});
