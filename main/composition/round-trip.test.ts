// spec → specToCode → composition file → compile + load → the same model; and the printed files
// type-check against the builder API, as they would in an editor.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specToCode } from '../../shared/builder/print.ts';
import { SAMPLE_SPECS } from '../../shared/builder/sample-specs.fixture.ts';
import type { VideoSpec } from '../../shared/spec/schema.ts';
import { parseSpec } from '../../shared/spec/validate.ts';
import { KINO_BUILDER_ENTRY } from './compile.ts';
import { loadComposition } from './load.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const exampleSpecsDir = path.join(repoRoot, 'examples', 'specs');
let dir: string;

async function exampleSpecs(): Promise<[string, VideoSpec][]> {
  const names = (await readdir(exampleSpecsDir).catch(() => [] as string[])).filter((n) =>
    n.endsWith('.json'),
  );
  const specs = await Promise.all(
    names.map(
      async (name) => [name, JSON.parse(await readFile(path.join(exampleSpecsDir, name), 'utf8'))] as const,
    ),
  );
  // Only valid specs can round-trip; the examples' own tests report invalid ones.
  return specs.filter(([, spec]) => parseSpec(spec).ok) as [string, VideoSpec][];
}

beforeAll(async () => {
  await mkdir(path.join(repoRoot, '.kino'), { recursive: true });
  dir = await mkdtemp(path.join(repoRoot, '.kino', 'round-trip-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('specToCode round trip', () => {
  it('loads every printed spec back as the same model, and the printed files type-check', async () => {
    const specs: [string, VideoSpec][] = [...Object.entries(SAMPLE_SPECS), ...(await exampleSpecs())];
    expect(specs.length).toBeGreaterThanOrEqual(3);
    for (const [name, spec] of specs) {
      const file = path.join(dir, `${name.replace(/\W/g, '-')}.ts`);
      await writeFile(file, specToCode(spec));
      const model = await loadComposition(file, { outDir: path.join(dir, 'out') });
      expect(model, name).toEqual(JSON.parse(JSON.stringify(spec)));
    }

    // The editor resolves 'kino' to the builder API the same way the compiler does.
    await writeFile(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: path.join(repoRoot, 'tsconfig.json'),
        compilerOptions: { noEmit: true, paths: { kino: [KINO_BUILDER_ENTRY] } },
        include: ['*.ts'],
      }),
    );
    const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.json'], {
      cwd: dir,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }));
    // Errors elsewhere in the repo are the repo type-check's business; these files must be clean.
    const ours = result.stdout.split('\n').filter((line) => /^[\w-]+\.ts\(/.test(line));
    expect(ours).toEqual([]);
  });
});
