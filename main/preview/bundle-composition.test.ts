import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KINO_BUILDER_ENTRY } from '../composition/compile.ts';
import { bundleCompositionForBrowser } from './bundle-composition.ts';
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
