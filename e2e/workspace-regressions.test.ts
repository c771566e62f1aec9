// Regressions found by review of the workspace: each case once failed.
import { appendFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BUSY_WAIT,
  cleanupWorkspaces,
  createProject,
  kino,
  openJob,
  raw,
  session,
  sessionJson,
  sleep,
  startWorkspace,
  waitFor,
} from './workspace-harness.ts';

type Json = Record<string, unknown>;

const slow = (frames: string) => `import { video, scene, text, custom } from 'kino';
${BUSY_WAIT}
export default video({ fps: 30, aspect: { width: 360, height: 640 } }, [
  scene({ duration: '2s' }, [
    text('Slow'),
    custom((ctx, info) => {
      if (${frames}) busyWait(1500);
      ctx.fillStyle = '#c33';
      ctx.fillRect(0, 0, 40, 40);
    }),
  ]),
]);
`;

/** 300 frames of 40 ms each: a render of it runs for twelve seconds at least. */
const LONG = `import { video, scene, text, custom } from 'kino';
${BUSY_WAIT}
export default video({ fps: 30, aspect: { width: 320, height: 180 } }, [
  scene({ duration: '10s' }, [
    text('Long'),
    custom((ctx, info) => {
      busyWait(40);
      ctx.fillStyle = '#2a6';
      ctx.fillRect(info.frame % info.width, 0, 40, 40);
    }),
  ]),
]);
`;

afterAll(async () => {
  await cleanupWorkspaces();
});

