// The authoring loop end to end: `kino workspace` in its own process and `kino session` driving it
// as a user (or an agent) would — every operation, the files they write, revisions and edits, the
// worker's life (reuse, retirement, time-out, crash), descriptor checks, usage errors and shutdown.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINDING_CODES } from '../shared/protocol/finding.ts';
import { probeFile } from '../main/ffmpeg/probe.ts';
import { REPO_ROOT } from './cli-helpers.ts';
import {
  BUSY_WAIT,
  cleanupWorkspaces,
  createProject,
  kino,
  pngSize,
  processGone,
  raw,
  session,
  sessionJson,
  sleep,
  startWorkspace,
  tempDir,
  waitFor,
  waitUntilGone,
  writeDescriptorFile,
} from './workspace-harness.ts';
import type { StartedWorkspace, TempProject } from './workspace-harness.ts';

const WIDTH = 360;
const HEIGHT = 640;
const SIMPLE = `import { video, scene, text, fadeIn } from 'kino';
export default video({ fps: 30, aspect: { width: ${WIDTH}, height: ${HEIGHT} } }, [
  scene({ duration: '2s' }, [text('Hello session').animate(fadeIn())]),
]);
`;

const REVISION = /^[0-9a-f]{16}$/;
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

type Json = Record<string, unknown>;

/** A composition whose custom element misbehaves on chosen frames (and draws a square elsewhere). */
function misbehaving(lines: string): string {
  return `import { video, scene, text, custom } from 'kino';
${BUSY_WAIT}
export default video({ fps: 30, aspect: { width: ${WIDTH}, height: ${HEIGHT} } }, [
  scene({ duration: '2s' }, [
    text('Careful'),
    custom((ctx, info) => {
      ${lines}
      ctx.fillStyle = '#c33';
      ctx.fillRect(0, 0, 40, 40);
    }),
  ]),
]);
`;
}

afterAll(async () => {
  await cleanupWorkspaces();
});

