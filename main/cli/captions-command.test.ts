// `kino captions` as a user runs it: a real process, a real render checked with ffprobe, and the
// one-line refusals of inputs it cannot caption.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { probeFile } from '../ffmpeg/probe.ts';
import { runKino } from './test-kino.fixture.ts';
import type { KinoRun } from './test-kino.fixture.ts';

const ASSETS = fileURLToPath(new URL('../../examples/assets/', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'kino-captions-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Outside any project, in folders of their own: the command must find its project from the clip.
const clip = join(work, 'footage', 'waves.mp4');
const subtitles = join(work, 'footage', 'subs', 'waves.srt');
mkdirSync(join(work, 'footage', 'subs'), { recursive: true });
copyFileSync(join(ASSETS, 'clip-waves.mp4'), clip);
copyFileSync(join(ASSETS, 'captions', 'waves.srt'), subtitles);

function runCaptions(args: string[]): Promise<KinoRun> {
  return runKino(['captions', ...args], {
    cwd: work,
    env: { ...process.env, KINO_CACHE_DIR: join(work, 'cache') },
  });
}

describe('kino captions', () => {
  it('renders the clip with its captions to a verified mp4 of the clip’s size, with a receipt', async () => {
    const out = join(work, 'out', 'reel.mp4');
    const result = await runCaptions([
      clip,
      subtitles,
      '--style',
      'pop',
      '-q',
      'draft',
      '--frames',
      '6',
      '-o',
      out,
      '--json',
    ]);
    expect(result.stderr).not.toMatch(/at .*\.ts:\d+/);
    expect(result.code).toBe(0);
    // The sample SRT runs to 5.8 s over a 4 s clip: its last cue is named, not dropped in silence.
    expect(result.stderr).toContain(
      'kino: warning: 1 of 3 cues in ' +
        subtitles +
        ' start after the clip ends at 4.00 s and will not show (cue 3 at 4.20 s)',
    );
    const printed = JSON.parse(result.stdout) as {
      receiptPath: string;
      receipt: { inputs: { files: { role: string; path?: string }[] } };
    };
    const probe = await probeFile(out);
    expect(probe.video).toMatchObject({ codec: 'h264', frames: 6 });
    // The clip is 1280×720; draft quality draws at half size.
    expect([probe.video?.width, probe.video?.height]).toEqual([640, 360]);
    expect(probe.audio?.codec).toBe('aac');
    expect(existsSync(printed.receiptPath)).toBe(true);
    expect(printed.receipt.inputs.files).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ role: 'video', path: clip }),
        expect.objectContaining({ role: 'captions', path: subtitles }),
      ]),
    );
  });

  it('refuses a malformed SRT file with the cue and line, before rendering', async () => {
    const bad = join(work, 'bad.srt');
    writeFileSync(bad, '1\n00:00:01,000 --> 00:00:02,000\nhi\n\n2\n00:00:03,000 --> 00:00:02,500\nbad\n');
    const result = await runCaptions([clip, bad, '-o', join(work, 'bad.mp4')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `kino: ${bad}: SRT cue 2 (line 6): end timestamp is not greater than start timestamp\n`,
    );
    expect(existsSync(join(work, 'bad.mp4'))).toBe(false);
  });

  it.each([
    [
      'a missing clip',
      ['missing.mp4', subtitles],
      1,
      /^kino: clip missing\.mp4 not found: check the path\n$/,
    ],
    [
      'a clip without video',
      [join(ASSETS, 'music-loop.m4a'), subtitles],
      1,
      /^kino: clip .*music-loop\.m4a has no video stream: give a video file/,
    ],
    [
      'an unknown style',
      [clip, subtitles, '--style', 'fancy'],
      64,
      /'fancy' is invalid\. Allowed choices are subtitle, pop, karaoke/,
    ],
  ])('refuses %s in one line', async (_name, args, code, message) => {
    const result = await runCaptions(args);
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
  });
});
