// What the desktop studio needs from the workspace, seen from outside over real HTTP: the NDJSON
// progress stream of POST /jobs, cancelling a job by going away (streamed, plain, and Ctrl+C in
// `kino session`), render posters, and saving the source with PUT /source.
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_STAGES } from '../shared/protocol/workspace.ts';
import type { JobAnswer, OperationProgress, JobStreamLine } from '../shared/protocol/workspace.ts';
import {
  BUSY_WAIT,
  cleanupWorkspaces,
  createProject,
  openJob,
  pngSize,
  processGone,
  raw,
  session,
  sessionJson,
  spawnKino,
  startWorkspace,
  waitFor,
  waitUntilGone,
} from './workspace-harness.ts';
import type { RawAnswer, StartedWorkspace, TempProject } from './workspace-harness.ts';

const WIDTH = 320;
const HEIGHT = 180;
/** Every frame takes about this long to draw: a full render (60 frames) runs for seconds. */
const FRAME_MS = 40;
const COMPOSITION = `import { video, scene, text, custom } from 'kino';
${BUSY_WAIT}
export default video({ fps: 30, aspect: { width: ${WIDTH}, height: ${HEIGHT} } }, [
  scene({ duration: '2s', background: '#123' }, [
    text('Streaming', { size: 40 }),
    custom((ctx, info) => {
      busyWait(${FRAME_MS});
      ctx.fillStyle = '#2a6';
      ctx.fillRect((info.frame * 2) % info.width, 0, 40, 40);
    }),
  ]),
]);
`;

type Json = Record<string, unknown>;
type Progress = Extract<JobStreamLine, { type: 'progress' }>;

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const isProgress = (line: JobStreamLine): line is Progress => line.type === 'progress';

function expectProblem(answer: RawAnswer, status: number, code: string): Json {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  const problem = answer.json();
  expect(problem).toMatchObject({ status, code, detail: expect.any(String) });
  return problem;
}

/** The stream's shape: progress lines only, then exactly one result or problem, last. */
function lastLine(lines: JobStreamLine[]): JobStreamLine {
  expect(lines.length).toBeGreaterThan(0);
  const last = lines.at(-1)!;
  expect(last.type, JSON.stringify(lines)).not.toBe('progress');
  expect(lines.slice(0, -1).every(isProgress), JSON.stringify(lines)).toBe(true);
  return last;
}

afterAll(async () => {
  await cleanupWorkspaces();
});

