// Templates as a user meets them on the command line: `kino templates`, `kino render --var/--vars`
// to a file ffprobe verifies, and a code template driven through a workspace with `kino session
// --var`, each bad value refused in one line that names the variable.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeFile } from '../main/ffmpeg/probe.ts';
import {
  cleanupWorkspaces,
  createProject,
  kino,
  session,
  sessionJson,
  startWorkspace,
} from './workspace-harness.ts';

afterAll(async () => {
  await cleanupWorkspaces();
});

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

const CODE_TEMPLATE = `import { rect, scene, template, text, video } from 'kino';
export default template(
  { label: { type: 'string', default: 'Default' }, width: { type: 'number', default: 120, min: 10 } },
  (v) =>
    video({ fps: 30, aspect: { width: 320, height: 320 } }, [
      scene({ duration: '1s' }, [rect({ width: v.width * 2, height: 40, fill: '#16a34a', y: 0.2 }), text(v.label)]),
    ]),
);
`;

describe('templates on the command line', () => {
  it('kino templates lists the examples with their variables, and --json for machines', async () => {
    const listed = await kino(['templates']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^quote-card {2}Quote card: \{\{author\}\} {2}\(spec\)$/m);
    expect(listed.stdout).toMatch(/^ {2}rating +number +\S+ 4\.8 \(≥ 0, ≤ 5\)/m);
    const json = await kino(['templates', '--json']);
    const templates = (JSON.parse(json.stdout) as { templates: { key: string }[] }).templates;
    expect(templates.map((template) => template.key)).toEqual([
      'product-promo',
      'quote-card',
      'stats-recap',
      'talking-head',
    ]);
  });

  it('renders a template with --var and --vars to a verified file, the values in the receipt', async () => {
    const project = createProject();
    const values = project.path('values.json');
    writeFileSync(values, JSON.stringify({ author: 'From the file', role: 'Kept' }));
    const output = project.path('card.mp4');
    const run = await kino(
      [
        'render',
        'quote-card',
        '-q',
        'draft',
        '--frames',
        '8',
        '--vars',
        values,
        '--var',
        'author=Ada',
        '--json',
        '-o',
        output,
      ],
      { timeoutMs: 120_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    const probe = await probeFile(output);
    expect(probe.video).toMatchObject({ codec: 'h264', width: 540, height: 540, frames: 8 });
    const receipt = JSON.parse(readFileSync(project.path('card.render.json'), 'utf8')) as {
      inputs: { request: Record<string, unknown> };
    };
    // --var wins over the file; values are recorded as given.
    expect(receipt.inputs.request.variables).toEqual({ author: 'Ada', role: 'Kept' });
  });

  it('refuses bad values in one line naming the variable', async () => {
    const unknown = await kino(['frame', 'quote-card', '--frame', '0', '--var', 'colour=red']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    expect(unknown.stderr).toContain(
      'unknown variable "colour": this template declares accent, author, photo, quote, role',
    );
    const wrongType = await kino(['frame', 'stats-recap', '--frame', '0', '--var', 'users=many']);
    expect(wrongType.code).toBe(1);
    expect(wrongType.stderr).toContain('variable "users" (number): expected a number, got "many"');
    const malformed = await kino(['frame', 'quote-card', '--frame', '0', '--var', 'author']);
    expect(malformed.code).toBe(64);
    expect(malformed.stderr).toContain('expected name=value');
  });

  it('drives a code template through a workspace with kino session --var', { timeout: 120_000 }, async () => {
    const project = createProject({ 'card.ts': CODE_TEMPLATE });
    const ws = await startWorkspace(project.path('card.ts'));
    const plain = await sessionJson(ws.descriptorPath, 'frame', '--frame', '10');
    const filled = await sessionJson(
      ws.descriptorPath,
      'frame',
      '--frame',
      '10',
      '--var',
      'label=Filled',
      '--var',
      'width=60',
    );
    expect(plain.code, plain.stderr).toBe(0);
    expect(filled.code, filled.stderr).toBe(0);
    const plainFile = (plain.json.frame as { path: string }).path;
    const filledFile = (filled.json.frame as { path: string }).path;
    // Other values are another picture, in a file of its own.
    expect(path.basename(path.dirname(filledFile))).toMatch(/\.v[0-9a-f]{8}$/);
    expect(filledFile).not.toBe(plainFile);
    expect(sha256(filledFile)).not.toBe(sha256(plainFile));

    const bad = await session(ws.descriptorPath, 'frame', '--frame', '10', '--var', 'width=5');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('variable "width" (number): must be at least 10');
  });
});
