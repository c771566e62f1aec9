// The CLI's prebuilt bundle: when it counts as up to date, and that kino run from it does what kino
// run from the sources does.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// Plain JavaScript without a declaration file: imported by URL and typed here.
const { buildBundle, freshBundle, removeOldBuilds } = (await import(
  new URL('./cli-bundle.mjs', import.meta.url).href
)) as {
  buildBundle(root?: string, dir?: string): Promise<string | undefined>;
  freshBundle(root?: string, dir?: string): string | undefined;
  removeOldBuilds(dir: string, current: string): void;
};

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'kino-cli-bundle-'));
// Inside node_modules, as the real one is, so that the packages the bundle imports resolve.
const repoBundles = join(REPO, 'node_modules', '.cache', 'kino', `cli-test-${process.pid}`);
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  rmSync(repoBundles, { recursive: true, force: true });
});

function write(root: string, file: string, text: string): string {
  const path = join(root, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

describe('removeOldBuilds', () => {
  it('keeps the newest builds and any a living process runs from, and removes the rest', () => {
    const dir = join(work, 'builds');
    const names = ['b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'current'];
    names.forEach((name, i) => {
      mkdirSync(join(dir, name), { recursive: true });
      const at = new Date(Date.now() - (names.length - i) * 60_000);
      utimesSync(join(dir, name), at, at);
    });
    // b1 is run by this process; b2 by a process that has exited (pid 2^22 + 1 is never given out).
    write(dir, 'b1/in-use/' + String(process.pid), '');
    write(dir, 'b2/in-use/4194305', '');
    for (const name of ['b1', 'b2']) utimesSync(join(dir, name), new Date(0), new Date(0));
    removeOldBuilds(dir, 'current');
    expect(readdirSync(dir).sort()).toEqual(['b1', 'b4', 'b5', 'b6', 'current']);
  });
});

describe('freshBundle', () => {
  // A tree of its own: a two-module CLI and the files every build depends on.
  const root = join(work, 'tree');
  const dir = join(root, 'node_modules', '.cache', 'kino', 'cli');
  const main = write(root, 'main/cli/main.ts', "export { main } from './run.ts';\n");
  const run = write(
    root,
    'main/cli/run.ts',
    'export async function main(): Promise<number> {\n  return 0;\n}\n',
  );
  for (const file of ['main/launcher/cli-bundle.mjs', 'tsconfig.json', 'package.json'])
    write(root, file, '{}\n');
  write(root, 'node_modules/esbuild/package.json', '{}\n');
  const past = new Date(Date.now() - 60_000);
  for (const file of [main, run]) utimesSync(file, past, past);

  it('finds none before the first build, and the build once it is made', async () => {
    expect(freshBundle(root, dir)).toBeUndefined();
    const built = await buildBundle(root, dir);
    expect(built).toMatch(/^file:.*\/main\.mjs$/);
    expect(freshBundle(root, dir)).toBe(built);
  });

  it('finds none once a source changes or goes, until it is built again', async () => {
    utimesSync(run, new Date(), new Date(Date.now() - 30_000));
    expect(freshBundle(root, dir)).toBeUndefined();
    utimesSync(run, past, past);
    const rebuilt = await buildBundle(root, dir);
    expect(freshBundle(root, dir)).toBe(rebuilt);
    rmSync(run);
    expect(freshBundle(root, dir)).toBeUndefined();
  });
});

describe('kino from the bundle', () => {
  let bundle: string | undefined;
  /** kino's main() from the bundle, or from the sources; the same environment for both. */
  const kino = (from: 'bundle' | 'sources', args: string[]) => {
    const entry = from === 'bundle' ? bundle! : new URL('../cli/main.ts', import.meta.url).href;
    const script = `const { main } = await import(${JSON.stringify(entry)}); process.exitCode = await main(process.argv.slice(1));`;
    return spawnSync(process.execPath, ['--input-type=module', '-e', script, ...args], {
      cwd: work,
      encoding: 'utf8',
      env: { ...process.env, KINO_CACHE_DIR: join(work, 'cache') },
    });
  };

  it('builds the real CLI (again when a source changed while it was read)', async () => {
    for (let attempt = 0; attempt < 3 && !bundle; attempt++) bundle = await buildBundle(REPO, repoBundles);
    expect(bundle).toBeDefined();
  }, 60_000);

  it('prints the same schema, help and errors', () => {
    for (const args of [
      ['schema'],
      ['--help'],
      ['render', '--help'],
      ['frame', 'missing.json', '--frame', '0'],
    ]) {
      const [fromBundle, fromSources] = [kino('bundle', args), kino('sources', args)];
      expect(fromBundle.status, args.join(' ')).toBe(fromSources.status);
      expect(fromBundle.stdout, args.join(' ')).toBe(fromSources.stdout);
      expect(fromBundle.stderr, args.join(' ')).toBe(fromSources.stderr);
    }
  });

  it('keeps each command in its own chunks: schema loads neither Skia nor Fastify', () => {
    const recorder = [
      "import { registerHooks } from 'node:module';",
      'const urls = [];',
      'registerHooks({ resolve: (s, c, next) => { const r = next(s, c); urls.push(r.url); return r; } });',
      "process.on('exit', () => process.stderr.write(urls.join('\\n')));",
    ].join('\n');
    const entry = JSON.stringify(bundle);
    const script = `const { main } = await import(${entry}); process.exitCode = await main(['schema', '-o', 'schema.json']);`;
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        `data:text/javascript,${encodeURIComponent(recorder)}`,
        '--input-type=module',
        '-e',
        script,
      ],
      { cwd: work, encoding: 'utf8' },
    );
    expect(run.status).toBe(0);
    const urls = run.stderr.split('\n');
    expect(urls).toContain(bundle);
    expect(urls.filter((url) => /node_modules\/(@napi-rs\/canvas|fastify)\//.test(url))).toEqual([]);
  });

  it('draws the same frame, with fonts and an image found beside the sources', () => {
    copyFileSync(
      fileURLToPath(new URL('../../examples/assets/logo.png', import.meta.url)),
      join(work, 'logo.png'),
    );
    const scene = {
      duration: 2,
      background: '#20304a',
      elements: [
        { type: 'text', text: 'Bundled', font: 'display', size: 120 },
        { type: 'image', src: 'logo.png', y: 0.75, width: 300, height: 300 },
      ],
    };
    write(work, 'spec.json', JSON.stringify({ kinoSpec: 1, scenes: [scene] }));
    // And keys of the examples project (a spec, a composition), which the CLI finds beside its sources.
    for (const input of ['spec.json', 'quote-card', 'travel-reel']) {
      const fromBundle = kino('bundle', ['frame', input, '--frame', '20', '-o', 'bundle.png']);
      const fromSources = kino('sources', ['frame', input, '--frame', '20', '-o', 'sources.png']);
      expect(fromBundle.stderr, input).toBe('');
      expect(fromBundle.status, input).toBe(0);
      expect(fromSources.status, input).toBe(0);
      const [bundled, fromSource] = [
        readFileSync(join(work, 'bundle.png')),
        readFileSync(join(work, 'sources.png')),
      ];
      expect(bundled.equals(fromSource), input).toBe(true);
    }
  });

  it('renders a verified video with its receipt', () => {
    const run = kino('bundle', ['render', 'spec.json', '-o', 'out.mp4', '--frames', '6', '--json']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout) as { receipt: { toolchain: Record<string, unknown> } };
    expect(result.receipt.toolchain).toMatchObject({ kino: expect.any(String), esbuild: expect.any(String) });
  }, 60_000);
});