describe('POST /jobs streamed, canceled, with a poster', () => {
  let project: TempProject;
  let ws: StartedWorkspace;
  let rendersDir: string;
  let stem: string;

  const status = async () => (await raw(ws, { path: '/status' })).json();
  const frame = (body: Json = {}) =>
    raw(ws, { path: '/jobs', body: { operation: 'frame', frameIndex: 0, ...body } });
  /** Files in the renders folder that belong to a full render of this revision (finished or not). */
  const fullRenderFiles = (tag: string) =>
    (existsSync(rendersDir) ? readdirSync(rendersDir) : []).filter(
      (name) => name.startsWith(`${stem}-${tag}.`) || name.startsWith(`.${stem}-${tag}.`),
    );
  const hiddenRenderFiles = () =>
    (existsSync(rendersDir) ? readdirSync(rendersDir) : []).filter((name) => name.startsWith('.'));
  /** Waits for the worker to be idle again with nothing queued. */
  const idle = () =>
    waitFor('the worker to be idle', async () => {
      const now = await status();
      return (now.worker as Json).state === 'ready' && (now.queue as Json).depth === 0 && now;
    });

  beforeAll(async () => {
    project = createProject({ 'stream.ts': COMPOSITION });
    ws = await startWorkspace(project.path('stream.ts'));
    rendersDir = join(ws.resultsDir, 'renders');
    stem = 'stream';
  });

  it('streams progress lines (rendering with rising frame counts), then the result, whose file exists', async () => {
    const render = openJob(ws, { operation: 'render', frameCount: 30 });
    // A job that waits behind another says so at once, then runs.
    await render.line((line) => line.type === 'progress' && line.stage === 'reviewing');
    const waiting = openJob(ws, { operation: 'frame', frameIndex: 3 });

    const answer = await render.ended;
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(answer.text.endsWith('\n')).toBe(true);
    const last = lastLine(render.lines);
    const progress = render.lines.filter(isProgress);
    for (const line of progress) {
      expect(JOB_STAGES).toContain(line.stage);
      expect(Object.keys(line).sort()).toEqual(
        ['type', 'stage', 'framesDone', 'framesTotal', 'fps', 'etaSeconds'].sort(),
      );
    }
    // Stages in pipeline order, each once in a run; the first job also starts the worker.
    const stages = progress.map((line) => line.stage).filter((stage, i, all) => stage !== all[i - 1]);
    expect(stages).toEqual(['starting', 'reviewing', 'preparing', 'rendering', 'encoding', 'verifying']);
    const rendering = progress.filter((line) => line.stage === 'rendering');
    expect(rendering.length, JSON.stringify(rendering)).toBeGreaterThanOrEqual(3);
    // Thinned out (1.2 s of drawing at one a frame would be 30 lines), yet the last count arrives.
    expect(rendering.length).toBeLessThan(15);
    const counts = rendering.map((line) => line.framesDone);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(new Set(counts).size).toBe(counts.length);
    expect(counts.at(-1)).toBe(30);
    for (const line of rendering) {
      expect(line.framesTotal).toBe(30);
      expect(line.fps).toBeGreaterThan(0);
      expect(line.etaSeconds).toEqual(expect.any(Number));
    }

    expect(last.type).toBe('result');
    const result = (last as Extract<JobStreamLine, { type: 'result' }>).result as JobAnswer<'render'>;
    const artifact = result.artifact;
    expect(result).toMatchObject({ operation: 'render', sourceRevision: expect.any(String) });
    expect(existsSync(artifact.path)).toBe(true);
    expect(artifact).toMatchObject({
      bytes: statSync(artifact.path).size,
      sha256: sha256(readFileSync(artifact.path)),
    });
    expect(existsSync(result.receiptPath)).toBe(true);

    const queued = await waiting.ended;
    expect(queued.status).toBe(200);
    expect(waiting.lines[0]).toEqual({
      type: 'progress',
      stage: 'queued',
      framesDone: 0,
      framesTotal: 0,
      fps: 0,
      etaSeconds: null,
    } satisfies Progress);
    const frameResult = lastLine(waiting.lines) as Extract<JobStreamLine, { type: 'result' }>;
    expect(frameResult.type).toBe('result');
    expect(frameResult.result).toMatchObject({ operation: 'frame', frame: { index: 3 } });
  });

  it('sends a failure after admission as a problem line, the same body a plain request gets', async () => {
    const body = { operation: 'frame', frameIndex: 0, sourceRevision: '0123456789abcdef' };
    const streamed = openJob(ws, body);
    const answer = await streamed.ended;
    expect(answer.status).toBe(200);
    const last = lastLine(streamed.lines);
    expect(last.type).toBe('problem');
    const problem = (last as Extract<JobStreamLine, { type: 'problem' }>).problem;
    expect(problem).toMatchObject({
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      code: 'revision_mismatch',
      instance: '/jobs',
      requestedRevision: '0123456789abcdef',
    });
    const plain = expectProblem(await raw(ws, { path: '/jobs', body }), 409, 'revision_mismatch');
    const { requestId: _a, ...plainRest } = plain;
    const { requestId: _b, ...streamedRest } = problem;
    expect(streamedRest).toEqual(plainRest);
  });

  it('refuses a bad body with an ordinary problem+json answer, stream asked for or not', async () => {
    const bad = openJob(ws, { operation: 'render', poster: 'soon' });
    const answer = await bad.ended;
    const problem = expectProblem(answer, 400, 'validation_failed');
    expect((problem.errors as { pointer: string }[]).map((e) => e.pointer)).toEqual(['/poster']);
    expect(bad.lines).toEqual([]);
  });

  it('cancels a streamed render when its client goes away: no file left, the worker stays and serves the next job', async () => {
    const warm = await frame();
    expect(warm.status, warm.text).toBe(200);
    const workerPid = warm.json().workerPid as number;
    const tag = (warm.json().sourceRevision as string).slice(0, 12);

    const render = openJob(ws, { operation: 'render' });
    const rendering = (await render.line(
      (line) => line.type === 'progress' && line.stage === 'rendering',
    )) as OperationProgress;
    expect(rendering.framesTotal).toBe(60);
    const canceledAt = performance.now();
    render.abort();

    const after = await idle();
    expect(performance.now() - canceledAt, 'the render ran on').toBeLessThan(3000);
    expect((after.worker as Json).pid).toBe(workerPid);
    expect((after.worker as Json).lastCrash).toBeNull();
    expect(fullRenderFiles(tag)).toEqual([]);
    expect(hiddenRenderFiles()).toEqual([]);

    const next = await frame({ frameIndex: 5 });
    expect(next.status, next.text).toBe(200);
    expect(next.json().workerPid).toBe(workerPid);
    expect(next.json().workerRestartedAfterCrash).toBeUndefined();
    expect(fullRenderFiles(tag)).toEqual([]);
  });

  it('cancels a plain (not streamed) render the same way', async () => {
    const warm = await frame();
    const workerPid = warm.json().workerPid as number;
    const tag = (warm.json().sourceRevision as string).slice(0, 12);

    const render = openJob(ws, { operation: 'render' }, { stream: false });
    // The encoder's partial file shows that frames are being drawn and encoded.
    await waitFor('the render to be encoding', () => hiddenRenderFiles().length > 0, 30_000);
    render.abort();

    const after = await idle();
    expect((after.worker as Json).pid).toBe(workerPid);
    expect(fullRenderFiles(tag)).toEqual([]);
    expect(hiddenRenderFiles()).toEqual([]);
    const next = await frame({ frameIndex: 6 });
    expect(next.status, next.text).toBe(200);
    expect(next.json().workerPid).toBe(workerPid);
  });

  it('Ctrl+C in `kino session … render` cancels the render on the workspace and exits 130 with one line', async () => {
    const warm = await frame();
    const workerPid = warm.json().workerPid as number;
    const tag = (warm.json().sourceRevision as string).slice(0, 12);

    const cli = spawnKino(['session', ws.descriptorPath, 'render'], { timeoutMs: 60_000 });
    await waitFor('the render to be encoding', () => hiddenRenderFiles().length > 0, 30_000);
    cli.child.kill('SIGINT');
    const run = await cli.run;
    expect(run.signal, run.stderr).toBeNull();
    expect(run.code, run.stderr).toBe(130);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^kino: canceled \(Ctrl\+C\); the workspace stops the render/);

    const after = await idle();
    expect((after.worker as Json).pid).toBe(workerPid);
    expect(fullRenderFiles(tag)).toEqual([]);
    expect(hiddenRenderFiles()).toEqual([]);
  });

  it('writes a poster PNG of the video size next to the video, in the result and the receipt', async () => {
    const answer = await raw(ws, {
      path: '/jobs',
      body: { operation: 'render', frameCount: 30, poster: '0.5s' },
    });
    expect(answer.status, answer.text).toBe(200);
    const result = answer.json();
    const artifact = result.artifact as { path: string; poster: { path: string; bytes: number } };
    expect(artifact.poster.path).toBe(artifact.path.replace(/\.mp4$/, '.poster.png'));
    expect(dirname(artifact.poster.path)).toBe(rendersDir);
    expect(artifact.poster.bytes).toBe(statSync(artifact.poster.path).size);
    expect(pngSize(artifact.poster.path)).toEqual({ width: WIDTH, height: HEIGHT });

    const receipt = JSON.parse(readFileSync(result.receiptPath as string, 'utf8')) as Json;
    expect(receipt).toMatchObject({
      inputs: { request: { frameCount: 30, poster: '0.5s' } },
      options: { width: WIDTH, height: HEIGHT },
      poster: { path: artifact.poster.path, bytes: artifact.poster.bytes, time: '0.5s', frame: 15 },
    });
  });

  it('refuses a poster past the frames rendered with 400 poster_out_of_range, before anything runs', async () => {
    const problem = expectProblem(
      await raw(ws, { path: '/jobs', body: { operation: 'render', frameCount: 30, poster: '30f' } }),
      400,
      'poster_out_of_range',
    );
    expect(problem).toMatchObject({ poster: '30f', frame: 30, frames: 30 });
    expectProblem(
      await raw(ws, { path: '/jobs', body: { operation: 'render', poster: '5s' } }),
      400,
      'poster_out_of_range',
    );
  });

  it('session render --poster: prints the poster; a malformed time is a usage error', async () => {
    const human = await session(ws.descriptorPath, 'render', '--frames', '20', '--poster', '10f');
    expect(human.code, human.stderr).toBe(0);
    const poster = /^ {2}poster (\S+\.poster\.png), /m.exec(human.stdout)?.[1];
    expect(poster, human.stdout).toBeDefined();
    expect(basename(poster!)).toBe(basename(human.stdout.split('\n')[0]!).replace(/\.mp4$/, '.poster.png'));
    expect(pngSize(poster!)).toEqual({ width: WIDTH, height: HEIGHT });

    const json = await sessionJson(ws.descriptorPath, 'render', '--frames', '20', '--poster', '0.2');
    expect(json.code).toBe(0);
    expect((json.json.receipt as Json).poster).toMatchObject({ time: '0.2s', frame: 6 });

    const usage = await session(ws.descriptorPath, 'render', '--poster', 'soon');
    expect(usage.code).toBe(64);
    expect(usage.stderr).toMatch(/expected a time like/);
  });
});

