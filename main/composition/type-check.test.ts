import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCompositionTypes } from './type-check.ts';

const example = (name: string) =>
  readFile(new URL(`../../examples/compositions/${name}.ts`, import.meta.url), 'utf8');

describe('checkCompositionTypes', () => {
  it('finds no problem in an example composition', { timeout: 60_000 }, async () => {
    expect(await checkCompositionTypes(await example('product-launch'))).toEqual([]);
  });

  it('reports a wrong property type at its line and column', { timeout: 60_000 }, async () => {
    const code = [
      "import { scene, text, video } from 'kino';",
      '',
      'export default video({ aspect: "square" }, [',
      "  scene({ duration: '2s' }, [text('Hi', { fontSize: 40 })]),",
      ']);',
    ].join('\n');
    const diagnostics = await checkCompositionTypes(code);
    expect(diagnostics.length).toBeGreaterThan(0);
    const first = diagnostics[0]!;
    expect(first).toMatchObject({ line: 4, severity: 'error' });
    expect(first.column).toBe(code.split('\n')[3]!.indexOf('fontSize') + 1);
    expect(first.message).toMatch(/fontSize/);
  });

  it('reports an unknown export of kino and a syntax error', { timeout: 60_000 }, async () => {
    const unknown = await checkCompositionTypes("import { sparkle } from 'kino';\nexport default sparkle;\n");
    expect(unknown[0]).toMatchObject({ line: 1, code: 2305 });
    const broken = await checkCompositionTypes("import { video } from 'kino';\nexport default video({}, [\n");
    expect(broken.some((d) => d.line >= 2 && d.severity === 'error')).toBe(true);
  });

  it(
    'never runs the code: a composition that writes a file when run does not write it',
    { timeout: 60_000 },
    async () => {
      const target = path.join(tmpdir(), `kino-type-check-${process.pid}-${Date.now()}.txt`);
      const code = [
        "import { writeFileSync } from 'node:fs';",
        "import { scene, text, video } from 'kino';",
        `writeFileSync(${JSON.stringify(target)}, 'ran');`,
        "export default video({}, [scene({ duration: '1s' }, [text('x')])]);",
      ].join('\n');
      const diagnostics = await checkCompositionTypes(code);
      // node:fs has no typings here (compositions draw, they do not touch the disk), so it is reported.
      expect(diagnostics[0]).toMatchObject({ line: 1 });
      expect(existsSync(target)).toBe(false);
    },
  );
});
