import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listProjectCompositions } from './project-compositions.ts';

describe('the inputs Home lists', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'kino-project-inputs-'));
    const write = (name: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      writeFileSync(path.join(root, name), text);
    };
    write('kino.json', JSON.stringify({ name: 'p', compositions: {} }));
    write('compositions/intro.ts', "import { video } from 'kino';\nexport default video({}, []);\n");
    write(
      'compositions/recap.ts',
      "import { template } from 'kino';\nexport default template({}, () => v);\n",
    );
    write('compositions/helpers.ts', 'export const x = 1;\n');
    write('specs/launch.json', JSON.stringify({ kinoSpec: 1, scenes: [] }));
    write('specs/quote.json', JSON.stringify({ kinoSpec: 1, variables: {}, scenes: [] }));
    write('specs/data.json', JSON.stringify([1, 2, 3]));
    write('specs/broken.json', '{ "kinoSpec": 1,');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('names code, specs and templates by kind, and leaves out what is none of them', async () => {
    const inputs = await listProjectCompositions(root);
    expect(inputs.map(({ relative, kind }) => `${relative} ${kind}`)).toEqual([
      'compositions/intro.ts composition',
      'compositions/recap.ts template',
      'specs/launch.json spec',
      'specs/quote.json template',
    ]);
  });
});
