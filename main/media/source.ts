// Turns a spec's media source string into a local file the renderer may read: a file inside the
// project (never outside it, whatever `..` or symlinks say), or a remote URL downloaded into the cache.
import { createHash } from 'node:crypto';
import { mkdir, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep, win32 } from 'node:path';
import { MediaError } from './media-error.ts';
import { refusedProjectFile } from './project-file-gate.ts';
import { assertHostAllowed } from './policy.ts';
import type { MediaPolicy } from './policy.ts';
import { safeFetchToFile } from './safe-fetch.ts';
import type { SafeFetchOptions } from './safe-fetch.ts';

export interface MediaProject {
  /** Project root: plain relative sources resolve against it. */
  root: string;
  /** Where "asset:<path>" sources live. */
  assetsDir: string;
  policy: MediaPolicy;
  /** Downloaded remote media is kept here, named by a hash of its URL. */
  cacheDir: string;
}

export interface ResolvedMedia {
  kind: 'file';
  path: string;
  /** The folder the file was judged to be inside; whoever opens it later checks it again there. */
  root: string;
}

/** Test seams of the remote fetch (address checks); production code leaves them unset. */
export type RemoteFetchOverrides = Pick<SafeFetchOptions, 'resolveHost' | 'isAddressAllowed'>;

const ASSET_PREFIX = 'asset:';
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

export async function resolveMediaSource(
  src: string,
  project: MediaProject,
  signal?: AbortSignal,
  remote: RemoteFetchOverrides = {},
): Promise<ResolvedMedia> {
  if (src.startsWith(ASSET_PREFIX)) {
    return {
      kind: 'file',
      path: await resolveLocal(src, src.slice(ASSET_PREFIX.length), project.assetsDir, 'assets directory'),
      root: project.assetsDir,
    };
  }
  const scheme = SCHEME.exec(src)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') {
    return { kind: 'file', path: await fetchRemote(src, project, signal, remote), root: project.cacheDir };
  }
  // A Windows drive ("C:\x") looks like a scheme; it is an absolute path and refused as one below.
  if (scheme !== undefined && !win32.isAbsolute(src)) {
    throw new MediaError(
      'media_unsupported_scheme',
      `media source "${src}" uses the unsupported scheme "${scheme}:"; use "asset:<path>", a path relative to the project, or an http(s) URL`,
      { source: src },
    );
  }
  return { kind: 'file', path: await resolveLocal(src, src, project.root, 'project'), root: project.root };
}

function isInside(base: string, candidate: string): boolean {
  const rel = relative(base, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

async function resolveLocal(src: string, path: string, base: string, baseName: string): Promise<string> {
  if (path === '' || isAbsolute(path) || win32.isAbsolute(path) || path.startsWith('\\')) {
    throw new MediaError(
      'media_absolute_path',
      `media source "${src}" must be relative to the ${baseName} (${base}), not an absolute path`,
      { source: src },
    );
  }
  const outside = (): MediaError =>
    new MediaError(
      'media_outside_project',
      `media source "${src}" points outside the ${baseName} (${base})`,
      {
        source: src,
      },
    );
  const lookedUp = resolve(base, path);
  if (!isInside(resolve(base), lookedUp)) throw outside();
  const privateFile = (why: string): MediaError =>
    new MediaError('media_private_file', `media source "${src}" cannot be used: ${why}`, { source: src });
  // Judged by the name as written, and again by where a symlink lands (below).
  const refused = refusedProjectFile(relative(resolve(base), lookedUp));
  if (refused) throw privateFile(refused);
  let real: string;
  try {
    real = await realpath(lookedUp);
  } catch (error) {
    if (
      (error as NodeJS.ErrnoException).code === 'ENOENT' ||
      (error as NodeJS.ErrnoException).code === 'ENOTDIR'
    ) {
      throw new MediaError('missing_asset', `media source "${src}" not found (looked for ${lookedUp})`, {
        source: src,
        cause: error,
      });
    }
    throw new MediaError('media_unreadable', `media source "${src}" cannot be read (${lookedUp})`, {
      source: src,
      cause: error,
    });
  }
  // Symlinks are judged by where they land, against the real location of the base.
  const realBase = await realpath(base).catch(() => resolve(base));
  if (!isInside(realBase, real)) throw outside();
  const refusedTarget = refusedProjectFile(relative(realBase, real));
  if (refusedTarget) throw privateFile(refusedTarget);
  const info = await stat(real);
  if (!info.isFile()) {
    throw new MediaError('media_not_a_file', `media source "${src}" is not a file (${lookedUp})`, {
      source: src,
    });
  }
  return real;
}

/** Downloads in flight, so two uses of one URL in a render fetch it once. */
const inFlight = new Map<string, Promise<string>>();

export function remoteCachePath(url: string, cacheDir: string): string {
  const hash = createHash('sha256').update(url).digest('hex').slice(0, 32);
  let extension = '';
  try {
    extension = extname(new URL(url).pathname).toLowerCase();
  } catch {
    // no extension
  }
  return join(cacheDir, `${hash}${/^\.[a-z0-9]{1,5}$/.test(extension) ? extension : ''}`);
}

async function fetchRemote(
  src: string,
  project: MediaProject,
  signal: AbortSignal | undefined,
  remote: RemoteFetchOverrides,
): Promise<string> {
  const destination = remoteCachePath(src, project.cacheDir);
  const cached = await stat(destination).catch(() => undefined);
  // A cached file is only reused while the policy still allows its host.
  if (cached?.isFile()) {
    assertHostAllowed(new URL(src).hostname, project.policy, src);
    return destination;
  }
  const pending = inFlight.get(destination);
  if (pending) return pending;
  const download = (async () => {
    await mkdir(project.cacheDir, { recursive: true });
    const fetched = await safeFetchToFile(src, destination, {
      policy: project.policy,
      signal,
      source: src,
      ...remote,
    });
    return fetched.path;
  })();
  inFlight.set(destination, download);
  try {
    return await download;
  } finally {
    inFlight.delete(destination);
  }
}
