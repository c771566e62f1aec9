// Encoder settings in the authoring workspace: a render job's encoder field is checked against its
// format in the workspace itself (problem+json at /encoder/<field>), and `kino session … render`
// takes the same flags as `kino render`, the receipt naming the settings used.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeFile } from '../main/ffmpeg/probe.ts';
import {
  cleanupWorkspaces,
  createProject,
  raw,
  sessionJson,
  session,
  startWorkspace,
} from './workspace-harness.ts';
import type { StartedWorkspace } from './workspace-harness.ts';

const COMPOSITION = `import { video, scene, text } from 'kino';
export default video({ fps: 30, aspect: { width: 320, height: 240 } }, [
  scene({ duration: '1s' }, [text('Encoder')]),
]);
`;

describe('workspace render with encoder settings', () => {
  let ws: StartedWorkspace;

  beforeAll(async () => {
    const project = createProject({ 'film.ts': COMPOSITION });
    ws = await startWorkspace(project.path('film.ts'));
  });
  afterAll(cleanupWorkspaces);

  it('refuses a setting the format does not use, at its pointer', async () => {
    const answer = await raw(ws, {
      path: '/jobs',
      body: { operation: 'render', format: 'gif', frameCount: 2, encoder: { crf: 20 } },
    });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(answer.json()).toMatchObject({
      code: 'validation_failed',
      errors: [
        {
          pointer: '/encoder/crf',
          message: 'gif has no CRF: crf applies to mp4 (libx264, 0–51) and transparent (VP9, 0–63)',
        },
      ],
    });
    const unknown = await raw(ws, { path: '/jobs', body: { operation: 'render', encoder: { crf: 70 } } });
    expect(unknown.status).toBe(400);
  });

  it('renders with the flags of kino session … render, and names them in the receipt', async () => {
    const run = await sessionJson(
      ws.descriptorPath,
      'render',
      '--frames',
      '3',
      '--quality',
      'draft',
      '--crf',
      '35',
      '--preset',
      'ultrafast',
      '--pixel-format',
      'yuv422p',
    );
    expect(run.code, run.stderr).toBe(0);
    const result = run.json as {
      artifact: { path: string };
      receipt: {
        options: { encoder: Record<string, unknown> };
        output: { probe: { video: { pixFmt: string } } };
      };
    };
    // Another choice of settings is another file: the settings are in its name.
    expect(result.artifact.path).toMatch(/-first3-draft-enc[0-9a-f]{8}\.mp4$/);
    expect(result.receipt.options.encoder).toEqual({
      codec: 'libx264',
      preset: 'ultrafast',
      crf: 35,
      pixelFormat: 'yuv422p',
    });
    expect((await probeFile(result.artifact.path)).video?.pixFmt).toBe('yuv422p');

    const refused = await session(ws.descriptorPath, 'render', '--format', 'mov', '--crf', '10');
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain('--crf: mov has no CRF');
  });
});
