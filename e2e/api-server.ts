// Starts the real render API (`kino serve`) in a child process on a free loopback port, as an
// operator would, and gives tests a small client for it.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import type { components } from './api-client/openapi.d.ts';
import { KINO_BIN, REPO_ROOT } from './cli-helpers.ts';

export const TEST_API_TOKEN = 'test-api-token-0123456789abcdef';
export const TEST_CLEANUP_TOKEN = 'test-cleanup-token-0123456789abcdef';

/** One second of square video: about a second of rendering at draft quality. */
export const TINY_SPEC: components['schemas']['VideoSpec'] = {
  kinoSpec: 1,
  aspect: 'square',
  fps: 30,
  scenes: [
    {
      duration: '1s',
      background: '#1e1b4b',
      elements: [{ type: 'text', text: 'Hello', size: 120, animate: [{ preset: 'fadeIn' }] }],
    },
  ],
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it gives a value (not undefined or false), or fails naming `what`. */
export async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  { timeoutMs = 30_000, intervalMs = 150 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: Record<string, unknown>;
}

/**
 * Reads a response as a client would, checking it leaks neither a stack trace nor a secret (the
 * test tokens, and any `secrets` given).
 */
export async function readAnswer(response: Response, secrets: readonly string[] = []): Promise<Answer> {
  const text = await response.text();
  expect(text).not.toContain('    at ');
  for (const secret of [TEST_API_TOKEN, TEST_CLEANUP_TOKEN, ...secrets]) expect(text).not.toContain(secret);
  const json = /json/.test(response.headers.get('content-type') ?? '');
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: json ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

export interface RunningApi {
  baseUrl: string;
  dataDir: string;
  process: ChildProcess;
  /** Everything the server wrote (structured logs on stdout, notices on stderr). */
  output: () => string;
  /** Sends SIGTERM and waits for the process to exit; resolves to its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Authorized fetch against the API. */
  api(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
}

export interface StartApiOptions {
  /** Reuse a data directory (a restart); default a fresh temporary one. */
  dataDir?: string;
  env?: Record<string, string>;
}

/** The environment `kino serve` runs with in tests: a free loopback port, the test tokens, no timer. */
export function serverEnv(dataDir: string, env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    API_TOKEN: TEST_API_TOKEN,
    CLEANUP_TOKEN: TEST_CLEANUP_TOKEN,
    CLEANUP_INTERVAL: '0',
    LOG_LEVEL: 'info',
    // Vitest exports Vite's BASE_URL ("/"); the server must derive its own.
    BASE_URL: '',
    // No AI provider unless a test configures one, whatever the machine's environment holds.
    OPENAI_API_KEY: '',
    ANTHROPIC_API_KEY: '',
    GOOGLE_GENERATIVE_AI_API_KEY: '',
    OPENAI_COMPATIBLE_BASE_URL: '',
    AI_PROVIDER: '',
    ...env,
  };
}

/**
 * Servers and folders a test file starts, each stopped and removed after its test whatever
 * happened; a failing test prints what its servers said, which helps more than the assertion alone.
 */
export function useApiServers(baseEnv: Record<string, string> = {}) {
  const servers = new Set<RunningApi>();
  const dirs = new Set<string>();
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') {
      for (const api of servers)
        console.error(`--- kino serve (${api.dataDir}):\n${api.output().slice(-6000)}`);
    }
    for (const api of servers) await api.stop('SIGKILL');
    servers.clear();
    // A worker orphaned by the kill stops on its own when its IPC channel closes.
    for (const dir of dirs) removeDataDir(dir);
    dirs.clear();
  });
  return {
    /** Starts a server with `baseEnv` under the test's own env, removed after the test. */
    async start(options: StartApiOptions = {}): Promise<RunningApi> {
      const api = await startApi({ ...options, env: { ...baseEnv, ...options.env } });
      servers.add(api);
      dirs.add(api.dataDir);
      return api;
    },
    /** Kills a server mid-test (its data dir stays until the test ends). */
    async kill(api: RunningApi): Promise<void> {
      await api.stop('SIGKILL');
      servers.delete(api);
    },
    /** Removes `dir` after the test. */
    removeAfter(dir: string): void {
      dirs.add(dir);
    },
  };
}

/** Starts `kino serve` and resolves once it listens. */
/** A long-running `kino` process (serve, worker) a test started, with everything it printed. */
export interface KinoProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** The first match of the readiness pattern in its output. */
  ready: RegExpExecArray;
}

/**
 * Starts `kino <args>` and waits until its output matches `ready`; fails (killing it) if it exits
 * first or takes more than 30 s.
 */
export async function startKinoProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
): Promise<KinoProcess> {
  const child = spawn(process.execPath, [KINO_BIN, ...args], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const what = `kino ${args[0]}`;
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start in 30s:\n${output}`)), 30_000);
    const check = () => {
      const found = ready.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code} before it was ready:\n${output}`));
    });
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return { child, output: () => output, exited, ready: match };
}

export async function startApi(options: StartApiOptions = {}): Promise<RunningApi> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'kino-api-'));
  const started = await startKinoProcess(
    ['serve'],
    serverEnv(dataDir, options.env),
    /Kino render API on (http:\/\/[^\s]+)/,
  ).catch((error: unknown) => {
    if (!options.dataDir) removeDataDir(dataDir);
    throw error;
  });
  const { child, output, exited } = started;
  const baseUrl = started.ready[1]!;

  return {
    baseUrl,
    dataDir,
    process: child,
    output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    api(path, init = {}) {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${TEST_API_TOKEN}`);
      if (json !== undefined) headers.set('content-type', 'application/json');
      return fetch(`${baseUrl}${path}`, {
        ...rest,
        headers,
        ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
      });
    },
  };
}

/** POSTs a render and expects it accepted (202). */
export async function postRender(api: RunningApi, body: Record<string, unknown>): Promise<RenderJobBody> {
  const response = await api.api('/v1/renders', { method: 'POST', json: body });
  const job = (await response.json()) as RenderJobBody;
  expect(response.status, JSON.stringify(job)).toBe(202);
  return job;
}

/** The job, or 'gone' once it answers 410 (expired or cleaned up). */
export async function getJob(api: RunningApi, id: string): Promise<RenderJobBody | 'gone'> {
  const response = await api.api(`/v1/renders/${id}`);
  if (response.status === 410) {
    await response.body?.cancel();
    return 'gone';
  }
  const job = (await response.json()) as RenderJobBody;
  expect(response.status, JSON.stringify(job)).toBe(200);
  return job;
}

/** Polls a render until it ends (succeeded, failed or canceled) and returns the job. */
export async function waitForRender(
  api: RunningApi,
  id: string,
  { timeoutMs = 180_000, until }: { timeoutMs?: number; until?: (job: RenderJobBody) => boolean } = {},
): Promise<RenderJobBody> {
  const deadline = Date.now() + timeoutMs;
  const done = until ?? ((job: RenderJobBody) => ['succeeded', 'failed', 'canceled'].includes(job.status));
  for (;;) {
    const response = await api.api(`/v1/renders/${id}`);
    const job = (await response.json()) as RenderJobBody;
    if (response.ok && done(job)) return job;
    if (!response.ok)
      throw new Error(`GET /v1/renders/${id} answered ${response.status}: ${JSON.stringify(job)}`);
    if (Date.now() > deadline) throw new Error(`render ${id} still ${job.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** The job as the API returns it, typed by the client types generated from the OpenAPI document. */
export type RenderJobBody = components['schemas']['RenderJob'];

export function removeDataDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