describe('kino session against a running workspace', () => {
  let project: TempProject;
  let ws: StartedWorkspace;
  let source: string;
  let edits = 0;
  /** Changes the source's content (and so its revision) without changing what it draws. */
  const edit = () => appendFileSync(source, `// edit ${++edits}\n`);
  const revisionNow = async () =>
    (await sessionJson(ws.descriptorPath, 'status')).json.sourceRevision as string;

  beforeAll(async () => {
    project = createProject({ 'hello.ts': SIMPLE });
    source = project.path('hello.ts');
    ws = await startWorkspace(source);
  });

  it('starts with a descriptor only its owner can read, in a folder only its owner can enter', () => {
    expect(ws.descriptorPath).toBe(project.path('build/kino/hello.workspace/session.json'));
    expect(statSync(ws.descriptorPath).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(ws.descriptorPath)).mode & 0o777).toBe(0o700);
    expect(ws.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ws.descriptor).toMatchObject({ source, pid: ws.pid, token: expect.stringMatching(/.{32,}/) });
    expect(ws.output()).toContain(ws.endpoint);
  });

  it('status: source, revision, worker and queue (human and --json)', async () => {
    const human = await session(ws.descriptorPath, 'status');
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(source);
    expect(human.stdout).toMatch(/revision\s+[0-9a-f]{16}/);
    expect(human.stdout).toContain(ws.resultsDir);

    const { code, json } = await sessionJson(ws.descriptorPath, 'status');
    expect(code).toBe(0);
    expect(json).toMatchObject({
      source,
      sourceRevision: expect.stringMatching(REVISION),
      compiles: true,
      backend: 'skia',
      queue: { depth: 0, running: 0, waiting: 0, limit: 4 },
      resultsDir: ws.resultsDir,
    });
  });

  it('source: prints the file exactly', async () => {
    const run = await session(ws.descriptorPath, 'source');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(readFileSync(source, 'utf8'));
    const { json } = await sessionJson(ws.descriptorPath, 'source');
    expect(json).toMatchObject({
      source,
      text: readFileSync(source, 'utf8'),
      sourceRevision: expect.stringMatching(REVISION),
    });
  });

  it('frame: writes a PNG of the composition size into the results folder', async () => {
    const run = await session(ws.descriptorPath, 'frame', '--frame', '3');
    expect(run.code, run.stderr).toBe(0);
    const file = run.stdout.split('\n')[0]!;
    expect(file.startsWith(join(ws.resultsDir, 'frames') + '/')).toBe(true);
    expect(basename(file)).toBe('frame-00003.png');
    expect(pngSize(file)).toEqual({ width: WIDTH, height: HEIGHT });
    expect(run.stdout).toContain(`frame 3 of 60`);

    const { code, json } = await sessionJson(ws.descriptorPath, 'frame', '--frame', '59');
    expect(code).toBe(0);
    const frame = json.frame as Json;
    expect(frame).toMatchObject({ index: 59, width: WIDTH, height: HEIGHT });
    expect(frame.seconds).toBeCloseTo(59 / 30, 3);
    expect(pngSize(frame.path as string)).toEqual({ width: WIDTH, height: HEIGHT });
    expect(json).toMatchObject({
      operation: 'frame',
      framesTotal: 60,
      sourceRevision: await revisionNow(),
      workerPid: expect.any(Number),
    });
  });

  it('frame: another aspect draws at that size', async () => {
    const { code, json } = await sessionJson(
      ws.descriptorPath,
      'frame',
      '--frame',
      '10',
      '--aspect',
      'square',
    );
    expect(code, JSON.stringify(json)).toBe(0);
    const frame = json.frame as Json;
    expect(pngSize(frame.path as string)).toEqual({ width: frame.width, height: frame.height });
    expect(frame.width).toBe(frame.height);
  });

  it('frame: a frame outside the timeline fails (exit 1) and says how long it is', async () => {
    const run = await session(ws.descriptorPath, 'frame', '--frame', '60');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/60 frames/);
    const { json } = await sessionJson(ws.descriptorPath, 'frame', '--frame', '600');
    expect(json.code).toBe('frame_out_of_range');
  });

  it('inspect --frame: timeline, resources and what is drawn where, with the frame as a PNG', async () => {
    const run = await session(ws.descriptorPath, 'inspect', '--frame', '15');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`60 frames at 30 fps`);
    expect(run.stdout).toContain(`${WIDTH}×${HEIGHT}`);
    expect(run.stdout).toContain('"Hello session"');

    const { code, json } = await sessionJson(ws.descriptorPath, 'inspect', '--frame', '15');
    expect(code).toBe(0);
    expect(json.timeline).toMatchObject({ durationFrames: 60, fps: 30, width: WIDTH, height: HEIGHT });
    const frame = json.frame as { index: number; path: string; visible: Json[] };
    expect(frame.index).toBe(15);
    expect(pngSize(frame.path)).toEqual({ width: WIDTH, height: HEIGHT });
    const text = frame.visible.find((element) => element.type === 'text');
    expect(text).toMatchObject({
      label: 'Hello session',
      box: expect.any(Object),
      alpha: expect.any(Number),
    });
    // Fading in: more opaque at frame 15 than at frame 3.
    const early = await sessionJson(ws.descriptorPath, 'inspect', '--frame', '3');
    const earlyText = (early.json.frame as { visible: Json[] }).visible.find(
      (element) => element.type === 'text',
    );
    expect(earlyText).toBeDefined();
    expect(earlyText!.alpha as number).toBeLessThan(text!.alpha as number);

    // Without --frame: the timeline only, no PNG.
    const plain = await sessionJson(ws.descriptorPath, 'inspect');
    expect(plain.code).toBe(0);
    expect(plain.json.frame).toBeUndefined();
    expect(plain.json.timeline).toMatchObject({ durationFrames: 60 });
  });

  it('review: runs and answers parseable JSON at the current revision', async () => {
    const human = await session(ws.descriptorPath, 'review', '--review-frames', '4');
    expect(human.code, human.stderr).toBe(0);
    const { code, json } = await sessionJson(ws.descriptorPath, 'review', '--review-frames', '4');
    expect(code).toBe(0);
    expect(json).toMatchObject({
      operation: 'review',
      sourceRevision: await revisionNow(),
      findings: expect.any(Array),
      qualityGate: { strict: false },
    });
  });

  it('render --frames 10: a verified mp4 and its receipt', async () => {
    const revision = await revisionNow();
    const human = await session(ws.descriptorPath, 'render', '--frames', '10');
    expect(human.code, human.stderr).toBe(0);
    const file = human.stdout.split('\n')[0]!;
    expect(file.startsWith(join(ws.resultsDir, 'renders') + '/')).toBe(true);
    expect(file.endsWith('.mp4')).toBe(true);
    expect(human.stdout).toContain(`sha256 ${sha256(file)}`);

    const { code, json } = await sessionJson(ws.descriptorPath, 'render', '--frames', '10');
    expect(code).toBe(0);
    const artifact = json.artifact as { path: string; bytes: number; sha256: string; format: string };
    expect(artifact.path).toBe(file);
    expect(artifact).toMatchObject({ format: 'mp4', bytes: statSync(file).size, sha256: sha256(file) });

    const probe = await probeFile(file);
    expect(probe.video).toMatchObject({ codec: 'h264', width: WIDTH, height: HEIGHT, frames: 10 });
    expect(probe.video!.fps).toBeCloseTo(30, 3);
    expect(probe.durationSeconds).toBeCloseTo(10 / 30, 1);

    // The receipt sits next to the file and says what made it.
    const receiptPath = json.receiptPath as string;
    expect(receiptPath).toBe(file.replace(/\.mp4$/, '.render.json'));
    const receipt = JSON.parse(readFileSync(receiptPath, 'utf8')) as Json;
    expect(receipt).toMatchObject({
      receipt: 'kino.render',
      version: 2,
      maker: 'workspace',
      source: { kind: 'composition', path: source, sourceRevision: revision },
      inputs: {
        request: { frameCount: 10 },
        files: [{ role: 'composition', path: source, bytes: statSync(source).size, sha256: sha256(source) }],
      },
      options: { format: 'mp4', frames: 10, framesTotal: 60, width: WIDTH, height: HEIGHT, fps: 30 },
      output: { path: file, bytes: statSync(file).size, sha256: sha256(file) },
      verification: { ok: true, mismatches: [] },
    });
    expect(json.sourceRevision).toBe(revision);
    const toolchain = receipt.toolchain as Record<string, string>;
    expect(toolchain.node).toBe(process.version);
    expect(toolchain.ffmpeg).toEqual(expect.any(String));
    expect(toolchain.kino).toEqual(expect.any(String));
    expect((receipt.verification as { checks: unknown[] }).checks.length).toBeGreaterThan(3);
    // --json printed the same receipt that was written.
    expect((json.receipt as Json).output).toEqual(receipt.output);
  });

  it('--strict-quality with --allow-quality: the codes reach the workspace; every code allowed passes the gate', async () => {
    const { code, json, stderr } = await sessionJson(
      ws.descriptorPath,
      'render',
      '--frames',
      '2',
      '--strict-quality',
      '--allow-quality',
      FINDING_CODES.join(','),
    );
    expect(code, stderr).toBe(0);
    const receipt = json.receipt as Json;
    expect((receipt.inputs as Json).request).toEqual({
      frameCount: 2,
      strictQuality: true,
      allowQuality: [...FINDING_CODES],
    });
    expect(receipt.qualityGate).toEqual({ strict: true, passed: true, failing: [] });
  });

  it('usage errors exit 64 without running anything', async () => {
    const d = ws.descriptorPath;
    const cases: [string[], RegExp][] = [
      [['session', d], /./],
      [['session', d, 'explode'], /./],
      [['session', d, 'frame'], /--frame/],
      [['session', d, 'frame', '--frame', 'abc'], /whole number/],
      [['session', d, 'frame', '--frame', '-1'], /./],
      [['session', d, 'frame', '--frame', '1', '--bogus'], /bogus/],
      [['session', d, 'render', '--format', 'avi'], /avi/],
      [['session', d, 'render', '--aspect', 'cinema'], /cinema/],
      [['session', d, 'status', '--timeout', '0'], /positive/],
      [['session', d, 'review', '--allow-quality', 'text_overflow,made_up_code'], /made_up_code/],
      [
        ['session', d, 'review', '--strict-quality', '--allow-quality', 'bogus'],
        /unknown finding code bogus/,
      ],
    ];
    const before = (await sessionJson(d, 'status')).json.worker as Json;
    const resultsBefore = readdirSync(ws.resultsDir, { recursive: true }).sort();
    const runs = await Promise.all(cases.map(([args]) => kino(args)));
    for (const [i, [args, message]] of cases.entries()) {
      const run = runs[i]!;
      expect(run.code, `${args.join(' ')}\n${run.stderr}`).toBe(64);
      expect(run.stderr, args.join(' ')).toMatch(message);
      expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    }
    const unknown = await kino(['session', d, 'review', '--allow-quality', 'bogus']);
    for (const known of FINDING_CODES) expect(unknown.stderr).toContain(known);
    // Nothing reached the worker: same state, same pid.
    expect((await sessionJson(d, 'status')).json.worker).toEqual(before);
    expect(readdirSync(ws.resultsDir, { recursive: true }).sort()).toEqual(resultsBefore);
  });

  it('reuses one worker while the source stays the same, and retires it after an edit', async () => {
    const first = await sessionJson(ws.descriptorPath, 'frame', '--frame', '4');
    const second = await sessionJson(ws.descriptorPath, 'frame', '--frame', '5');
    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
    expect(second.json.workerPid).toBe(first.json.workerPid);
    expect(second.json.startupMilliseconds).toBe(0);
    expect(second.json.sourceRevision).toBe(first.json.sourceRevision);
    const oldPid = first.json.workerPid as number;

    edit();
    // The watcher retires the idle worker as soon as the source changes, before any request.
    expect(await waitUntilGone(oldPid, 10_000)).toBe(true);
    const third = await sessionJson(ws.descriptorPath, 'frame', '--frame', '4');
    expect(third.code).toBe(0);
    expect(third.json.workerPid).not.toBe(oldPid);
    expect(third.json.sourceRevision).not.toBe(first.json.sourceRevision);
    expect(third.json.startupMilliseconds as number).toBeGreaterThan(0);
    // Results of different revisions do not overwrite each other.
    expect((third.json.frame as Json).path).not.toBe((first.json.frame as Json).path);
    expect(existsSync((first.json.frame as Json).path as string)).toBe(true);
  });

  it('--revision with an old revision after an edit: exit 1 naming both revisions, nothing drawn', async () => {
    const old = await revisionNow();
    // A request pinned to the current revision runs.
    const pinned = await sessionJson(ws.descriptorPath, 'frame', '--frame', '6', '--revision', old);
    expect(pinned.code).toBe(0);
    expect(pinned.json.sourceRevision).toBe(old);

    edit();
    const current = await revisionNow();
    expect(current).not.toBe(old);
    const run = await session(ws.descriptorPath, 'frame', '--frame', '7', '--revision', old);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(old);
    expect(run.stderr).toContain(current);
    const { code, json } = await sessionJson(ws.descriptorPath, 'inspect', '--frame', '7', '--revision', old);
    expect(code).toBe(1);
    expect(json).toMatchObject({
      code: 'revision_mismatch',
      requestedRevision: old,
      currentRevision: current,
    });
    for (const revision of [old, current]) {
      expect(existsSync(join(ws.resultsDir, 'frames', revision.slice(0, 12), 'frame-00007.png'))).toBe(false);
    }
  });

  it('refuses a second `kino workspace` on the same file while this one runs', async () => {
    const descriptorBefore = readFileSync(ws.descriptorPath, 'utf8');
    const second = await kino(['workspace', source], { timeoutMs: 30_000 });
    expect(second.signal, 'the second workspace kept running').toBeNull();
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/already running/);
    expect(second.stderr).toContain(String(ws.pid));
    // The running workspace and its descriptor are untouched.
    expect(readFileSync(ws.descriptorPath, 'utf8')).toBe(descriptorBefore);
    expect((await session(ws.descriptorPath, 'status')).code).toBe(0);
  });
});

