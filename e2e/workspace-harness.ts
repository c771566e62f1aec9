// Drives the real `kino workspace` and `kino session` commands from outside, as a user would: a
// fresh temporary project per workspace, the workspace in its own process, raw HTTP for requests a
// well-behaved client never sends (foreign Host and Origin headers, oversized bodies), and the
// session CLI in a child process. Every workspace and temp folder started here is tracked, and
// `cleanupWorkspaces()` (call it in afterAll/afterEach) stops and removes them all.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { WorkspaceDescriptor } from '../main/workspace/descriptor.ts';
import type { JobStreamLine } from '../shared/protocol/workspace.ts';
import { KINO_BIN, REPO_ROOT } from './cli-helpers.ts';

export const KINO_JSON = { name: 'ws-test', assetsDir: 'assets', compositions: {} };

/** Composition code: waits without yielding, like an expensive draw (the worker is busy meanwhile). */
export const BUSY_WAIT = `const busyWait = (ms: number) => { const end = Date.now() + ms; while (Date.now() < end) { /* busy */ } };`;

export interface TempProject {
  /** The project root (real path: no symlinked tmp folder in the way of path comparisons). */
  root: string;
  path(relative: string): string;
  write(relative: string, text: string): string;
  read(relative: string): string;
}

const tempDirs = new Set<string>();
const running = new Set<StartedWorkspace>();

/** A fresh project: kino.json, an empty assets/ and the given files. */
export function createProject(files: Record<string, string> = {}): TempProject {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'kino-ws-')));
  tempDirs.add(root);
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'kino.json'), JSON.stringify(KINO_JSON) + '\n');
  const project: TempProject = {
    root,
    path: (relative) => join(root, relative),
    write(relative, text) {
      const file = join(root, relative);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      return file;
    },
    read: (relative) => readFileSync(join(root, relative), 'utf8'),
  };
  for (const [name, text] of Object.entries(files)) project.write(name, text);
  return project;
}

/** A temporary folder removed by cleanupWorkspaces(). */
export function tempDir(prefix = 'kino-ws-misc-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  tempDirs.add(dir);
  return dir;
}

export type WorkspaceDescriptorFile = WorkspaceDescriptor;

