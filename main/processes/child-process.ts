// Child processes for work that must not stall an HTTP event loop (renders, workspace captures):
// forked with IPC, in their own process group, without the parent's secrets in their environment.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { constants as osConstants, setPriority } from 'node:os';

/** Child processes run below the API's priority so polling stays fast while both cores encode. */
const CHILD_NICENESS = 10;

/**
 * Puts a child (and the ffmpeg it starts) behind the API. A detached child leads its own session,
 * and under Linux autogroup scheduling a task's nice value only weighs against tasks of the same
 * session: the session's group gets the lower weight through /proc/<pid>/autogroup. Both are best
 * effort; some systems refuse them.
 */
function lowerPriority(pid: number): void {
  try {
    setPriority(pid, Math.min(osConstants.priority.PRIORITY_LOW, CHILD_NICENESS));
  } catch {
    // Not permitted here: the render still runs, at normal priority.
  }
  if (process.platform === 'linux') {
    writeFile(`/proc/${pid}/autogroup`, String(CHILD_NICENESS)).catch(() => undefined);
  }
}

/** Kills a child and everything it started (it leads its own process group, ffmpeg included). */
export function killChildGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/**
 * The server's secrets, which no child process needs (storage, webhooks and AI calls that need them run in
 * the parent, or get their key over IPC) and which a composition's code could otherwise read.
 */
export const SERVER_SECRET_ENV: readonly string[] = [
  'API_TOKEN',
  'CLEANUP_TOKEN',
  'SIGNING_SECRET',
  'WEBHOOK_SECRET',
  // May carry the Redis password (redis://:password@host).
  'REDIS_URL',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'OPENAI_COMPATIBLE_API_KEY',
];

export interface ForkChildOptions {
  /** Environment variables the child must not see: a composition's code could read them. */
  withholdEnv: readonly string[];
  /** Run below the parent's priority (default true). */
  lowPriority?: boolean;
  /** Variables set for the child only where the parent's environment has none of that name. */
  envDefaults?: Record<string, string>;
  /** A cap on the child's JavaScript heap, in MiB: past it the child dies, not the server. */
  maxHeapMb?: number;
}

/**
 * Forks `entry` detached into its own process group, so a Ctrl+C at the terminal reaches only the
 * parent, which decides what happens to the work, and killChildGroup takes ffmpeg down with it.
 */
export function forkChild(entry: string, options: ForkChildOptions): ChildProcess {
  const env = { ...options.envDefaults, ...process.env };
  for (const name of options.withholdEnv) delete env[name];
  const child = fork(entry, [], {
    env,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'advanced',
    execArgv: [
      '--no-warnings',
      ...(options.maxHeapMb === undefined ? [] : [`--max-old-space-size=${options.maxHeapMb}`]),
    ],
    detached: true,
  });
  if (child.pid && options.lowPriority !== false) lowerPriority(child.pid);
  return child;
}
