// Reads a workspace descriptor for the session CLI, refusing one that could point the token
// somewhere else or that other users could have read or planted.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { LOOPBACK_HOSTS } from '../http/loopback-guard.ts';

export interface SessionDescriptor {
  endpoint: string;
  token: string;
  pid: number;
  source: string;
  requestTimeoutSeconds: number;
}

export class DescriptorError extends Error {
  override name = 'DescriptorError';
}

/** http:// on a loopback address with a port, and nothing else (no path, user or query). */
export function checkEndpoint(endpoint: unknown): string {
  if (typeof endpoint !== 'string') throw new DescriptorError('its endpoint is missing');
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new DescriptorError(`its endpoint "${endpoint}" is not a URL`);
  }
  if (url.protocol !== 'http:') {
    throw new DescriptorError(
      `its endpoint "${endpoint}" is not http:// (a workspace serves plain HTTP on loopback)`,
    );
  }
  if (!LOOPBACK_HOSTS.includes(url.hostname)) {
    throw new DescriptorError(
      `its endpoint "${endpoint}" is not a loopback address (127.0.0.1, localhost or [::1])`,
    );
  }
  if (
    url.username ||
    url.password ||
    (url.pathname !== '/' && url.pathname !== '') ||
    url.search ||
    url.hash
  ) {
    throw new DescriptorError(`its endpoint "${endpoint}" must be just http://<loopback>:<port>`);
  }
  return url.origin;
}

/** A descriptor is a few hundred bytes; anything far larger is not one. */
const MAX_DESCRIPTOR_BYTES = 64 * 1024;

export async function readSessionDescriptor(file: string): Promise<SessionDescriptor> {
  // One handle, opened without following a symlink, is checked and read: the file cannot be
  // swapped between the checks and the read. O_NONBLOCK: a FIFO put in its place must not hang us.
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(
    (error: NodeJS.ErrnoException) => {
      throw new DescriptorError(
        error.code === 'ENOENT'
          ? `${file} does not exist: start the workspace with "kino workspace <file.ts>" and pass the descriptor it prints`
          : error.code === 'ELOOP'
            ? `${file} is a symlink; pass the descriptor file itself`
            : `${file} cannot be read (${error.code})`,
      );
    },
  );
  let text: string;
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new DescriptorError(`${file} is not a file`);
    if (info.size > MAX_DESCRIPTOR_BYTES) {
      throw new DescriptorError(`${file} is ${info.size} bytes, too large to be a workspace descriptor`);
    }
    if ((info.mode & 0o077) !== 0) {
      throw new DescriptorError(
        `${file} is readable by other users (mode ${(info.mode & 0o777).toString(8)}); it holds a token: chmod 600 it`,
      );
    }
    if (typeof process.getuid === 'function' && info.uid !== process.getuid()) {
      throw new DescriptorError(`${file} belongs to another user (uid ${info.uid})`);
    }
    text = await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new DescriptorError(`${file} is not a workspace descriptor (not JSON)`);
  }
  if (typeof parsed.token !== 'string' || parsed.token === '')
    throw new DescriptorError(`${file} has no token`);
  try {
    return {
      endpoint: checkEndpoint(parsed.endpoint),
      token: parsed.token,
      pid: typeof parsed.pid === 'number' ? parsed.pid : 0,
      source: typeof parsed.source === 'string' ? parsed.source : '',
      requestTimeoutSeconds:
        typeof parsed.requestTimeoutSeconds === 'number' ? parsed.requestTimeoutSeconds : 300,
    };
  } catch (error) {
    throw new DescriptorError(`${file}: ${(error as Error).message}`);
  }
}
