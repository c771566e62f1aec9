// kino review as a CLI-only agent runs it: findings with pointers and remedies, exit 2 on an error.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrintedFinding } from '../main/cli/review-command.ts';
import { REPO_ROOT, runKino } from './cli-helpers.ts';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'kino-cli-review-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const spec = (elements: unknown[]) => ({
  kinoSpec: 1,
  aspect: 'square',
  scenes: [{ duration: '2s', background: '#101826', elements }],
});

describe('kino review', () => {
  it('prints each finding at its pointer with its remedy, and exits 2 when one is an error', async () => {
    const file = join(work, 'flawed.json');
    writeFileSync(
      file,
      JSON.stringify(
        spec([
          { type: 'text', text: 'Tiny words', size: 12, color: '#ffffff' },
          { type: 'image', src: 'asset:nowhere.png', width: 200, height: 200, y: 0.8 },
        ]),
      ),
    );
    const result = await runKino(['review', file], { cwd: work });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toMatch(/^error missing_asset 0s–2s \/scenes\/0\/elements\/1: /m);
    expect(result.stdout).toMatch(/^warning text_too_small 0s–2s \/scenes\/0\/elements\/0: /m);
    expect(result.stdout).toMatch(/^ {2}fix: raise size to at least \d+/m);
    expect(result.stdout).toMatch(/1 error, 1 warning on 24 sampled frames of 60 \(1080×1080\)/);

    const json = await runKino(['review', file, '--json'], { cwd: work });
    expect(json.code).toBe(2);
    const report = JSON.parse(json.stdout) as { findings: PrintedFinding[]; errors: number; samples: number };
    expect(report.errors).toBe(1);
    expect(report.findings.find((finding) => finding.code === 'text_too_small')).toMatchObject({
      severity: 'warning',
      pointer: '/scenes/0/elements/0',
      remedy: expect.stringMatching(/size/),
    });
  });

  it('exits 0 on a clean spec, and reviews a code composition by its path', async () => {
    const clean = join(work, 'clean.json');
    writeFileSync(
      clean,
      JSON.stringify(spec([{ type: 'text', text: 'Hello Kino', size: 96, color: '#ffffff' }])),
    );
    const result = await runKino(['review', clean], { cwd: work });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('no findings on 24 sampled frames of 60 (1080×1080)');

    const composition = join(REPO_ROOT, 'examples', 'compositions', 'product-launch.ts');
    const code = await runKino(['review', composition, '--json'], { cwd: work });
    expect([0, 2]).toContain(code.code);
    expect(JSON.parse(code.stdout)).toMatchObject({ samples: 24 });
  });

  it('refuses an invalid spec in one line with exit 1, before any frame is drawn', async () => {
    const file = join(work, 'invalid.json');
    writeFileSync(file, JSON.stringify({ kinoSpec: 1, scenes: [{ duration: 'soon' }] }));
    const result = await runKino(['review', file], { cwd: work });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `kino: ${file}: invalid spec (1 error: /scenes/0/duration: expected a time like "2s", "500ms", "45f" or a number of seconds)`,
    );
  });

  it("refuses a project's .env named as captions: no render, no secret on a frame or in a message", async () => {
    const project = join(work, 'secret-project');
    mkdirSync(project);
    writeFileSync(join(project, 'kino.json'), '{}');
    // A .env that happens to parse as SRT would otherwise be drawn as subtitles.
    writeFileSync(join(project, '.env'), '1\n00:00:00,000 --> 00:00:02,000\nAPI_KEY=sk-live-0123456789\n');
    const file = join(project, 'leak.json');
    writeFileSync(file, JSON.stringify(spec([{ type: 'captions', srt: '.env' }])));
    const rendered = await runKino(['render', file, '-q', 'draft', '-o', join(project, 'leak.mp4')], {
      cwd: project,
    });
    expect(rendered.code).toBe(1);
    expect(rendered.stderr).toMatch(
      /media source ".env" cannot be used: a dotfile .* is private to the project/,
    );
    expect(existsSync(join(project, 'leak.mp4'))).toBe(false);
    const reviewed = await runKino(['review', file, '--json'], { cwd: project });
    expect(reviewed.code).toBe(2);
    expect(reviewed.stdout).toMatch(/media_private_file/);
    expect(rendered.stderr + reviewed.stdout).not.toContain('sk-live-0123456789');
  });
});
