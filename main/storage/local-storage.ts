// The local-directory backend: one folder per render, files named by kind.
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { RENDER_ID_PATTERN, chunkName } from './storage.ts';
import type {
  ChunkPart,
  DeliveryTerms,
  FileDelivery,
  RenderStorage,
  StoredFileMeta,
  StoredFileRef,
} from './storage.ts';

export class LocalStorage implements RenderStorage {
  readonly backend = 'local';
  readonly #root: string;

  constructor(root: string) {
    this.#root = path.resolve(root);
  }

  /** Ids come from the server, but a path is only ever built from one that has the id's shape. */
  #renderDir(id: string): string {
    if (!RENDER_ID_PATTERN.test(id)) throw new Error(`not a render id: ${JSON.stringify(id)}`);
    return path.join(this.#root, id);
  }

  #filePath(ref: StoredFileRef): string {
    if (!/^\.[a-z0-9]{1,5}$/.test(ref.extension)) throw new Error(`bad extension ${ref.extension}`);
    return path.join(this.#renderDir(ref.id), `${ref.kind}${ref.extension}`);
  }

  async put(ref: StoredFileRef, sourcePath: string, _meta?: StoredFileMeta): Promise<{ bytes: number }> {
    return this.#moveIn(sourcePath, this.#filePath(ref));
  }

  async putChunk(id: string, index: number, sourcePath: string, part: ChunkPart = 'video'): Promise<void> {
    await this.#moveIn(sourcePath, path.join(this.#renderDir(id), chunkName(index, part)));
  }

  async fetchChunk(
    id: string,
    index: number,
    targetPath: string,
    part: ChunkPart = 'video',
  ): Promise<boolean> {
    try {
      await copyFile(path.join(this.#renderDir(id), chunkName(index, part)), targetPath);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  async removeChunks(id: string, count: number): Promise<void> {
    for (let index = 0; index < count; index++) {
      for (const part of ['video', 'poster'] as const) {
        await rm(path.join(this.#renderDir(id), chunkName(index, part)), { force: true });
      }
    }
  }

  /** Moved in under a staging name, then renamed: a failed move leaves nothing that looks finished. */
  async #moveIn(sourcePath: string, target: string): Promise<{ bytes: number }> {
    await mkdir(path.dirname(target), { recursive: true });
    const staging = `${target}.${randomBytes(4).toString('hex')}.partial`;
    try {
      await rename(sourcePath, staging);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await copyFile(sourcePath, staging);
      await unlink(sourcePath);
    }
    await rename(staging, target);
    return { bytes: (await stat(target)).size };
  }

  async deliver(ref: StoredFileRef, _terms?: DeliveryTerms): Promise<FileDelivery> {
    return { kind: 'local', path: this.#filePath(ref) };
  }

  async measureRender(id: string): Promise<{ files: number; bytes: number }> {
    const dir = this.#renderDir(id);
    const names = await readdir(dir).catch(() => [] as string[]);
    let bytes = 0;
    for (const name of names) bytes += (await stat(path.join(dir, name)).catch(() => undefined))?.size ?? 0;
    return { files: names.length, bytes };
  }

  async removeRender(id: string): Promise<{ files: number; bytes: number }> {
    // A download already streaming keeps its open descriptor, so it completes after the unlink.
    const measured = await this.measureRender(id);
    await rm(this.#renderDir(id), { recursive: true, force: true });
    return measured;
  }

  async checkWritable(): Promise<void> {
    await mkdir(this.#root, { recursive: true });
    const probe = path.join(this.#root, `.probe-${randomBytes(4).toString('hex')}`);
    await writeFile(probe, 'ok');
    await rm(probe, { force: true });
  }
}