describe('a canceled operation that does not stop', () => {
  /** This frame never yields (a draw that ignores a cancel). */
  const STUCK_FRAME = 40;
  let ws: StartedWorkspace;
  const status = async () => (await raw(ws, { path: '/status' })).json();
  const frame = (body: Json = {}) =>
    raw(ws, { path: '/jobs', body: { operation: 'frame', frameIndex: 0, ...body } });

  beforeAll(async () => {
    const project = createProject({
      'stuck.ts': COMPOSITION.replace(
        `busyWait(${FRAME_MS});`,
        `busyWait(info.frame === ${STUCK_FRAME} ? 20000 : 0);`,
      ),
    });
    ws = await startWorkspace(project.path('stuck.ts'));
  });

  it('retires a worker whose operation does not stop within 2 s of the cancel; the next job gets a new one', async () => {
    const warm = await frame();
    const oldPid = warm.json().workerPid as number;

    const stuck = openJob(ws, { operation: 'frame', frameIndex: STUCK_FRAME });
    await waitFor('the worker to be busy', async () => ((await status()).worker as Json).state === 'busy');
    const canceledAt = performance.now();
    stuck.abort();
    expect(await waitUntilGone(oldPid, 6_000), 'the stuck worker was left running').toBe(true);
    const waited = performance.now() - canceledAt;
    expect(waited).toBeGreaterThan(1500);
    expect(waited).toBeLessThan(5000);
    const after = await status();
    expect((after.queue as Json).depth).toBe(0);
    // Stopped on purpose: not a crash.
    expect((after.worker as Json).lastCrash).toBeNull();

    const next = await frame({ frameIndex: 1 });
    expect(next.status, next.text).toBe(200);
    expect(next.json().workerPid).not.toBe(oldPid);
    expect(next.json().workerRestartedAfterCrash).toBeUndefined();
    expect(processGone(next.json().workerPid as number)).toBe(false);
  });
});

