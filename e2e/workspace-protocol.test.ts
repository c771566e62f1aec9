// The workspace's HTTP guards, seen from outside: the real `kino workspace` in its own process and
// raw HTTP requests that a browser page, a confused client or an attacker on the same machine could
// send. Host and Origin checks, the token, the artifact route's containment, body limits and field
// errors, the queue limit and the source size limit.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUSY_WAIT,
  cleanupWorkspaces,
  createProject,
  raw,
  startWorkspace,
  waitFor,
} from './workspace-harness.ts';
import type { RawAnswer, StartedWorkspace, TempProject } from './workspace-harness.ts';

/** Frames 0–44 draw at once; frames 45 and later busy-wait about a second each. */
const SLOW_FRAME = 45;
const COMPOSITION = `import { video, scene, text, custom } from 'kino';
${BUSY_WAIT}
export default video({ fps: 30, aspect: { width: 360, height: 640 } }, [
  scene({ duration: '2s' }, [
    text('Guarded'),
    custom((ctx, info) => {
      if (info.frame >= ${SLOW_FRAME}) busyWait(1000);
      ctx.fillStyle = '#2a6';
      ctx.fillRect(0, 0, info.width / 4, info.height / 4);
    }),
  ]),
]);
`;

interface Problem {
  status: number;
  code: string;
  detail: string;
  errors?: { pointer: string; message: string }[];
}

function expectProblem(answer: RawAnswer, status: number, code: string): Problem {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  const problem = answer.json() as unknown as Problem;
  expect(problem).toMatchObject({ status, code });
  expect(problem.detail).toEqual(expect.any(String));
  return problem;
}

const pointers = (problem: Problem) => (problem.errors ?? []).map((e) => e.pointer);