describe('session descriptor checks (no request is sent to a descriptor it refuses)', () => {
  let spy: Server;
  let connections = 0;
  let spyPort = 0;
  let dir: string;

  beforeAll(async () => {
    spy = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => spy.listen(0, '127.0.0.1', resolve));
    spyPort = (spy.address() as { port: number }).port;
    dir = tempDir('kino-ws-descriptors-');
  });

  afterAll(async () => {
    await new Promise((resolve) => spy.close(resolve));
  });

  const descriptor = (endpoint: string) => ({
    endpoint,
    token: 'spy-token-0123456789abcdef0123456789abcdef',
    pid: process.pid,
    source: '/nowhere/spy.ts',
    requestTimeoutSeconds: 300,
  });

  /** Runs `status` with this descriptor; the spy must see no connection. */
  async function refused(file: string, message: RegExp) {
    const before = connections;
    const run = await session(file, 'status');
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toContain('spy-token');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    await sleep(100);
    expect(connections, 'a request was sent').toBe(before);
  }

  it('sends a request to a good descriptor (the spy sees it)', async () => {
    const good = writeDescriptorFile(join(dir, 'good.json'), descriptor(`http://127.0.0.1:${spyPort}`));
    const before = connections;
    const run = await session(good, 'status');
    expect(run.code).toBe(1);
    expect(connections).toBeGreaterThan(before);
  });

  it('refuses a symlink to the descriptor', async () => {
    const target = writeDescriptorFile(join(dir, 'target.json'), descriptor(`http://127.0.0.1:${spyPort}`));
    const link = join(dir, 'link.json');
    symlinkSync(target, link);
    await refused(link, /symlink/);
  });

  it('refuses a copy other users can read (0644)', async () => {
    const file = writeDescriptorFile(
      join(dir, 'open.json'),
      descriptor(`http://127.0.0.1:${spyPort}`),
      0o644,
    );
    await refused(file, /readable by other users.*644.*chmod 600/);
  });

  it('refuses an endpoint that is not loopback', async () => {
    const endpoints = {
      remote: ['http://10.0.0.1:1234', /10\.0\.0\.1.*not a loopback/],
      evil: ['http://evil.example:1234', /evil\.example.*not a loopback/],
      suffix: ['http://127.0.0.1.evil.example:1234', /not a loopback/],
    } as const;
    await Promise.all(
      Object.entries(endpoints).map(([name, [endpoint, message]]) =>
        refused(writeDescriptorFile(join(dir, `${name}.json`), descriptor(endpoint)), message),
      ),
    );
  });

  it('refuses https://, a path, or user info in the endpoint', async () => {
    const endpoints = {
      https: [`https://127.0.0.1:${spyPort}`, /not http:\/\//],
      path: [`http://127.0.0.1:${spyPort}/api`, /just http/],
      user: [`http://me@127.0.0.1:${spyPort}`, /just http/],
    } as const;
    await Promise.all(
      Object.entries(endpoints).map(([name, [endpoint, message]]) =>
        refused(writeDescriptorFile(join(dir, `${name}.json`), descriptor(endpoint)), message),
      ),
    );
  });

  it('refuses a missing descriptor, one that is not JSON, and one without a token', async () => {
    const notJson = join(dir, 'garbage.json');
    writeDescriptorFile(notJson, {});
    appendFileSync(notJson, '{{{');
    const { token: _token, ...noToken } = descriptor(`http://127.0.0.1:${spyPort}`);
    await Promise.all([
      refused(join(dir, 'missing.json'), /does not exist.*kino workspace/),
      refused(notJson, /not JSON/),
      refused(writeDescriptorFile(join(dir, 'notoken.json'), noToken), /no token/),
    ]);
  });

  it('refuses a world-readable copy of and a symlink to a real descriptor (the real one still works)', async () => {
    const project = createProject({ 'copy.ts': SIMPLE });
    const ws = await startWorkspace(project.path('copy.ts'));
    const copy = join(dir, 'copy.json');
    copyFileSync(ws.descriptorPath, copy);
    writeDescriptorFile(copy, JSON.parse(readFileSync(ws.descriptorPath, 'utf8')) as Json, 0o644);
    const run = await session(copy, 'status');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/readable by other users/);
    const link = join(dir, 'real-link.json');
    symlinkSync(ws.descriptorPath, link);
    const linked = await session(link, 'status');
    expect(linked.code).toBe(1);
    expect(linked.stderr).toMatch(/symlink/);
    expect((await session(ws.descriptorPath, 'status')).code).toBe(0);
    await ws.stop();
  });
});