describe('workspace regressions', () => {
  it('answers a review whose source changed while it ran with 409 stale_result, removing its samples', async () => {
    const project = createProject({ 'r.ts': slow('info.frame > 0') });
    const ws = await startWorkspace(project.path('r.ts'));
    const review = sessionJson(ws.descriptorPath, 'review', '--review-frames', '3');
    await waitFor('the worker to be busy', async () => {
      const status = (await raw(ws, { path: '/status' })).json();
      return (status.worker as Json).state === 'busy';
    });
    await sleep(300);
    appendFileSync(project.path('r.ts'), '// edited during the review\n');
    const { code, json } = await review;
    expect(code).toBe(1);
    expect(json).toMatchObject({ status: 409, code: 'stale_result' });
    const reviews = join(ws.resultsDir, 'reviews');
    expect(existsSync(reviews) ? readdirSync(reviews) : []).toEqual([]);
  });

  it('stops a render whose source changes while it draws: 409 stale_result then, not at the end', async () => {
    const project = createProject({ 'long.ts': LONG });
    const ws = await startWorkspace(project.path('long.ts'));
    const warm = await sessionJson(ws.descriptorPath, 'frame', '--frame', '0');
    expect(warm.code).toBe(0);
    const revision = warm.json.sourceRevision as string;

    const render = openJob(ws, { operation: 'render' });
    await render.line(
      (line) => line.type === 'progress' && line.stage === 'rendering' && line.framesDone > 0,
      60_000,
    );
    const editedAt = performance.now();
    appendFileSync(project.path('long.ts'), '// edited while it renders\n');
    await render.ended;
    const waited = performance.now() - editedAt;

    const last = render.lines.at(-1)!;
    expect(last.type, JSON.stringify(last)).toBe('problem');
    const problem = (last as Extract<typeof last, { type: 'problem' }>).problem as Json;
    expect(problem).toMatchObject({ status: 409, code: 'stale_result', capturedRevision: revision });
    expect(problem.currentRevision).not.toBe(revision);
    expect(problem.detail).toMatch(/the render was stopped, run it again/);
    // Stopped at the change: the frames left would have taken ten seconds more.
    expect(waited).toBeLessThan(5000);
    const drawn = Math.max(
      ...render.lines.map((line) =>
        line.type === 'progress' && line.stage === 'rendering' ? line.framesDone : 0,
      ),
    );
    expect(drawn).toBeLessThan(300);
    // Nothing of it is kept, not even the encoder's partial file.
    const renders = join(ws.resultsDir, 'renders');
    await waitFor('the partial render to be removed', () =>
      existsSync(renders) ? readdirSync(renders).length === 0 : true,
    );

    // The next capture runs at the new revision.
    const next = await sessionJson(ws.descriptorPath, 'frame', '--frame', '1');
    expect(next.code).toBe(0);
    expect(next.json.sourceRevision).toBe(problem.currentRevision);
  });

  it('gives a waiting request’s place up when its client goes away', async () => {
    const project = createProject({ 'q.ts': slow('true') });
    const ws = await startWorkspace(project.path('q.ts'));
    await sessionJson(ws.descriptorPath, 'status');
    const gaveUp = await Promise.all(
      [1, 2, 3, 4].map((frame) =>
        session(ws.descriptorPath, 'frame', '--frame', String(frame), '--timeout', '1'),
      ),
    );
    expect(gaveUp.map((run) => run.code)).toEqual([1, 1, 1, 1]);
    const status = await waitFor('the waiting requests to be dropped', async () => {
      const body = (await raw(ws, { path: '/status' })).json();
      return ((body.queue as Json).waiting as number) === 0 ? body : undefined;
    });
    expect((status.queue as Json).waiting).toBe(0);
    // A new request is admitted (it waits for at most the one still running).
    const next = await sessionJson(ws.descriptorPath, 'frame', '--frame', '0');
    expect(next.code).toBe(0);
  });

  it('clears compile_failed once the missing import is created, without touching the importer', async () => {
    const project = createProject({
      'm.ts': `import { video, scene, text } from 'kino';
import { title } from './helper.ts';
export default video({ fps: 30, aspect: { width: 360, height: 640 } }, [scene({ duration: '1s' }, [text(title)])]);
`,
    });
    const ws = await startWorkspace(project.path('m.ts'));
    const broken = await sessionJson(ws.descriptorPath, 'frame', '--frame', '0');
    expect(broken.code).toBe(1);
    expect(broken.json.code).toBe('compile_failed');
    project.write('helper.ts', "export const title = 'Fixed';\n");
    const fixed = await sessionJson(ws.descriptorPath, 'frame', '--frame', '0');
    expect(fixed.code).toBe(0);
  });

  it('names frames by aspect, so a frame at another aspect never replaces one already returned', async () => {
    const project = createProject({
      'a.ts': `import { video, scene, text } from 'kino';
export default video({ fps: 30 }, [scene({ duration: '1s' }, [text('Aspect')])]);
`,
    });
    const ws = await startWorkspace(project.path('a.ts'));
    const reels = await sessionJson(ws.descriptorPath, 'frame', '--frame', '3');
    const square = await sessionJson(ws.descriptorPath, 'frame', '--frame', '3', '--aspect', 'square');
    const paths = [reels, square].map((run) => (run.json.frame as Json).path as string);
    expect(paths[0]).not.toBe(paths[1]);
    expect(paths.every((path) => existsSync(path))).toBe(true);
  });

  it('checks --revision for status and source too', async () => {
    const project = createProject({
      's.ts': `import { video, scene, text } from 'kino';
export default video({ fps: 30 }, [scene({ duration: '1s' }, [text('Rev')])]);
`,
    });
    const ws = await startWorkspace(project.path('s.ts'));
    const status = await sessionJson(ws.descriptorPath, 'status');
    const current = status.json.sourceRevision as string;
    expect((await session(ws.descriptorPath, 'source', '--revision', current)).code).toBe(0);
    const stale = await session(ws.descriptorPath, 'source', '--revision', 'deadbeefdeadbeef');
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain(current);
  });

  it('refuses a token in the query string however it is spelled', async () => {
    const project = createProject({
      't.ts': `import { video, scene, text } from 'kino';
export default video({ fps: 30 }, [scene({ duration: '1s' }, [text('Q')])]);
`,
    });
    const ws = await startWorkspace(project.path('t.ts'));
    for (const query of [`?Token=${ws.token}`, `?a=1?token=${ws.token}`, `?X-Kino-Token=${ws.token}`]) {
      const answer = await raw(ws, { path: `/status${query}` });
      expect(answer.status, query).toBe(400);
    }
  });

  it('refuses to serve a source file that does not exist', async () => {
    const project = createProject({});
    const missing = await kino(['workspace', project.path('nope.ts')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\.ts does not exist/);
  });
});
