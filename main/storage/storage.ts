// Where finished renders live. The API speaks to this interface only, so a remote object store
// (S3) drops in beside the local directory without touching the routes or the queue.
import { splitFileKind } from './signed-link.ts';
import type { BaseFileKind, FileKind } from './signed-link.ts';

/**
 * A render's id as the API makes them ("rnd_" and random base64url): the one shape storage, workers
 * and request schemas accept, since paths and keys are built from it.
 */
export const RENDER_ID_SOURCE = '^rnd_[A-Za-z0-9_-]{20,64}$';
export const RENDER_ID_PATTERN = new RegExp(RENDER_ID_SOURCE);

export interface StoredFileRef {
  id: string;
  kind: FileKind;
  /** The file's extension with its dot, e.g. ".mp4": part of the stored name. */
  extension: string;
}

/** What a stored file is, for the stores that keep it with the object (S3). */
export interface StoredFileMeta {
  contentType: string;
  /** The name a download saves as (Content-Disposition). */
  filename: string;
}

/** Who may fetch the file, and until when (the download token's life). */
export interface DeliveryTerms {
  visibility: 'public' | 'private';
  /** Epoch ms when the render expires: a redirect must not outlive it. */
  expiresAt: number;
  now: number;
}

/** How a stored file reaches a client: streamed by this server, or by redirecting elsewhere. */
export type FileDelivery = { kind: 'local'; path: string } | { kind: 'redirect'; url: string };

export interface RenderStorage {
  readonly backend: 'local' | 's3';
  /**
   * Moves a finished file from the worker's scratch space into storage; returns its size. A failed
   * put leaves no file that looks finished.
   */
  put(ref: StoredFileRef, sourcePath: string, meta: StoredFileMeta): Promise<{ bytes: number }>;
  deliver(ref: StoredFileRef, terms: DeliveryTerms): Promise<FileDelivery>;
  /** Deletes every file of one render; returns how many files and bytes went. */
  removeRender(id: string): Promise<{ files: number; bytes: number }>;
  /** What removeRender would free, without deleting (for a dry-run cleanup). */
  measureRender(id: string): Promise<{ files: number; bytes: number }>;
  /** Throws when files cannot be written (readiness). */
  checkWritable(): Promise<void>;
  /**
   * Keeps chunk `index` of a render split across workers (moved from `sourcePath`), beside the
   * render's files until the stitch takes it; removeRender removes it too.
   */
  putChunk(id: string, index: number, sourcePath: string, part?: ChunkPart): Promise<void>;
  /** Copies chunk `index` to `targetPath` (a worker's scratch folder, on any host); false if absent. */
  fetchChunk(id: string, index: number, targetPath: string, part?: ChunkPart): Promise<boolean>;
  /** Deletes a render's chunks 0 … count-1 (video and poster) once stitched or no longer wanted. */
  removeChunks(id: string, count: number): Promise<void>;
}

/** What a chunk file is: its video, or the render's poster when its frame is in that chunk. */
export type ChunkPart = 'video' | 'poster';

/** A chunk's name beside its render's files. */
export const chunkName = (index: number, part: ChunkPart = 'video'): string => {
  if (!Number.isInteger(index) || index < 0 || index > 999) throw new Error(`bad chunk index ${index}`);
  return `chunk-${index}${part === 'video' ? '.mp4' : '.png'}`;
};

const DOWNLOAD_SUFFIX: Record<BaseFileKind, string> = { video: '', poster: '.poster', receipt: '.render' };

/** The name a stored file downloads as: rnd_….mp4, rnd_….poster.png, rnd_….render.json (rnd_…-1.mp4 …). */
export function downloadName(ref: StoredFileRef): string {
  const { base, index } = splitFileKind(ref.kind);
  return `${ref.id}${index === 0 ? '' : `-${index}`}${DOWNLOAD_SUFFIX[base]}${ref.extension}`;
}