describe('a capture whose source changes while it runs', () => {
  let project: TempProject;
  let ws: StartedWorkspace;

  beforeAll(async () => {
    project = createProject({ 'slow.ts': misbehaving('if (info.frame === 40) busyWait(2500);') });
    ws = await startWorkspace(project.path('slow.ts'));
  });

  it('answers 409 stale_result and leaves no PNG for that result', async () => {
    const warm = await sessionJson(ws.descriptorPath, 'frame', '--frame', '0');
    expect(warm.code).toBe(0);
    const revision = warm.json.sourceRevision as string;
    const png = join(ws.resultsDir, 'frames', revision.slice(0, 12), 'frame-00040.png');

    const capture = sessionJson(ws.descriptorPath, 'frame', '--frame', '40');
    await waitFor('the worker to be busy', async () => {
      const status = (await raw(ws, { path: '/status' })).json();
      return (status.worker as Json).state === 'busy';
    });
    await sleep(300);
    appendFileSync(project.path('slow.ts'), '// edited while it draws\n');
    const { code, json } = await capture;
    expect(code).toBe(1);
    expect(json).toMatchObject({ status: 409, code: 'stale_result', capturedRevision: revision });
    expect(json.currentRevision).not.toBe(revision);
    expect(json.detail).toMatch(/changed/);
    expect(existsSync(png)).toBe(false);

    // The next capture runs at the new revision, in a new worker.
    const next = await sessionJson(ws.descriptorPath, 'frame', '--frame', '1');
    expect(next.code).toBe(0);
    expect(next.json.sourceRevision).toBe(json.currentRevision);
    expect(next.json.workerPid).not.toBe(warm.json.workerPid);
  });
});