describe('workspace protocol guards (kino workspace over HTTP)', () => {
  let project: TempProject;
  let ws: StartedWorkspace;
  let source: string;

  beforeAll(async () => {
    project = createProject({ 'guarded.ts': COMPOSITION });
    source = project.path('guarded.ts');
    ws = await startWorkspace(source);
  });

  afterAll(async () => {
    await cleanupWorkspaces();
  });

  describe('who may talk to it', () => {
    it('answers a request with its token, its own Host and its own Origin', async () => {
      for (const host of [`127.0.0.1:${ws.port}`, `localhost:${ws.port}`, `[::1]:${ws.port}`]) {
        const answer = await raw(ws, { path: '/status', headers: { host, origin: `http://${host}` } });
        expect(answer.status, `${host}: ${answer.text}`).toBe(200);
        expect(answer.json()).toMatchObject({ source, compiles: true, backend: 'skia' });
      }
    });

    it('refuses a foreign Host (DNS rebinding) with 403 even with the right token', async () => {
      for (const host of [
        'evil.example',
        `evil.example:${ws.port}`,
        '127.0.0.1',
        `127.0.0.1:${ws.port + 1}`,
      ]) {
        const problem = expectProblem(
          await raw(ws, { path: '/status', headers: { host } }),
          403,
          'forbidden_host',
        );
        expect(problem.detail).toContain(host);
      }
      // A job is refused before it runs: nothing is queued or drawn.
      const job = await raw(ws, {
        path: '/jobs',
        headers: { host: 'evil.example' },
        body: { operation: 'frame', frameIndex: 0 },
      });
      expectProblem(job, 403, 'forbidden_host');
    });

    it("refuses another site's Origin with 403 even with the right token", async () => {
      for (const origin of [
        'http://evil.example',
        `http://127.0.0.1:${ws.port + 1}`,
        'null',
        `https://127.0.0.1:${ws.port}`,
      ]) {
        const problem = expectProblem(
          await raw(ws, { path: '/status', headers: { origin } }),
          403,
          'forbidden_origin',
        );
        expect(problem.detail).toContain(origin);
      }
      expectProblem(
        await raw(ws, {
          path: '/jobs',
          headers: { origin: 'http://evil.example' },
          body: { operation: 'inspect' },
        }),
        403,
        'forbidden_origin',
      );
    });

    it('refuses a missing or wrong token with 401', async () => {
      expectProblem(await raw(ws, { path: '/status', token: null }), 401, 'unauthorized');
      expectProblem(await raw(ws, { path: '/status', token: '' }), 401, 'unauthorized');
      expectProblem(
        await raw(ws, { path: '/status', token: 'x'.repeat(ws.token.length) }),
        401,
        'unauthorized',
      );
      const flipped = (ws.token[0] === 'a' ? 'b' : 'a') + ws.token.slice(1);
      expectProblem(await raw(ws, { path: '/source', token: flipped }), 401, 'unauthorized');
      expectProblem(
        await raw(ws, { path: '/jobs', token: null, body: { operation: 'frame', frameIndex: 0 } }),
        401,
        'unauthorized',
      );
    });

    it('refuses a token in the query string with 400, even next to the right header', async () => {
      for (const query of [`token=${ws.token}`, `x-kino-token=${ws.token}`, 'token=anything']) {
        const answer = await raw(ws, { path: `/status?${query}` });
        const problem = expectProblem(answer, 400, 'token_in_query');
        // The answer never repeats the URL's token.
        expect(answer.text).not.toContain(ws.token);
        expect(problem).not.toHaveProperty('instance', expect.stringContaining('?'));
      }
    });
  });

  describe('GET /artifact', () => {
    let framePath: string;
    let outside: string;

    beforeAll(async () => {
      const answer = await raw(ws, { path: '/jobs', body: { operation: 'frame', frameIndex: 2 } });
      expect(answer.status, answer.text).toBe(200);
      framePath = (answer.json().frame as { path: string }).path;
      expect(framePath.startsWith(ws.resultsDir + '/')).toBe(true);
      outside = project.write('secret.txt', 'not for the workspace to serve\n');
    });

    const artifact = (path: string) => raw(ws, { path: `/artifact?path=${path}` });

    it('serves a real result file with its bytes', async () => {
      const answer = await artifact(encodeURIComponent(framePath));
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers['content-type']).toBe('image/png');
      expect(answer.body.equals(readFileSync(framePath))).toBe(true);
      expect(Number(answer.headers['content-length'])).toBe(readFileSync(framePath).length);
    });

    it('refuses ../ out of the results folder, plain and percent-encoded', async () => {
      const target = join(dirname(ws.resultsDir), 'session.json');
      expect(existsSync(target)).toBe(true);
      const escapes = [
        `${ws.resultsDir}/../session.json`,
        `${ws.resultsDir}/frames/../../session.json`,
        encodeURIComponent(`${ws.resultsDir}/../session.json`),
        `${ws.resultsDir}/%2e%2e%2fsession.json`,
        `${ws.resultsDir}%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f${encodeURIComponent(relative('/', outside))}`,
        `${ws.resultsDir}/%2E%2E/%2E%2E/%2E%2E/${relative('/', outside)}`,
        `${ws.resultsDir}/..%2f..%2f..%2f${relative('/', outside)}`,
      ];
      for (const path of escapes) {
        const answer = await artifact(path);
        expectProblem(answer, 404, 'not_found');
        expect(answer.text).not.toContain(ws.token);
        expect(answer.text).not.toContain('not for the workspace');
      }
    });

    it('refuses a relative path, even one that names a result file relative to the results folder', async () => {
      const inside = relative(ws.resultsDir, framePath);
      expect(existsSync(join(ws.resultsDir, inside))).toBe(true);
      for (const path of [inside, `./${inside}`, relative(process.cwd(), framePath), 'session.json', '']) {
        const answer = await artifact(encodeURIComponent(path));
        expect([400, 404], `${path}: ${answer.text}`).toContain(answer.status);
        expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      }
      expectProblem(await artifact(encodeURIComponent(inside)), 404, 'not_found');
    });

    it('refuses a symlink inside results that points outside (to a file or through a folder)', async () => {
      const fileLink = join(ws.resultsDir, 'escape.png');
      symlinkSync(outside, fileLink);
      const outsideDir = project.path('outside');
      mkdirSync(outsideDir);
      writeFileSync(join(outsideDir, 'frame.png'), 'also not to be served\n');
      const dirLink = join(ws.resultsDir, 'linked');
      symlinkSync(outsideDir, dirLink);
      expect(readFileSync(fileLink, 'utf8')).toContain('not for the workspace');

      for (const path of [fileLink, join(dirLink, 'frame.png')]) {
        const answer = await artifact(encodeURIComponent(path));
        expectProblem(answer, 404, 'not_found');
        expect(answer.text).not.toContain('not to be served');
        expect(answer.text).not.toContain('not for the workspace');
      }
      // A link that stays inside the results folder is a result file like any other.
      const innerLink = join(ws.resultsDir, 'latest.png');
      symlinkSync(framePath, innerLink);
      const inner = await artifact(encodeURIComponent(innerLink));
      expect(inner.status, inner.text).toBe(200);
      expect(inner.body.equals(readFileSync(framePath))).toBe(true);
    });

    it('refuses a sibling folder that shares the results prefix (results-evil/)', async () => {
      const sibling = `${ws.resultsDir}-evil`;
      mkdirSync(sibling);
      const file = join(sibling, 'frame.png');
      writeFileSync(file, 'sibling bytes\n');
      const answer = await artifact(encodeURIComponent(file));
      expectProblem(answer, 404, 'not_found');
      expect(answer.text).not.toContain('sibling bytes');
    });

    it('answers a missing file and a folder inside results with 404', async () => {
      expectProblem(await artifact(encodeURIComponent(join(ws.resultsDir, 'nope.png'))), 404, 'not_found');
      expectProblem(await artifact(encodeURIComponent(dirname(framePath))), 404, 'not_found');
    });
  });

  describe('POST /jobs bodies', () => {
    it('refuses a body over 64 KiB with 413 before parsing it', async () => {
      const body = JSON.stringify({ operation: 'inspect', sourceRevision: 'x'.repeat(65 * 1024) });
      expect(Buffer.byteLength(body)).toBeGreaterThan(64 * 1024);
      expectProblem(await raw(ws, { path: '/jobs', body }), 413, 'body_too_large');
    });

    it('names the field of an unknown field, a wrong type, an unknown enum value and a missing frameIndex', async () => {
      const cases: [unknown, string][] = [
        [{ operation: 'inspect', bogus: true }, '/bogus'],
        [{ operation: 'frame', frameIndex: '3' }, '/frameIndex'],
        [{ operation: 'frame', frameIndex: 1.5 }, '/frameIndex'],
        [{ operation: 'frame', frameIndex: -1 }, '/frameIndex'],
        [{ operation: 'render', frameCount: 0 }, '/frameCount'],
        [{ operation: 'review', reviewFrames: 25 }, '/reviewFrames'],
        [{ operation: 'explode' }, '/operation'],
        [{ operation: 'render', format: 'avi' }, '/format'],
        [{ operation: 'render', quality: 'ultra' }, '/quality'],
        [{ operation: 'inspect', aspect: 'cinema' }, '/aspect'],
        [{ operation: 'review', allowQuality: ['not_a_code'] }, '/allowQuality/0'],
        [{ operation: 'review', strictQuality: 'yes' }, '/strictQuality'],
        [{ operation: 'frame' }, '/frameIndex'],
        [{ frameIndex: 0 }, '/operation'],
      ];
      for (const [body, pointer] of cases) {
        const answer = await raw(ws, { path: '/jobs', body });
        const problem = expectProblem(answer, 400, 'validation_failed');
        expect(pointers(problem), JSON.stringify(body)).toContain(pointer);
      }
      // Several problems at once are all named.
      const many = expectProblem(
        await raw(ws, { path: '/jobs', body: { operation: 'frame', frameIndex: 'x', extra: 1 } }),
        400,
        'validation_failed',
      );
      expect(pointers(many)).toEqual(expect.arrayContaining(['/frameIndex', '/extra']));
    });

    it('refuses malformed JSON and a prototype-poisoning key', async () => {
      expectProblem(await raw(ws, { path: '/jobs', body: '{"operation":' }), 400, 'invalid_json');
      expectProblem(
        await raw(ws, { path: '/jobs', body: '{"operation":"inspect","__proto__":{"x":1}}' }),
        400,
        'invalid_json',
      );
    });
  });

  it('refuses a 5th concurrent request with 429 queue_full, and admits again once one finishes', async () => {
    const slow = (frameIndex: number) => raw(ws, { path: '/jobs', body: { operation: 'frame', frameIndex } });
    const admitted = [0, 1, 2, 3].map((i) => slow(SLOW_FRAME + i));
    // All four are admitted (1 running, 3 waiting) before the 5th is sent.
    await waitFor('4 admitted requests', async () => {
      const queue = (await raw(ws, { path: '/status' })).json().queue as Record<string, number>;
      return queue.depth === 4 && queue;
    });
    const status = (await raw(ws, { path: '/status' })).json();
    expect(status.queue).toMatchObject({ depth: 4, running: 1, waiting: 3, limit: 4 });

    const fifth = await raw(ws, { path: '/jobs', body: { operation: 'frame', frameIndex: 0 } });
    const problem = expectProblem(fifth, 429, 'queue_full');
    expect(fifth.headers['retry-after']).toBe('1');
    expect(problem.detail).toMatch(/4 requests/);

    const answers = await Promise.all(admitted);
    for (const [i, answer] of answers.entries()) {
      expect(answer.status, answer.text).toBe(200);
      expect((answer.json().frame as { index: number }).index).toBe(SLOW_FRAME + i);
    }
    const after = await raw(ws, { path: '/jobs', body: { operation: 'frame', frameIndex: 0 } });
    expect(after.status, after.text).toBe(200);
    expect((await raw(ws, { path: '/status' })).json().queue).toMatchObject({ depth: 0 });
  });

  describe('GET /source', () => {
    it('returns the source text, its size and its revision', async () => {
      const answer = await raw(ws, { path: '/source' });
      expect(answer.status, answer.text).toBe(200);
      const body = answer.json();
      expect(body.text).toBe(COMPOSITION);
      expect(body.bytes).toBe(Buffer.byteLength(COMPOSITION));
      expect(body.source).toBe(source);
      expect(body.sourceRevision).toBe((await raw(ws, { path: '/status' })).json().sourceRevision);
    });

    it('refuses a source over 256 KiB with 413 source_too_large', async () => {
      const big = `${COMPOSITION}\n/* ${'padding '.repeat(33 * 1024)} */\n`;
      expect(Buffer.byteLength(big)).toBeGreaterThan(256 * 1024);
      writeFileSync(source, big);
      try {
        const problem = expectProblem(await raw(ws, { path: '/source' }), 413, 'source_too_large');
        expect(problem.detail).toContain(source);
      } finally {
        writeFileSync(source, COMPOSITION);
      }
      const answer = await raw(ws, { path: '/source' });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json().text).toBe(COMPOSITION);
    });
  });

  it('answers an unknown route with a problem, not a stack trace', async () => {
    expectProblem(await raw(ws, { path: '/nope' }), 404, 'not_found');
    expectProblem(await raw(ws, { path: '/nope', token: null }), 401, 'unauthorized');
  });
});
