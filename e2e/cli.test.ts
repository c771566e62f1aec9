// The CLI end to end: real processes, real renders checked with ffprobe, and the errors users meet.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
  existsSync,
  readdirSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffprobePath } from '../main/ffmpeg/binaries.ts';
import { probeFile } from '../main/ffmpeg/probe.ts';
import { REPO_ROOT, pixelHash, runKino } from './cli-helpers.ts';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'kino-cli-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The first 3 frames of the launch example at draft quality, plus `args`: quick renders that fail. */
const renderLaunchDraft = (args: string[], options?: Parameters<typeof runKino>[1]) =>
  runKino(['render', 'launch', '-q', 'draft', '--frames', '3', ...args], options);

describe('kino render', () => {
  it('renders a registered key to a verified mp4 with a poster', async () => {
    const out = join(work, 'out', 'launch.mp4');
    const result = await runKino(['render', 'launch', '-o', out, '--quality', 'draft', '--poster', '1.5s']);
    expect(result.stderr).not.toMatch(/at .*\.ts:\d+/); // no stack trace
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(out);
    expect(result.stdout).toMatch(/sha256 [0-9a-f]{64}/);
    const probe = await probeFile(out);
    expect(probe.video?.codec).toBe('h264');
    expect(probe.video?.pixFmt).toBe('yuv420p');
    expect(probe.audio?.codec).toBe('aac');
    expect(probe.video?.width).toBe(540);
    expect(probe.video?.height).toBe(960);
    expect(existsSync(join(work, 'out', 'launch.poster.png'))).toBe(true);
    // Nothing half-written is left beside the result.
    expect(readdirSync(join(work, 'out')).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('prints progress lines when stderr is not a terminal', async () => {
    const result = await runKino([
      'render',
      'stats',
      '-o',
      join(work, 'stats.mp4'),
      '-q',
      'draft',
      '--frames',
      '20',
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/kino: rendering \d+\/20 frames, [\d.]+ fps, ETA/);
    expect(result.stderr).toContain('kino: verifying');
  });

  it('names the output after a dotted spec file whole, adding the format extension: launch.v2.mp4', async () => {
    const dir = mkdtempSync(join(work, 'dotted-'));
    const scene = { duration: 1, elements: [{ type: 'text', text: 'v2' }] };
    writeFileSync(
      join(dir, 'launch.v2.json'),
      JSON.stringify({ kinoSpec: 1, aspect: 'square', scenes: [scene] }),
    );
    for (const format of ['mp4', 'mov']) {
      const result = await runKino(
        ['render', 'launch.v2.json', '-q', 'draft', '--frames', '3', '-f', format],
        {
          cwd: dir,
        },
      );
      expect(result.code, result.stderr).toBe(0);
      const out = join(dir, `launch.v2.${format}`);
      expect(result.stdout).toContain(out);
      expect((await probeFile(out)).video?.width).toBe(540);
    }
    expect(readdirSync(dir).sort()).toEqual([
      'launch.v2.json',
      'launch.v2.mov',
      'launch.v2.mp4',
      'launch.v2.render.json',
    ]);
  });

  it('renders --frames as a verified prefix and --json prints the receipt', async () => {
    const result = await runKino([
      'render',
      'promo-square',
      '-o',
      join(work, 'p.mp4'),
      '-q',
      'draft',
      '--frames',
      '12',
      '--json',
    ]);
    expect(result.code).toBe(0);
    const receipt = JSON.parse(result.stdout) as {
      frames: number;
      output: { sha256: string; ok: boolean; bytes: number };
    };
    expect(receipt.frames).toBe(12);
    expect(receipt.output.ok).toBe(true);
    expect(receipt.output.sha256).toBe(
      createHash('sha256')
        .update(readFileSync(join(work, 'p.mp4')))
        .digest('hex'),
    );
  });
});

describe('kino frame', () => {
  it('draws identical pixels in two separate processes (determinism)', async () => {
    for (const [key, frame] of [
      ['travel', 45],
      ['brand-intro', 70],
    ] as const) {
      const a = join(work, `${key}-a.png`);
      const b = join(work, `${key}-b.png`);
      const [first, second] = await Promise.all([
        runKino(['frame', key, '--frame', String(frame), '-o', a]),
        runKino(['frame', key, '--frame', String(frame), '-o', b]),
      ]);
      expect(first.code, first.stderr).toBe(0);
      expect(second.code, second.stderr).toBe(0);
      expect(await pixelHash(a)).toBe(await pixelHash(b));
    }
  });

  it('refuses a frame outside the timeline and names its length', async () => {
    const result = await runKino(['frame', 'launch', '--frame', '99999', '-o', join(work, 'x.png')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^kino: frame 99999 is outside the timeline: it has \d+ frames/);
  });
});

describe('errors a user meets', () => {
  it('lists every spec error with its JSON pointer', async () => {
    const spec = join(work, 'bad.json');
    writeFileSync(
      spec,
      JSON.stringify({
        kinoSpec: 1,
        scenes: [{ duration: 'soon', elements: [{ type: 'text', text: 'x', colour: 'red' }] }],
      }),
    );
    const result = await runKino(['render', spec, '-o', join(work, 'bad.mp4')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('/scenes/0/duration');
    expect(result.stderr).toContain('/scenes/0/elements/0/colour');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(work, 'bad.mp4'))).toBe(false);
  });

  // Issue 12: an unknown family used to draw silently in a system face, different on every machine.
  it('refuses a font family that is neither bundled nor declared, listing the available ones', async () => {
    const spec = join(work, 'font.json');
    writeFileSync(
      spec,
      JSON.stringify({
        kinoSpec: 1,
        scenes: [
          {
            duration: '1s',
            elements: [{ type: 'group', children: [{ type: 'text', text: 'x', font: 'Comic Sans MS' }] }],
          },
        ],
      }),
    );
    const result = await runKino(['render', spec, '-q', 'draft', '-o', join(work, 'font.mp4')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/unknown font "Comic Sans MS"/);
    expect(result.stderr).toMatch(/"sans", "serif", "mono", "display"/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(work, 'font.mp4'))).toBe(false);
  });

  it('refuses a poster past the frames rendered, as the API and the workspace do', async () => {
    const output = join(work, 'late-poster.mp4');
    const result = await renderLaunchDraft(['--poster', '1s', '-o', output]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/poster 1s is frame 30, but the render has 3 frames/);
    expect(existsSync(output)).toBe(false);
  });

  it('names a missing asset', async () => {
    const spec = join(work, 'missing.json');
    writeFileSync(
      spec,
      JSON.stringify({
        kinoSpec: 1,
        scenes: [{ duration: 1, elements: [{ type: 'image', src: 'nowhere.png' }] }],
      }),
    );
    const result = await runKino(['render', spec, '-o', join(work, 'missing.mp4')]);
    expect(result.code).toBe(1);
    const errorLines = result.stderr
      .trim()
      .split('\n')
      .filter((line) => !/^kino: (preparing|rendering|encoding|verifying)\b/.test(line));
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toContain('nowhere.png');
  });

  it('lists the known keys for an unknown key', async () => {
    const result = await runKino(['render', 'no-such-key']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/unknown composition key "no-such-key".*launch/);
  });

  it('names an unwritable output path', async () => {
    const locked = join(work, 'locked');
    mkdirLocked(locked);
    const result = await renderLaunchDraft(['-o', join(locked, 'x.mp4')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(locked);
  });

  // Node's recursive mkdir loops forever on /proc (issue 12): the render must fail at once.
  it('refuses an output folder that cannot exist, in one line, without hanging', async () => {
    if (process.platform !== 'linux') return;
    const started = Date.now();
    const result = await renderLaunchDraft(['-o', '/proc/nope/x.mp4']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^kino: cannot write to \/proc\/nope: /);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 30_000);

  it("shows ffmpeg's last lines when ffmpeg fails", async () => {
    const fake = join(work, 'fake-ffmpeg.sh');
    writeFileSync(fake, '#!/bin/sh\necho "Unknown encoder libx264 (fake failure)" >&2\nexit 1\n');
    chmodSync(fake, 0o755);
    const result = await renderLaunchDraft(['-o', join(work, 'ff.mp4')], {
      // The real ffprobe: the media gate probes the soundtrack before the fake ffmpeg fails.
      env: { FFMPEG_PATH: fake, FFPROBE_PATH: ffprobePath() },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('fake failure');
    expect(existsSync(join(work, 'ff.mp4'))).toBe(false);
  });

  it('rejects bad options with a usage exit code', async () => {
    const result = await runKino(['render', 'launch', '--format', 'avi']);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(/mp4, gif, transparent, mov/);
  });
});

describe('kino --version', () => {
  it("prints package.json's version, as --version and -V, and exits 0", async () => {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-V']) {
      const result = await runKino([flag]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(`${version}\n`);
      expect(result.stderr).toBe('');
    }
  });
});

describe("./kino, the README's way to run kino in a checkout", () => {
  it('runs the CLI: the version, then a command with its arguments', () => {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    const launcher = join(REPO_ROOT, 'kino');
    expect(statSync(launcher).mode & 0o111, 'the launcher is executable').not.toBe(0);
    const run = (args: string[]) =>
      spawnSync(launcher, args, { cwd: tmpdir(), encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    const printed = run(['--version']);
    expect(printed.status, printed.stderr).toBe(0);
    expect(printed.stdout).toBe(`${version}\n`);
    const schema = run(['schema']);
    expect(schema.status, schema.stderr).toBe(0);
    expect(JSON.parse(schema.stdout)).toHaveProperty('properties.scenes');
  });

  it('is the only way the README shows: no `npx kino` left to wait a second for npm', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const npxLines = readme.split('\n').filter((line) => /^\s*(\S+=\S+\s+)*npx kino\b/.test(line));
    expect(npxLines).toEqual([]);
    expect(readme).toMatch(/^\.\/kino render /m);
  });
});

describe('kino schema', () => {
  it('prints a draft 2020-12 JSON Schema', async () => {
    const result = await runKino(['schema']);
    expect(result.code).toBe(0);
    const schema = JSON.parse(result.stdout) as { $schema: string; properties: Record<string, unknown> };
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(Object.keys(schema.properties)).toContain('scenes');
  });
});

function mkdirLocked(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  // A regular file where a directory is expected fails for root too (permissions do not stop root).
  writeFileSync(dir, 'not a directory');
}
