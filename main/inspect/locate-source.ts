// Finds the file behind a media or font source the way a render would, without downloading anything:
// inspect runs on every edit, and a remote file is only fetched by the render that needs it.
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import type { MediaContext } from '../engine/project-context.ts';
import { MediaError } from '../media/media-error.ts';
import { assertHostAllowed } from '../media/policy.ts';
import { remoteCachePath, resolveMediaSource } from '../media/source.ts';

export interface LocatedSource {
  /** The local file, when there is one now. */
  path?: string;
  /** http(s) sources: whether the download cache already holds a copy. */
  remote?: 'cached' | 'not-downloaded';
  /** Why a render cannot read it: the MediaError's code and message. */
  missing?: { code: string; reason: string };
  /** For a missing file: a file with a similar name where it was looked for (a likely typo). */
  suggestion?: string;
}

const ASSET_PREFIX = 'asset:';

function isRemote(src: string): boolean {
  return /^https?:/i.test(src);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[b.length]!;
}

/** Names further apart than this are different files, not typos. */
const MAX_TYPO_DISTANCE = 3;

/** The source string that would name a similarly-spelt file next to the missing one, if any. */
async function similarSource(src: string, media: MediaContext): Promise<string | undefined> {
  const isAsset = src.startsWith(ASSET_PREFIX);
  const relativePath = isAsset ? src.slice(ASSET_PREFIX.length) : src;
  const lookedUp = resolve(isAsset ? media.assetsDir : media.root, relativePath);
  const wanted = basename(lookedUp).toLowerCase();
  const names = await readdir(dirname(lookedUp)).catch(() => [] as string[]);
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(wanted, name.toLowerCase());
    if (distance <= MAX_TYPO_DISTANCE && (!best || distance < best.distance)) best = { name, distance };
  }
  if (!best) return undefined;
  const folder = relativePath.includes('/') ? relativePath.slice(0, relativePath.lastIndexOf('/') + 1) : '';
  return `${isAsset ? ASSET_PREFIX : ''}${folder}${best.name}`;
}

function asMissing(error: unknown): LocatedSource['missing'] {
  if (error instanceof MediaError) return { code: error.code, reason: error.message };
  throw error;
}

async function locateRemote(src: string, media: MediaContext): Promise<LocatedSource> {
  try {
    assertHostAllowed(new URL(src).hostname, media.policy, src);
  } catch (error) {
    return { missing: asMissing(error) };
  }
  const cached = remoteCachePath(src, media.cacheDir);
  const info = await stat(cached).catch(() => undefined);
  return info?.isFile() ? { path: cached, remote: 'cached' } : { remote: 'not-downloaded' };
}

export async function locateSource(
  src: string,
  media: MediaContext,
  signal?: AbortSignal,
): Promise<LocatedSource> {
  if (isRemote(src)) return locateRemote(src, media);
  try {
    // Local sources only: resolveMediaSource fetches nothing for them.
    const { path } = await resolveMediaSource(src, media, signal);
    return { path };
  } catch (error) {
    const missing = asMissing(error);
    const located: LocatedSource = { missing };
    if (missing?.code === 'missing_asset') {
      const suggestion = await similarSource(src, media);
      if (suggestion !== undefined) located.suggestion = suggestion;
    }
    return located;
  }
}
