// What each command loads: the CLI imports a command's implementation only when that command runs,
// so `kino schema`, `kino --help` and the session client start without Skia (@napi-rs/canvas) or
// Fastify. A resolve hook in the child records the URL of every module it loads.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runKino } from './test-kino.fixture.ts';

const work = mkdtempSync(join(tmpdir(), 'kino-cli-imports-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const RECORDER = `
import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
const urls = [];
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    urls.push(resolved.url);
    return resolved;
  },
});
process.on('exit', () => writeFileSync(process.env.KINO_TEST_MODULE_LOG, urls.join('\\n')));
`;

let runs = 0;
/** The URLs of every module `kino <args>` resolved, and what it printed. */
async function recordedRun(args: string[]): Promise<{ urls: string[]; stdout: string }> {
  const log = join(work, `modules-${runs++}.txt`);
  const run = await runKino(args, {
    // From the sources, whose files name what they are (the bundle splits the same way: its test).
    env: { ...process.env, KINO_BUNDLE: '0', KINO_CACHE_DIR: join(work, 'cache'), KINO_TEST_MODULE_LOG: log },
    cwd: work,
    nodeArgs: ['--import', `data:text/javascript,${encodeURIComponent(RECORDER)}`],
  });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return { urls: readFileSync(log, 'utf8').split('\n'), stdout: run.stdout };
}

/** The URLs of every module `kino <args>` resolved on its way through the CLI (main.ts). */
async function modulesLoadedBy(args: string[]): Promise<string[]> {
  const { urls } = await recordedRun(args);
  // The hook saw the CLI itself: an empty record would pass every check below.
  expect(urls.some((url) => url.endsWith('/main/cli/main.ts'))).toBe(true);
  return urls;
}

function packagesIn(urls: string[]): Set<string> {
  const names = urls.map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]);
  return new Set(names.filter((name) => name !== undefined));
}

const HEAVY = ['@napi-rs/canvas', 'fastify', 'undici', 'ai', 'esbuild'];

describe('kino loads only what a command uses', () => {
  it('schema: the spec schema, without Skia, Fastify, the HTTP client, the AI SDK or esbuild', async () => {
    const packages = packagesIn(await modulesLoadedBy(['schema', '-o', join(work, 'schema.json')]));
    expect(packages.has('zod')).toBe(true);
    for (const name of HEAVY) expect(packages.has(name), name).toBe(false);
  });

  it('frame: Skia and the spec, without Fastify, the HTTP client or the AI SDK', async () => {
    const spec = join(work, 'hello.json');
    const scene = { duration: 1, elements: [{ type: 'text', text: 'Hello' }] };
    writeFileSync(spec, JSON.stringify({ kinoSpec: 1, scenes: [scene] }));
    const packages = packagesIn(
      await modulesLoadedBy(['frame', spec, '--frame', '0', '-o', join(work, 'hello.png')]),
    );
    expect(packages.has('@napi-rs/canvas')).toBe(true);
    // esbuild compiles compositions; a JSON spec does not need it.
    for (const name of ['fastify', 'undici', 'ai', 'esbuild']) expect(packages.has(name), name).toBe(false);
  });

  it('--version and -V: the launcher reads package.json, no TypeScript and no package loads', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-V']) {
      const { urls, stdout } = await recordedRun([flag]);
      expect(stdout).toBe(`${version}\n`);
      // The hook saw the launcher: an empty record would pass the checks below.
      expect(urls.some((url) => url.endsWith('/main/cli/kino.mjs'))).toBe(true);
      expect(urls.filter((url) => url.endsWith('.ts'))).toEqual([]);
      expect([...packagesIn(urls)]).toEqual([]);
    }
  });

  it('--help and a command’s help: commander and the option lists alone', async () => {
    for (const args of [['--help'], ['session', '--help'], ['render', '--help']]) {
      const urls = await modulesLoadedBy(args);
      // Node's HTTP module alone takes tens of milliseconds to load.
      expect(urls, `${args.join(' ')}: node:http`).not.toContain('node:http');
      const packages = packagesIn(urls);
      for (const name of [...HEAVY, 'culori'])
        expect(packages.has(name), `${args.join(' ')}: ${name}`).toBe(false);
    }
  });
});