describe('GET and PUT /source', () => {
  let project: TempProject;
  let ws: StartedWorkspace;
  let source: string;
  const ORIGINAL = `import { video, scene, text } from 'kino';
export default video({ fps: 30, aspect: { width: ${WIDTH}, height: ${HEIGHT} } }, [
  scene({ duration: '1s' }, [text('Saved')]),
]);
`;
  const edited = (n: number) => ORIGINAL.replace("text('Saved')", `text('Saved ${n}')`);

  const getSource = async () => {
    const answer = await raw(ws, { path: '/source' });
    expect(answer.status, answer.text).toBe(200);
    return answer.json();
  };
  const put = (body: unknown) => raw(ws, { method: 'PUT', path: '/source', body });
  const revisionNow = async () => (await raw(ws, { path: '/status' })).json().sourceRevision as string;

  beforeAll(async () => {
    project = createProject({ 'saved.ts': ORIGINAL });
    source = project.path('saved.ts');
    chmodSync(source, 0o640);
    ws = await startWorkspace(source);
  });

  it('GET /source gives the sha256 of the file bytes', async () => {
    const body = await getSource();
    expect(body).toMatchObject({ source, text: ORIGINAL, bytes: Buffer.byteLength(ORIGINAL) });
    expect(body.sha256).toBe(sha256(readFileSync(source)));
  });

  it('PUT /source writes the file whole, keeps its mode and answers the new revision', async () => {
    const before = await getSource();
    for (const n of [1, 2]) {
      const text = edited(n);
      const answer = await put({ text, expectedSha256: n === 1 ? before.sha256 : sha256(edited(1)) });
      expect(answer.status, answer.text).toBe(200);
      const saved = answer.json();
      expect(Object.keys(saved).sort()).toEqual(['bytes', 'sha256', 'source', 'sourceRevision']);
      expect(saved).toMatchObject({ source, bytes: Buffer.byteLength(text), sha256: sha256(text) });
      expect(readFileSync(source, 'utf8')).toBe(text);
      expect(statSync(source).mode & 0o777).toBe(0o640);
      expect(saved.sourceRevision).not.toBe(before.sourceRevision);
      expect(saved.sourceRevision).toBe(await revisionNow());
      // Nothing of the save is left beside the file.
      expect(readdirSync(dirname(source)).filter((name) => name.includes('saved.ts'))).toEqual(['saved.ts']);
      // Jobs run at the saved revision.
      const frame = await raw(ws, { path: '/jobs', body: { operation: 'frame', frameIndex: 0 } });
      expect(frame.status, frame.text).toBe(200);
      expect(frame.json().sourceRevision).toBe(saved.sourceRevision);
    }
    // Saving the first text again gives the first text's revision back: it is the content's.
    const again = await put({ text: ORIGINAL });
    expect(again.json().sourceRevision).toBe(before.sourceRevision);
  });

  it('refuses with 409 source_conflict when the file changed since it was read, naming both hashes', async () => {
    const read = await getSource();
    const theirs = edited(3);
    // Someone else saves meanwhile.
    const other = await put({ text: theirs, expectedSha256: read.sha256 });
    expect(other.status, other.text).toBe(200);

    const mine = edited(4);
    const problem = expectProblem(
      await put({ text: mine, expectedSha256: read.sha256 }),
      409,
      'source_conflict',
    );
    expect(problem).toMatchObject({ expectedSha256: read.sha256, currentSha256: sha256(theirs) });
    expect(readFileSync(source, 'utf8')).toBe(theirs);
  });

  it('refuses a source over 256 KiB with 413 source_too_large, and leaves the file alone', async () => {
    const before = readFileSync(source, 'utf8');
    const big = `${ORIGINAL}\n/* ${'padding '.repeat(33 * 1024)} */\n`;
    expect(Buffer.byteLength(big)).toBeGreaterThan(256 * 1024);
    expectProblem(await put({ text: big }), 413, 'source_too_large');
    // A body far larger than any source the workspace saves is refused by its declared size, before
    // it is read: the answer comes while most of it is still unsent.
    const huge = `{"text":"${'x'.repeat(2 * 1024 * 1024)}"}`;
    const refused = await raw(ws, { method: 'PUT', path: '/source', body: huge, sendBytes: 64 * 1024 });
    expectProblem(refused, 413, 'source_too_large');
    expect(readFileSync(source, 'utf8')).toBe(before);
  });

  it('refuses a malformed body with 400 naming the field', async () => {
    const missing = expectProblem(await put({ expectedSha256: 'a'.repeat(64) }), 400, 'validation_failed');
    expect(missing.errors).toEqual([{ pointer: '/text', message: 'is required' }]);
    const badHash = expectProblem(
      await put({ text: ORIGINAL, expectedSha256: 'abc' }),
      400,
      'validation_failed',
    );
    expect((badHash.errors as { pointer: string }[]).map((e) => e.pointer)).toEqual(['/expectedSha256']);
    expectProblem(await put({ text: ORIGINAL, extra: 1 }), 400, 'validation_failed');
  });

  it('GET /status lists where a saved source does not compile, and nothing once it compiles', async () => {
    const broken = ORIGINAL.replace("text('Saved')", "text('Saved'");
    expect((await put({ text: broken })).status).toBe(200);
    const status = (await raw(ws, { path: '/status' })).json();
    expect(status.compiles).toBe(false);
    const problems = status.compileProblems as {
      file: string;
      line?: number;
      column?: number;
      message: string;
    }[];
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatchObject({
      file: source,
      line: 3,
      column: expect.any(Number),
      message: expect.any(String),
    });

    expect((await put({ text: ORIGINAL })).status).toBe(200);
    const fixed = (await raw(ws, { path: '/status' })).json();
    expect(fixed).toMatchObject({ compiles: true, compileProblems: [] });
  });
});
