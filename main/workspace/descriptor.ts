// The session descriptor: how a client finds a running workspace and proves it may use it. It lives
// at build/kino/<name>.workspace/session.json in the source's project, in a folder only its owner
// can enter (0700), in a file only its owner can read (0600).
import { chmod, lstat, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { isAlive } from '../fs/pid-lock.ts';
import { writeFileAtomically } from '../fs/atomic-write.ts';

export interface WorkspaceDescriptor {
  endpoint: string;
  token: string;
  pid: number;
  source: string;
  startupTimeoutSeconds: number;
  requestTimeoutSeconds: number;
  createdAt: string;
}

export interface WorkspacePaths {
  dir: string;
  descriptor: string;
  results: string;
  /** Where the worker writes compiled bundles (deleted once imported). */
  staging: string;
}

export function workspacePaths(projectRoot: string, source: string): WorkspacePaths {
  const name = path.basename(source).replace(/\.[^.]*$/, '');
  const dir = path.join(projectRoot, 'build', 'kino', `${name}.workspace`);
  return {
    dir,
    descriptor: path.join(dir, 'session.json'),
    results: path.join(dir, 'results'),
    staging: path.join(dir, 'staging'),
  };
}

/** Creates the workspace folder (0700) with its results and staging folders. */
export async function prepareWorkspaceDir(paths: WorkspacePaths): Promise<void> {
  await mkdir(paths.dir, { recursive: true, mode: 0o700 });
  // mkdir's mode is filtered by the umask and leaves an existing folder as it was.
  await chmod(paths.dir, 0o700);
  await mkdir(paths.results, { recursive: true, mode: 0o700 });
  await mkdir(paths.staging, { recursive: true, mode: 0o700 });
}

export async function writeDescriptor(file: string, descriptor: WorkspaceDescriptor): Promise<void> {
  await writeFileAtomically(file, JSON.stringify(descriptor, null, 2) + '\n', { mode: 0o600 });
}

/** Removes the descriptor if it is still this process's (never another workspace's). */
export async function removeDescriptor(file: string, pid: number): Promise<void> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return;
  try {
    if ((JSON.parse(text) as { pid?: unknown }).pid !== pid) return;
  } catch {
    // Not a descriptor we can read: it is not ours to keep either.
  }
  await rm(file, { force: true });
}

/** The descriptor of a workspace that is still running for this source, if there is one. */
export async function runningWorkspace(file: string): Promise<WorkspaceDescriptor | undefined> {
  const info = await lstat(file).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  try {
    const descriptor = JSON.parse(await readFile(file, 'utf8')) as WorkspaceDescriptor;
    return typeof descriptor.pid === 'number' && descriptor.pid !== process.pid && isAlive(descriptor.pid)
      ? descriptor
      : undefined;
  } catch {
    return undefined;
  }
}