describe('worker time-outs and crashes', () => {
  let project: TempProject;
  let ws: StartedWorkspace;
  const SLOW = 20;
  const CRASH = 25;

  beforeAll(async () => {
    project = createProject({
      'fragile.ts': misbehaving(
        `if (info.frame === ${SLOW}) busyWait(5000);\n      if (info.frame === ${CRASH}) process.exit(3);`,
      ),
    });
    ws = await startWorkspace(project.path('fragile.ts'), ['--request-timeout', '1']);
  });

  it('stops a request past --request-timeout (request_timeout, exit 1); the next one gets a new worker', async () => {
    expect(ws.descriptor.requestTimeoutSeconds).toBe(1);
    const warm = await sessionJson(ws.descriptorPath, 'frame', '--frame', '0');
    expect(warm.code).toBe(0);
    const oldPid = warm.json.workerPid as number;

    const human = await session(ws.descriptorPath, 'frame', '--frame', String(SLOW));
    expect(human.code).toBe(1);
    expect(human.stderr).toMatch(/request time-out of 1 s/);
    expect(human.milliseconds, 'waited for the whole draw').toBeLessThan(4000);
    expect(await waitUntilGone(oldPid, 5_000)).toBe(true);

    const next = await sessionJson(ws.descriptorPath, 'frame', '--frame', '1');
    expect(next.code, JSON.stringify(next.json)).toBe(0);
    expect(next.json.workerPid).not.toBe(oldPid);
    expect(next.json.workerRestartedAfterCrash).toBeUndefined();

    const timedOut = await sessionJson(ws.descriptorPath, 'frame', '--frame', String(SLOW));
    expect(timedOut.code).toBe(1);
    expect(timedOut.json).toMatchObject({ status: 504, code: 'request_timeout' });
    expect(
      existsSync(
        join(
          ws.resultsDir,
          'frames',
          (next.json.sourceRevision as string).slice(0, 12),
          `frame-000${SLOW}.png`,
        ),
      ),
    ).toBe(false);
  });

  it('reports a crashed worker, then says so on the next request, which succeeds', async () => {
    const warm = await sessionJson(ws.descriptorPath, 'frame', '--frame', '2');
    expect(warm.code).toBe(0);
    const crashedPid = warm.json.workerPid as number;

    const crash = await sessionJson(ws.descriptorPath, 'frame', '--frame', String(CRASH));
    expect(crash.code).toBe(1);
    expect(crash.json).toMatchObject({ status: 500, code: 'worker_crashed' });
    expect(crash.json.detail).toContain(`pid ${crashedPid}`);
    expect(crash.json.detail).toContain('code 3');

    const status = await sessionJson(ws.descriptorPath, 'status');
    expect((status.json.worker as Json).lastCrash).toMatchObject({
      pid: crashedPid,
      code: 3,
      during: 'frame',
    });

    const next = await sessionJson(ws.descriptorPath, 'frame', '--frame', '3');
    expect(next.code, JSON.stringify(next.json)).toBe(0);
    expect(next.json.workerPid).not.toBe(crashedPid);
    expect(next.json.workerRestartedAfterCrash).toMatchObject({
      pid: crashedPid,
      code: 3,
      signal: null,
      during: 'frame',
    });
    // Said once: the request after that is plain.
    const after = await sessionJson(ws.descriptorPath, 'frame', '--frame', '4');
    expect(after.json.workerRestartedAfterCrash).toBeUndefined();
    expect(after.json.workerPid).toBe(next.json.workerPid);

    // In the human output too.
    const again = await session(ws.descriptorPath, 'frame', '--frame', String(CRASH));
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/exited during the frame \(code 3\)/);
    const human = await session(ws.descriptorPath, 'frame', '--frame', '5');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/previous worker \(pid \d+\) crashed during frame \(code 3\)/);
  });
});

