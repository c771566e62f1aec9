import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REQUIRED_ENCODERS } from '../ffmpeg/capabilities.ts';
import { nodeSatisfies } from './doctor-command.ts';
import type { DoctorReport } from './doctor-command.ts';
import { runKino } from './test-kino.fixture.ts';
import type { KinoRun } from './test-kino.fixture.ts';

const work = mkdtempSync(join(tmpdir(), 'kino-doctor-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** kino with no ffmpeg settings of the caller's, plus `env`. */
function runIsolated(args: string[], env: NodeJS.ProcessEnv = {}): Promise<KinoRun> {
  const base: NodeJS.ProcessEnv = { ...process.env, KINO_CACHE_DIR: join(work, 'cache') };
  delete base.FFMPEG_PATH;
  delete base.FFPROBE_PATH;
  delete base.KINO_FFMPEG_FALLBACK_WARNED;
  return runKino(args, { env: { ...base, ...env } });
}

// What this machine has: the first ffmpeg on PATH and its version (Debian 12's 5.1 in CI).
const which = spawnSync('sh', ['-c', 'command -v ffmpeg'], { encoding: 'utf8' }).stdout.trim();
const systemVersion = which
  ? /^ffmpeg version n?(\S+)/.exec(spawnSync(which, ['-version'], { encoding: 'utf8' }).stdout)?.[1]
  : undefined;
const systemIsModern = systemVersion !== undefined && /^([6-9]|5\.[1-9]|\d\d)/.test(systemVersion);

describe('kino doctor', () => {
  it('reports the pair in use, its versions, every encoder and Node (--json)', async () => {
    const result = await runIsolated(['doctor', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as DoctorReport;
    expect(report.ok).toBe(true);
    expect(report.problems).toEqual([]);
    expect(report.encoders.map((e) => e.name)).toEqual(REQUIRED_ENCODERS.map((e) => e.name));
    expect(report.encoders.every((e) => e.found)).toBe(true);
    expect(report.node).toEqual({
      version: process.version,
      required: expect.stringMatching(/^>=/),
      ok: true,
    });
    if (systemIsModern) {
      expect(report.source).toBe('system');
      expect(report.ffmpeg).toEqual({ path: which, version: systemVersion, error: undefined });
      expect(report.ffprobe.path).toBe(join(which, '..', 'ffprobe'));
      expect(report.ffprobe.version).toBe(systemVersion);
      expect(report.advice).toEqual([]);
    } else {
      expect(report.source).toBe('npm');
      expect(report.advice[0]?.fix).toMatch(/install/);
    }
  });

  it('prints a readable report and exits 0', async () => {
    const result = await runIsolated(['doctor']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Kino doctor\n {2}ffmpeg {3}\S+/);
    for (const encoder of REQUIRED_ENCODERS)
      expect(result.stdout).toMatch(new RegExp(`ok +${encoder.name} `));
    expect(result.stdout).toContain(`node     ${process.version}`);
    expect(result.stdout).toMatch(/Everything Kino needs is there\.\n$/);
    if (systemIsModern) expect(result.stdout).toContain(`ffmpeg   ${which}  (${systemVersion})`);
  });

  it('says in one line what to change when FFMPEG_PATH points nowhere, and exits 1', async () => {
    const missing = join(work, 'nope', 'ffmpeg');
    const result = await runIsolated(['doctor'], { FFMPEG_PATH: missing });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `kino: FFMPEG_PATH points to ${missing}, which does not exist; fix or unset FFMPEG_PATH.\n`,
    );
  });

  it('lists a missing encoder with its fix and exits 1', async () => {
    const dir = mkdtempSync(join(work, 'build-'));
    const encoders = REQUIRED_ENCODERS.filter((e) => e.name !== 'libvpx-vp9')
      .map((e) => ` V..... ${e.name}  fake`)
      .join('\n');
    writeFileSync(
      join(dir, 'ffmpeg'),
      `#!/bin/sh\necho 'ffmpeg version 6.1 Copyright' >&2\nprintf '%s\\n' 'Encoders:' ' ------'\ncat <<'EOF'\n${encoders}\nEOF\n`,
      { mode: 0o755 },
    );
    writeFileSync(join(dir, 'ffprobe'), "#!/bin/sh\necho 'ffprobe version 6.1 Copyright'\n", { mode: 0o755 });
    const text = await runIsolated(['doctor'], { FFMPEG_PATH: join(dir, 'ffmpeg') });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/MISSING +libvpx-vp9 /);
    expect(text.stdout).toContain(
      'missing: ffmpeg has no libvpx-vp9 encoder (transparent webm video (VP9 with alpha)); to fix: point FFMPEG_PATH/FFPROBE_PATH at a build with libvpx-vp9, or unset them\n',
    );
    const json = await runIsolated(['doctor', '--json'], { FFMPEG_PATH: join(dir, 'ffmpeg') });
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as DoctorReport;
    expect(report).toMatchObject({ ok: false, source: 'env', ffprobe: { path: join(dir, 'ffprobe') } });
    expect(report.problems).toHaveLength(1);
  });
});

describe('nodeSatisfies', () => {
  it('compares a Node version with a >= range', () => {
    expect(nodeSatisfies('v24.1.0', '>=22.12')).toBe(true);
    expect(nodeSatisfies('v22.12.0', '>=22.12')).toBe(true);
    expect(nodeSatisfies('v22.11.9', '>=22.12')).toBe(false);
    expect(nodeSatisfies('v20.19.0', '>=22.18.0')).toBe(false);
  });
});
