import { execFileSync, spawnSync } from 'node:child_process';
import {
  accessSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  chooseTools,
  createToolResolver,
  ensureExecutable,
  ffmpegPath,
  ffprobePath,
  locateTool,
  MissingBinaryError,
  toolVersions,
} from './binaries.ts';
import type { ToolChoice, ToolContext } from './binaries.ts';
import { REQUIRED_ENCODERS } from './capabilities.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kino-bin-'));
  dirs.push(dir);
  return dir;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function writeScript(dir: string, mode: number): string {
  const path = join(dir, 'fake-tool');
  writeFileSync(path, '#!/bin/sh\necho tool-ran\n', { mode });
  return path;
}

const canMakeImmutable = (() => {
  if (process.getuid?.() !== 0) return false;
  const dir = mkdtempSync(join(tmpdir(), 'kino-chattr-'));
  const file = join(dir, 'probe');
  writeFileSync(file, '');
  const ok = spawnSync('chattr', ['+i', file]).status === 0;
  if (ok) spawnSync('chattr', ['-i', file]);
  rmSync(dir, { recursive: true, force: true });
  return ok;
})();

afterEach(() => {
  for (const dir of dirs.splice(0)) {
    spawnSync('chattr', ['-R', '-i', dir]);
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('bundled binaries', () => {
  it('finds runnable ffmpeg and ffprobe and reports their versions', async () => {
    expect(isExecutable(ffmpegPath())).toBe(true);
    expect(isExecutable(ffprobePath())).toBe(true);
    const versions = await toolVersions();
    expect(execFileSync(ffmpegPath(), ['-version']).toString()).toContain(
      `ffmpeg version ${versions.ffmpeg}`,
    );
    expect(execFileSync(ffprobePath(), ['-version']).toString()).toContain(
      `ffprobe version ${versions.ffprobe}`,
    );
  });

  it('lets FFMPEG_PATH override the bundled binary', () => {
    const dir = tempDir();
    const copy = join(dir, 'my-ffmpeg');
    copyFileSync(ffmpegPath(), copy);
    expect(locateTool('ffmpeg', { FFMPEG_PATH: copy }, join(dir, 'cache'))).toBe(copy);
  });

  it('says which variable to fix when the override points nowhere', () => {
    const missing = join(tempDir(), 'nope', 'ffprobe');
    expect(() => locateTool('ffprobe', { FFPROBE_PATH: missing })).toThrow(MissingBinaryError);
    expect(() => locateTool('ffprobe', { FFPROBE_PATH: missing })).toThrow(
      /FFPROBE_PATH points to .*nope\/ffprobe/,
    );
  });
});

describe('ensureExecutable', () => {
  it('adds the execute bit that a skipped install script would have set', () => {
    const dir = tempDir();
    const tool = writeScript(dir, 0o644);
    expect(isExecutable(tool)).toBe(false);
    expect(ensureExecutable(tool, join(dir, 'cache'))).toBe(tool);
    expect(statSync(tool).mode & 0o111).not.toBe(0);
    expect(execFileSync(tool).toString()).toBe('tool-ran\n');
  });

  it.skipIf(!canMakeImmutable)('copies the binary to the cache with mode 0755 when chmod is refused', () => {
    const dir = tempDir();
    const tool = writeScript(dir, 0o644);
    execFileSync('chattr', ['+i', tool]);
    const cache = join(dir, 'cache');
    const runnable = ensureExecutable(tool, cache);
    expect(runnable.startsWith(cache)).toBe(true);
    expect(statSync(runnable).mode & 0o777).toBe(0o755);
    expect(execFileSync(runnable).toString()).toBe('tool-ran\n');
    // A second call reuses the copy.
    expect(ensureExecutable(tool, cache)).toBe(runnable);
  });
});

// Fake builds: shell scripts that answer `-encoders` (banner on stderr, table on stdout) and
// `-version` like ffmpeg and ffprobe do, and log every run to <dir>/calls.
interface FakeBuild {
  version: string;
  libavcodec?: string;
  encoders?: readonly string[];
  /** ffprobe's version when it differs from ffmpeg's; null: no ffprobe in this directory. */
  ffprobeVersion?: string | null;
}

const ALL_ENCODERS = ['mpeg4', 'rawvideo', ...REQUIRED_ENCODERS.map((e) => e.name)];

function fakeBuild(dir: string, build: FakeBuild): string {
  mkdirSync(dir, { recursive: true });
  const calls = join(dir, 'calls');
  const table = (build.encoders ?? ALL_ENCODERS)
    .map(
      (name) =>
        ` ${name.startsWith('lib') && name !== 'libopus' ? 'V' : 'A'}....D ${name.padEnd(20)} fake ${name}`,
    )
    .join('\n');
  writeFileSync(
    join(dir, 'ffmpeg'),
    `#!/bin/sh
echo "ffmpeg $*" >> '${calls}'
case "$*" in
  *-encoders*)
    printf '%s\\n' 'ffmpeg version ${build.version} Copyright (c) 2000-2024 the FFmpeg developers' '  libavcodec     ${build.libavcodec ?? '59. 37.100'} / ${build.libavcodec ?? '59. 37.100'}' >&2
    printf '%s\\n' 'Encoders:' ' V..... = Video' ' ------'
    cat <<'TABLE'
${table}
TABLE
    ;;
  *) echo 'ffmpeg version ${build.version} Copyright (c) 2000-2024 the FFmpeg developers' ;;
esac
`,
    { mode: 0o755 },
  );
  if (build.ffprobeVersion !== null) {
    writeFileSync(
      join(dir, 'ffprobe'),
      `#!/bin/sh\necho "ffprobe $*" >> '${calls}'\necho 'ffprobe version ${build.ffprobeVersion ?? build.version} Copyright (c) 2007-2024 the FFmpeg developers'\n`,
      { mode: 0o755 },
    );
  }
  return dir;
}

function callsIn(dir: string): string[] {
  const file = join(dir, 'calls');
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
}

/** A machine: the given directories on PATH, a fake npm pair, a private cache. */
function machine(pathDirs: string[], env: NodeJS.ProcessEnv = {}): ToolContext & { npm: string } {
  const root = tempDir();
  const npm = fakeBuild(join(root, 'npm'), {
    version: 'N-47683-g0e8eb07980-static',
    libavcodec: '58. 42.100',
  });
  return {
    env: { PATH: pathDirs.join(delimiter), ...env },
    cacheDir: join(root, 'cache'),
    bundled: { ffmpeg: join(npm, 'ffmpeg'), ffprobe: join(npm, 'ffprobe') },
    platform: 'linux',
    npm,
  };
}

function paths(choice: ToolChoice): { ffmpeg?: string; ffprobe?: string } {
  const path = (entry: ToolChoice['tools']['ffmpeg']) => ('path' in entry ? entry.path : undefined);
  return { ffmpeg: path(choice.tools.ffmpeg), ffprobe: path(choice.tools.ffprobe) };
}

describe('choosing the ffmpeg/ffprobe pair', () => {
  it('takes the system pair on PATH when it is 5.1 or newer with every encoder Kino uses', () => {
    const root = tempDir();
    const system = fakeBuild(join(root, 'usr-bin'), { version: '5.1.2-3' });
    const ctx = machine([join(root, 'empty'), system]);
    const choice = chooseTools(ctx);
    expect(choice.source).toBe('system');
    expect(paths(choice)).toEqual({ ffmpeg: join(system, 'ffmpeg'), ffprobe: join(system, 'ffprobe') });
    expect(choice.warning).toBeUndefined();
    expect(choice.reason).toContain('5.1.2-3');
  });

  it('lets FFMPEG_PATH and FFPROBE_PATH win over a good system pair, which is then not even probed', () => {
    const root = tempDir();
    const system = fakeBuild(join(root, 'usr-bin'), { version: '7.1' });
    const mine = fakeBuild(join(root, 'opt'), { version: '6.0' });
    const ctx = machine([system], { FFMPEG_PATH: join(mine, 'ffmpeg'), FFPROBE_PATH: join(mine, 'ffprobe') });
    const choice = chooseTools(ctx);
    expect(choice.source).toBe('env');
    expect(paths(choice)).toEqual({ ffmpeg: join(mine, 'ffmpeg'), ffprobe: join(mine, 'ffprobe') });
    expect(callsIn(system)).toEqual([]);
  });

  it('takes the other tool from beside a lone override, never from another source', () => {
    const root = tempDir();
    const system = fakeBuild(join(root, 'usr-bin'), { version: '7.1' });
    const mine = fakeBuild(join(root, 'opt'), { version: '6.0' });
    const both = chooseTools(machine([system], { FFMPEG_PATH: join(mine, 'ffmpeg') }));
    expect(paths(both)).toEqual({ ffmpeg: join(mine, 'ffmpeg'), ffprobe: join(mine, 'ffprobe') });

    const lone = join(root, 'lone');
    mkdirSync(lone);
    copyFileSync(join(mine, 'ffmpeg'), join(lone, 'ffmpeg'));
    const ctx = machine([system], { FFMPEG_PATH: join(lone, 'ffmpeg') });
    const resolver = createToolResolver(
      () => ctx,
      () => {},
    );
    expect(resolver.path('ffmpeg')).toBe(join(lone, 'ffmpeg'));
    expect(() => resolver.path('ffprobe')).toThrow(MissingBinaryError);
    expect(() => resolver.path('ffprobe')).toThrow(
      /FFMPEG_PATH is set but FFPROBE_PATH is not.*set FFPROBE_PATH too/,
    );
  });

  it.each([
    ['older than 5.1', { version: '4.4.2-0ubuntu0.22.04.1' }, /4\.4\.2.*older than 5\.1/],
    [
      'missing libvpx-vp9',
      { version: '5.1.2', encoders: ALL_ENCODERS.filter((e) => e !== 'libvpx-vp9') },
      /lacks the encoder libvpx-vp9/,
    ],
    [
      'a git snapshot from before 5.1',
      { version: 'N-104000-gabc', libavcodec: '59. 18.100' },
      /older than 5\.1/,
    ],
    ['ffprobe from another build', { version: '6.1', ffprobeVersion: '5.1' }, /not one build/],
    ['without ffprobe beside it', { version: '6.1', ffprobeVersion: null }, /has no ffprobe beside it/],
  ])('falls back to the npm pair, with a warning, for a system ffmpeg %s', (_, build, why) => {
    const root = tempDir();
    const system = fakeBuild(join(root, 'usr-bin'), build);
    // An ffprobe elsewhere on PATH must not be paired with the system ffmpeg.
    const elsewhere = fakeBuild(join(root, 'elsewhere'), { version: '6.1' });
    const ctx = machine([system, elsewhere]);
    const warn = vi.fn();
    const resolver = createToolResolver(() => ctx, warn);
    expect(resolver.path('ffmpeg')).toBe(join(ctx.npm, 'ffmpeg'));
    expect(resolver.path('ffprobe')).toBe(join(ctx.npm, 'ffprobe'));
    const choice = resolver.choice();
    expect(choice.source).toBe('npm');
    expect(choice.system?.unfit).toMatch(why);
    expect(warn).toHaveBeenCalledTimes(1);
    const line = warn.mock.calls[0]![0] as string;
    expect(line).not.toContain('\n');
    expect(line).toMatch(why);
    expect(line).toContain('apt-get install ffmpeg');
  });

  it('takes a git snapshot whose libavcodec is 5.1 or newer', () => {
    const root = tempDir();
    const system = fakeBuild(join(root, 'bin'), { version: 'N-113000-g1234abcd', libavcodec: '60. 31.102' });
    expect(chooseTools(machine([system])).source).toBe('system');
  });

  it('warns when there is no ffmpeg on PATH at all, and only once per process tree', () => {
    const ctx = machine([join(tempDir(), 'nothing-here')]);
    const warn = vi.fn();
    const resolver = createToolResolver(() => ctx, warn);
    resolver.path('ffmpeg');
    resolver.path('ffprobe');
    resolver.choice();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/no ffmpeg on PATH/);
    // The flag set in the environment keeps forked workers (which inherit it) quiet.
    const child = createToolResolver(() => ({ ...ctx, env: { ...ctx.env } }), warn);
    child.path('ffmpeg');
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('probes the system pair once per process, and not again while the binaries are unchanged', () => {
    const root = tempDir();
    const system = fakeBuild(join(root, 'usr-bin'), { version: '5.1.2' });
    const ctx = machine([system]);
    const first = createToolResolver(
      () => ctx,
      () => {},
    );
    first.path('ffmpeg');
    first.path('ffprobe');
    first.choice();
    expect(callsIn(system)).toEqual(['ffmpeg -encoders', 'ffprobe -version']);
    // Another process with the same cache: the kept verdict, no run.
    const second = createToolResolver(
      () => ctx,
      () => {},
    );
    expect(second.path('ffmpeg')).toBe(join(system, 'ffmpeg'));
    expect(callsIn(system)).toHaveLength(2);
    // An upgrade (another file) is probed afresh.
    fakeBuild(system, { version: '4.4.1-older' });
    writeFileSync(join(system, 'calls'), '');
    const third = createToolResolver(
      () => ctx,
      () => {},
    );
    expect(third.path('ffmpeg')).toBe(join(ctx.npm, 'ffmpeg'));
    expect(callsIn(system)).toEqual(['ffmpeg -encoders', 'ffprobe -version']);
  });

  it('uses an unfit system pair rather than nothing when there is no npm binary for the platform', () => {
    const root = tempDir();
    const system = fakeBuild(join(root, 'usr-bin'), { version: '4.4.2' });
    const ctx = { ...machine([system]), bundled: {} };
    const choice = chooseTools(ctx);
    expect(choice.source).toBe('system');
    expect(paths(choice)).toEqual({ ffmpeg: join(system, 'ffmpeg'), ffprobe: join(system, 'ffprobe') });
    expect(choice.warning).toMatch(/older than 5\.1/);

    const nothing = { ...machine([join(root, 'empty')]), bundled: {} };
    expect(chooseTools(nothing).tools.ffprobe).toHaveProperty('error');
    expect(() =>
      createToolResolver(
        () => nothing,
        () => {},
      ).path('ffmpeg'),
    ).toThrow(/no usable ffmpeg: there is no ffmpeg on PATH/);
  });
});
