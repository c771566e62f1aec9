// Where finished renders live. The API speaks to this interface only, so a remote object store
// (S3) drops in beside the local directory without touching the routes or the queue.
import type { FileKind } from './signed-link.ts';

export interface StoredFileRef {
  id: string;
  kind: FileKind;
  /** The file's extension with its dot, e.g. ".mp4": part of the stored name. */
  extension: string;
}

/** How a stored file reaches a client: streamed by this server, or by redirecting elsewhere. */
export type FileDelivery = { kind: 'local'; path: string } | { kind: 'redirect'; url: string };

export interface RenderStorage {
  readonly backend: 'local';
  /** Moves a finished file from the worker's scratch space into storage; returns its size. */
  put(ref: StoredFileRef, sourcePath: string): Promise<{ bytes: number }>;
  deliver(ref: StoredFileRef): Promise<FileDelivery>;
  /** Deletes every file of one render; returns how many files and bytes went. */
  removeRender(id: string): Promise<{ files: number; bytes: number }>;
  /** What removeRender would free, without deleting (for a dry-run cleanup). */
  measureRender(id: string): Promise<{ files: number; bytes: number }>;
  /** Throws when files cannot be written (readiness). */
  checkWritable(): Promise<void>;
}