describe('stopping the workspace', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s stops it: descriptor removed, results kept, worker gone',
    async (signal) => {
      const project = createProject({ 'stop.ts': SIMPLE });
      const ws = await startWorkspace(project.path('stop.ts'));
      const frame = await sessionJson(ws.descriptorPath, 'frame', '--frame', '0');
      expect(frame.code).toBe(0);
      const workerPid = frame.json.workerPid as number;
      const png = (frame.json.frame as Json).path as string;
      expect(processGone(workerPid)).toBe(false);

      const exit = await ws.stop(signal);
      expect(exit, ws.output()).toEqual({ code: 0, signal: null });
      expect(existsSync(ws.descriptorPath)).toBe(false);
      expect(existsSync(ws.resultsDir)).toBe(true);
      // Compiled bundles are scratch: the staging folder goes with the workspace (issue 12).
      expect(existsSync(join(dirname(ws.descriptorPath), 'staging'))).toBe(false);
      expect(pngSize(png)).toEqual({ width: WIDTH, height: HEIGHT });
      expect(await waitUntilGone(workerPid, 5_000)).toBe(true);

      // A session now says the workspace is gone rather than hanging.
      const after = await session(ws.descriptorPath, 'status');
      expect(after.code).toBe(1);
      expect(after.stderr).toMatch(/does not exist/);
      // And a new workspace starts on the same file.
      const again = await startWorkspace(project.path('stop.ts'));
      expect((await session(again.descriptorPath, 'status')).code).toBe(0);
      await again.stop();
    },
  );

  it("git ignores the build/kino folders a workspace writes in any project, the examples' included", () => {
    const inRepo = spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: REPO_ROOT });
    if (inRepo.status !== 0) {
      console.warn('SKIPPED: not a git work tree, so .gitignore cannot be checked');
      return;
    }
    for (const file of [
      'examples/build/kino/data-story.workspace/session.json',
      'deep/er/build/kino/x/y.png',
    ]) {
      expect(spawnSync('git', ['check-ignore', '-q', file], { cwd: REPO_ROOT }).status, file).toBe(0);
    }
  });

  it('SIGKILL: the worker does not outlive it, and a new workspace replaces the stale descriptor', async () => {
    const project = createProject({ 'killed.ts': SIMPLE });
    const ws = await startWorkspace(project.path('killed.ts'));
    const frame = await sessionJson(ws.descriptorPath, 'frame', '--frame', '0');
    expect(frame.code).toBe(0);
    const workerPid = frame.json.workerPid as number;

    expect(await ws.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    // The worker notices its parent is gone (IPC closed) and exits by itself.
    expect(await waitUntilGone(workerPid, 5_000)).toBe(true);
    // The descriptor is left behind; a session says plainly that nothing answers.
    expect(existsSync(ws.descriptorPath)).toBe(true);
    const after = await session(ws.descriptorPath, 'status');
    expect(after.code).toBe(1);
    expect(after.stderr).toMatch(/not running/);

    const again = await startWorkspace(project.path('killed.ts'));
    expect(again.token).not.toBe(ws.token);
    expect((await session(again.descriptorPath, 'status')).code).toBe(0);
    await again.stop();
  });

  it('Ctrl+C while a capture runs stops the workspace promptly; the capture fails, not at its time-out', async () => {
    const project = createProject({ 'busy.ts': misbehaving('if (info.frame === 40) busyWait(20000);') });
    const ws = await startWorkspace(project.path('busy.ts'), ['--request-timeout', '60']);
    const warm = await sessionJson(ws.descriptorPath, 'frame', '--frame', '0');
    expect(warm.code).toBe(0);
    const workerPid = warm.json.workerPid as number;

    const capture = kino(['session', ws.descriptorPath, 'frame', '--frame', '40'], { timeoutMs: 15_000 });
    await waitFor('the worker to be busy', async () => {
      const status = (await raw(ws, { path: '/status' })).json();
      return (status.worker as Json).state === 'busy';
    });
    ws.child.kill('SIGINT');
    const exit = await Promise.race([ws.exited, sleep(10_000).then(() => 'still running' as const)]);
    expect(exit, 'the workspace kept running after Ctrl+C').toEqual({ code: 0, signal: null });
    expect(existsSync(ws.descriptorPath)).toBe(false);
    expect(await waitUntilGone(workerPid, 5_000)).toBe(true);

    const run = await capture;
    expect(run.signal, 'the capture was still waiting').toBeNull();
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(/request time-out/);
    expect(run.milliseconds).toBeLessThan(12_000);
  });

  it('two `kino workspace` started at the same moment on one file: exactly one runs', async () => {
    const project = createProject({ 'twice.ts': SIMPLE });
    const file = project.path('twice.ts');
    const [a, b] = await Promise.allSettled([startWorkspace(file), startWorkspace(file)]);
    const started = [a, b].filter((r) => r.status === 'fulfilled').map((r) => r.value);
    const refused = [a, b].filter((r) => r.status === 'rejected').map((r) => String(r.reason));
    expect(
      started.map((w) => w.endpoint),
      'both started',
    ).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/already running/);
    // The one that runs owns the descriptor.
    const descriptor = JSON.parse(readFileSync(started[0]!.descriptorPath, 'utf8')) as Json;
    expect(descriptor.pid).toBe(started[0]!.pid);
  });
});