export interface StartedWorkspace {
  child: ChildProcess;
  pid: number;
  descriptorPath: string;
  descriptor: WorkspaceDescriptorFile;
  endpoint: string;
  port: number;
  token: string;
  resultsDir: string;
  /** Everything the workspace printed so far (stdout and stderr). */
  output(): string;
  /** Resolves when the workspace process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` (default SIGTERM) and waits for the exit; SIGKILL after `graceMs`. */
  stop(
    signal?: NodeJS.Signals,
    graceMs?: number,
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `kino workspace <file> ...args` and waits until it prints its descriptor. */
export async function startWorkspace(file: string, args: string[] = []): Promise<StartedWorkspace> {
  const child = spawn(process.execPath, [KINO_BIN, 'workspace', file, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let hasExited = false;
  void exited.then(() => (hasExited = true));

  const stop: StartedWorkspace['stop'] = async (signal = 'SIGTERM', graceMs = 15_000) => {
    if (!hasExited) child.kill(signal);
    const timer = setTimeout(() => {
      if (!hasExited) child.kill('SIGKILL');
    }, graceMs);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
      running.delete(workspace);
    }
  };
  // Registered before it is ready: a workspace that never gets ready is still stopped.
  const workspace = { child, pid: child.pid!, exited, stop, output: () => output } as StartedWorkspace;
  running.add(workspace);

  const started = Date.now();
  let descriptorPath: string | undefined;
  while (!descriptorPath) {
    descriptorPath = /^\s*descriptor (\S.*)$/m.exec(output)?.[1]?.trim();
    if (descriptorPath) break;
    if (hasExited || Date.now() - started > 60_000) {
      await stop('SIGKILL');
      throw new Error(`kino workspace ${file} did not start:\n${output}`);
    }
    await sleep(50);
  }
  const descriptor = JSON.parse(readFileSync(descriptorPath, 'utf8')) as WorkspaceDescriptorFile;
  const port = Number(new URL(descriptor.endpoint).port);
  Object.assign(workspace, {
    descriptorPath,
    descriptor,
    endpoint: descriptor.endpoint,
    port,
    token: descriptor.token,
    resultsDir: join(dirname(descriptorPath), 'results'),
  });
  return workspace;
}

/** Stops every workspace still running (asking its worker to go too) and removes every temp folder. */
export async function cleanupWorkspaces(): Promise<void> {
  await Promise.all(
    [...running].map(async (workspace) => {
      const worker = workspace.token ? await workerPid(workspace).catch(() => undefined) : undefined;
      await workspace.stop('SIGTERM');
      // The workspace kills its worker on the way out; make sure, so no test leaves one behind.
      if (worker !== undefined && !(await waitUntilGone(worker, 5_000))) {
        try {
          process.kill(worker, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }),
  );
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

async function workerPid(workspace: StartedWorkspace): Promise<number | undefined> {
  const answer = await raw(workspace, { path: '/status', timeoutMs: 2_000 });
  const pid = (answer.json() as { worker?: { pid?: number | null } }).worker?.pid;
  return typeof pid === 'number' ? pid : undefined;
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json(): Record<string, unknown>;
}

export interface RawRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path and query, sent exactly as given (no normalisation, no encoding). */
  path: string;
  /** Sent as is; `Host` defaults to 127.0.0.1:<port>. */
  headers?: Record<string, string>;
  /** The token header: the workspace's by default, `null` to leave it out, or another value. */
  token?: string | null;
  /** An object is sent as JSON; a string or Buffer as it is (with content-type application/json). */
  body?: unknown;
  /**
   * Send only this many bytes of the body (Content-Length still declares all of it) and take the
   * answer. For a refusal by declared size: the server answers and closes the connection without
   * reading on, so writing the rest races that close (EPIPE) and can lose the answer.
   */
  sendBytes?: number;
  timeoutMs?: number;
}

/** One HTTP request to the workspace with full control of the headers (node:http, no agent). */
export function raw(workspace: StartedWorkspace, options: RawRequest): Promise<RawAnswer> {
  const token = options.token === undefined ? workspace.token : options.token;
  const body =
    options.body === undefined
      ? undefined
      : Buffer.isBuffer(options.body)
        ? options.body
        : Buffer.from(typeof options.body === 'string' ? options.body : JSON.stringify(options.body));
  const headers: Record<string, string> = {
    host: `127.0.0.1:${workspace.port}`,
    ...(token === null ? {} : { 'x-kino-token': token }),
    ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: workspace.port,
        method: options.method ?? (body ? 'POST' : 'GET'),
        path: options.path,
        headers,
        agent: false,
        timeout: options.timeoutMs ?? 60_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          if (options.sendBytes !== undefined) req.destroy();
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: bytes,
            text,
            json: () => JSON.parse(text) as Record<string, unknown>,
          });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer to ${options.path} in time`)));
    req.on('error', reject);
    if (body && options.sendBytes !== undefined) req.write(body.subarray(0, options.sendBytes));
    else req.end(body);
  });
}

export interface OpenJob {
  /** Every NDJSON line received so far, parsed (none when the answer is not a stream). */
  lines: JobStreamLine[];
  /** Status and headers, once they arrive. */
  head: Promise<{ status: number; headers: IncomingHttpHeaders }>;
  /** The whole answer, once it ends (rejects if the request was aborted or failed). */
  ended: Promise<RawAnswer>;
  /** The first line (received or to come) that `match` accepts. */
  line(match: (line: JobStreamLine) => boolean, timeoutMs?: number): Promise<JobStreamLine>;
  /** Closes the connection, as a client that goes away. */
  abort(): void;
}

/**
 * POST /jobs kept open: with `stream` (the default) it asks for the NDJSON progress stream and
 * parses lines as they arrive; without it, it is a plain request that can still be aborted mid-way.
 */
export function openJob(
  workspace: StartedWorkspace,
  body: Record<string, unknown>,
  options: { stream?: boolean; headers?: Record<string, string> } = {},
): OpenJob {
  const bytes = Buffer.from(JSON.stringify(body));
  const lines: JobStreamLine[] = [];
  const waiters: { match: (line: JobStreamLine) => boolean; resolve: (line: JobStreamLine) => void }[] = [];
  let resolveHead!: (head: { status: number; headers: IncomingHttpHeaders }) => void;
  const head = new Promise<{ status: number; headers: IncomingHttpHeaders }>((r) => (resolveHead = r));
  const req = httpRequest({
    host: '127.0.0.1',
    port: workspace.port,
    method: 'POST',
    path: '/jobs',
    agent: false,
    headers: {
      host: `127.0.0.1:${workspace.port}`,
      'x-kino-token': workspace.token,
      'content-type': 'application/json',
      'content-length': String(bytes.length),
      ...(options.stream === false ? {} : { accept: 'application/x-ndjson' }),
      ...options.headers,
    },
  });
  const ended = new Promise<RawAnswer>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      resolveHead({ status: res.statusCode ?? 0, headers: res.headers });
      const streamed = /^application\/x-ndjson/.test(res.headers['content-type'] ?? '');
      const chunks: Buffer[] = [];
      let pending = '';
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (!streamed) return;
        pending += chunk.toString('utf8');
        let newline: number;
        while ((newline = pending.indexOf('\n')) >= 0) {
          const line = JSON.parse(pending.slice(0, newline)) as JobStreamLine;
          pending = pending.slice(newline + 1);
          lines.push(line);
          for (const waiter of [...waiters]) {
            if (!waiter.match(line)) continue;
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(line);
          }
        }
      });
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('the answer was cut off')));
      res.on('end', () => {
        const all = Buffer.concat(chunks);
        const text = all.toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: all,
          text,
          json: () => JSON.parse(text) as Record<string, unknown>,
        });
      });
    });
  });
  // An aborted request rejects `ended`; a test that aborts on purpose need not look.
  ended.catch(() => undefined);
  req.end(bytes);
  return {
    lines,
    head,
    ended,
    line(match, timeoutMs = 60_000) {
      const seen = lines.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('timed out waiting for a stream line')), timeoutMs);
        waiters.push({
          match,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        });
        void ended.then(
          () => reject(new Error(`the stream ended without such a line: ${JSON.stringify(lines)}`)),
          (error: unknown) => reject(error as Error),
        );
      });
    },
    abort: () => req.destroy(),
  };
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  milliseconds: number;
}

/** Runs `kino ...args`; a run past `timeoutMs` is killed (and reported with signal SIGKILL). */
export function kino(args: string[], options: { timeoutMs?: number } = {}): Promise<CliRun> {
  return spawnKino(args, options).run;
}

/** `kino ...args` with its process at hand (to signal it), and its run. */
export function spawnKino(
  args: string[],
  options: { timeoutMs?: number } = {},
): { child: ChildProcess; output: () => string; run: Promise<CliRun> } {
  const started = performance.now();
  const child = spawn(process.execPath, [KINO_BIN, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const run = new Promise<CliRun>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, milliseconds: performance.now() - started });
    });
  });
  return { child, output: () => stdout + stderr, run };
}

/** `kino session <descriptor> ...args`. */
export function session(descriptorPath: string, ...args: string[]): Promise<CliRun> {
  return kino(['session', descriptorPath, ...args]);
}

/** `kino session <descriptor> ...args --json`, with the printed answer parsed. */
export async function sessionJson(
  descriptorPath: string,
  ...args: string[]
): Promise<CliRun & { json: Record<string, unknown> }> {
  const run = await session(descriptorPath, ...args, '--json');
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(run.stdout) as Record<string, unknown>;
  } catch {
    throw new Error(
      `session ${args.join(' ')} --json printed no JSON (exit ${run.code}):\n${run.stdout}\n${run.stderr}`,
    );
  }
  return { ...run, json };
}

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
export function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (!bytes.subarray(0, 8).equals(signature)) throw new Error(`${file} is not a PNG`);
  if (bytes.toString('latin1', 12, 16) !== 'IHDR') throw new Error(`${file} has no IHDR first`);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The process is gone (or a zombie nobody reaped yet: it runs no code either way). */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

export async function waitUntilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const started = Date.now();
  while (!processGone(pid)) {
    if (Date.now() - started > timeoutMs) return false;
    await sleep(25);
  }
  return true;
}

/** Polls `check` until it returns a value other than undefined/false. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 20_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** Writes a session descriptor file (mode 0600 unless told) for descriptor-check tests. */
export function writeDescriptorFile(
  file: string,
  descriptor: Partial<WorkspaceDescriptorFile>,
  mode = 0o600,
): string {
  writeFileSync(file, JSON.stringify(descriptor, null, 2) + '\n', { mode });
  chmodSync(file, mode);
  return file;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
