// The S3-compatible backend (AWS S3, MinIO, R2, Ceph, Wasabi …) on the AWS SDK v3: files are
// streamed up as multipart uploads (never whole in memory) under <prefix>/<render id>/<kind>.<ext>
// with their Content-Type and Content-Disposition, and reach clients by redirect: to the public base
// URL (a CDN) for public files, else to a presigned GET that lives no longer than the render's
// download token, and never more than the 7 days S3 allows.
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { RENDER_ID_PATTERN, chunkName } from './storage.ts';
import type {
  ChunkPart,
  DeliveryTerms,
  FileDelivery,
  RenderStorage,
  StoredFileMeta,
  StoredFileRef,
} from './storage.ts';

export interface S3Settings {
  bucket: string;
  region: string;
  /** Another S3-compatible service's URL; unset for AWS. */
  endpoint?: string | undefined;
  /** Path-style URLs (endpoint/bucket/key), which most S3-compatible services need. */
  forcePathStyle: boolean;
  /** Folder of every key, without slashes at either end; '' for the bucket's root. */
  prefix: string;
  /** Both or neither: without them the AWS default credential chain applies. */
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** Public files redirect here (a CDN in front of the bucket): <base>/<key>. */
  publicBaseUrl?: string | undefined;
  /** The multipart part size (5 MiB is S3's least). */
  partSizeBytes?: number | undefined;
}

/** S3 refuses presigned URLs that live longer than a week. */
export const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;
const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
/**
 * The whole writability check, retries included: an endpoint that accepts connections and never
 * answers would otherwise hold a readiness probe, or a worker's start, forever.
 */
export const CHECK_TIMEOUT_MS = 10_000;
/** Network errors that mean the endpoint was not reached at all, rather than refusing. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
]);

/** An S3 failure told in words an operator can act on. */
export class S3StorageError extends Error {
  override name = 'S3StorageError';
}

function explain(error: unknown, settings: S3Settings, doing: string): S3StorageError {
  const named = error instanceof S3ServiceException ? error.name : (error as Error | undefined)?.name;
  // A HEAD answer has no body to name the error: its status says it.
  const status = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata
    ?.httpStatusCode;
  const byStatus = ({ 403: 'Forbidden', 404: 'NotFound' } as Record<number, string>)[status ?? 0];
  const name = named === undefined || /^Unknown/.test(named) ? (byStatus ?? named) : named;
  const where = `bucket "${settings.bucket}"${settings.endpoint ? ` at ${settings.endpoint}` : ''}`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const network = settings.endpoint ? 'check S3_ENDPOINT and the network' : 'check S3_REGION and the network';
  const reason =
    name === 'AbortError' || name === 'TimeoutError'
      ? `${where} did not answer within ${CHECK_TIMEOUT_MS / 1000}s: ${network}`
      : code && UNREACHABLE_CODES.has(code)
        ? `${where} cannot be reached (${code}): ${network}`
        : name === 'NoSuchBucket' || name === 'NotFound'
          ? `${where} does not exist`
          : name === 'InvalidAccessKeyId' || name === 'SignatureDoesNotMatch'
            ? `${where} refused the credentials (${name}): check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY`
            : name === 'Forbidden'
              ? `${where} refused the credentials or their permissions (403): check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, and that they may list, read, write and delete in the bucket`
              : name === 'AccessDenied'
                ? `${where} denied access: the credentials lack permission`
                : `${where} failed: ${(error as Error | undefined)?.message ?? String(error)}`;
  return new S3StorageError(`${doing}: ${reason}`, { cause: error });
}

export class S3Storage implements RenderStorage {
  readonly backend = 's3';
  readonly #settings: S3Settings;
  readonly #client: S3Client;

  constructor(settings: S3Settings) {
    this.#settings = { ...settings, prefix: settings.prefix.replace(/^\/+|\/+$/g, '') };
    this.#client = new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
      // Network hiccups and 5xx are retried a little; a missing bucket or a bad key is not retried.
      maxAttempts: 3,
    });
  }

  #renderPrefix(id: string): string {
    if (!RENDER_ID_PATTERN.test(id)) throw new Error(`not a render id: ${JSON.stringify(id)}`);
    return this.#settings.prefix ? `${this.#settings.prefix}/${id}/` : `${id}/`;
  }

  /** The object key of a file: <prefix>/<render id>/<kind><ext>. */
  key(ref: StoredFileRef): string {
    if (!/^\.[a-z0-9]{1,5}$/.test(ref.extension)) throw new Error(`bad extension ${ref.extension}`);
    return `${this.#renderPrefix(ref.id)}${ref.kind}${ref.extension}`;
  }

  async put(ref: StoredFileRef, sourcePath: string, meta: StoredFileMeta): Promise<{ bytes: number }> {
    const { size } = await stat(sourcePath);
    const body = createReadStream(sourcePath);
    const upload = new Upload({
      client: this.#client,
      params: {
        Bucket: this.#settings.bucket,
        Key: this.key(ref),
        Body: body,
        ContentType: meta.contentType,
        ContentDisposition: `attachment; filename="${meta.filename.replace(/["\\]/g, '')}"`,
      },
      partSize: this.#settings.partSizeBytes ?? DEFAULT_PART_SIZE,
      queueSize: 2,
      // A failed multipart upload is aborted: no parts, and no object, are left behind.
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      throw explain(error, this.#settings, `uploading ${ref.kind} of ${ref.id}`);
    } finally {
      body.destroy();
    }
    return { bytes: size };
  }

  async deliver(ref: StoredFileRef, terms: DeliveryTerms): Promise<FileDelivery> {
    const key = this.key(ref);
    if (terms.visibility === 'public' && this.#settings.publicBaseUrl) {
      const path = key.split('/').map(encodeURIComponent).join('/');
      return { kind: 'redirect', url: `${this.#settings.publicBaseUrl.replace(/\/+$/, '')}/${path}` };
    }
    // SigV4 dates a link in whole seconds (the second it is signed in, rounded down), so the link
    // lives until that second plus expiresIn: rounded up from there, it never ends before expiresAt.
    const signedAt = Math.floor(terms.now / 1000) * 1000;
    const expiresIn = Math.max(
      1,
      Math.min(MAX_PRESIGN_SECONDS, Math.ceil((terms.expiresAt - signedAt) / 1000)),
    );
    const url = await getSignedUrl(
      this.#client,
      new GetObjectCommand({ Bucket: this.#settings.bucket, Key: key }),
      { expiresIn },
    );
    return { kind: 'redirect', url };
  }

  /** Every object of a render, with its size (one listing page holds them all: a render has ≤ 3). */
  async #objects(id: string): Promise<{ Key: string; Size: number }[]> {
    try {
      const listed = await this.#client.send(
        new ListObjectsV2Command({ Bucket: this.#settings.bucket, Prefix: this.#renderPrefix(id) }),
      );
      return (listed.Contents ?? []).map((object) => ({ Key: object.Key!, Size: object.Size ?? 0 }));
    } catch (error) {
      throw explain(error, this.#settings, `listing the files of ${id}`);
    }
  }

  async measureRender(id: string): Promise<{ files: number; bytes: number }> {
    const objects = await this.#objects(id);
    return { files: objects.length, bytes: objects.reduce((sum, object) => sum + object.Size, 0) };
  }

  async removeRender(id: string): Promise<{ files: number; bytes: number }> {
    const objects = await this.#objects(id);
    if (objects.length > 0) {
      try {
        // Deleting an object that is already gone succeeds: S3 deletes are idempotent.
        await this.#client.send(
          new DeleteObjectsCommand({
            Bucket: this.#settings.bucket,
            Delete: { Objects: objects.map(({ Key }) => ({ Key })), Quiet: true },
          }),
        );
      } catch (error) {
        throw explain(error, this.#settings, `deleting the files of ${id}`);
      }
    }
    return { files: objects.length, bytes: objects.reduce((sum, object) => sum + object.Size, 0) };
  }

  async putChunk(id: string, index: number, sourcePath: string, part: ChunkPart = 'video'): Promise<void> {
    const key = `${this.#renderPrefix(id)}${chunkName(index, part)}`;
    const body = createReadStream(sourcePath);
    try {
      await new Upload({
        client: this.#client,
        params: {
          Bucket: this.#settings.bucket,
          Key: key,
          Body: body,
          ContentType: part === 'video' ? 'video/mp4' : 'image/png',
        },
        partSize: this.#settings.partSizeBytes ?? DEFAULT_PART_SIZE,
        queueSize: 2,
        leavePartsOnError: false,
      }).done();
    } catch (error) {
      throw explain(error, this.#settings, `uploading chunk ${index} of ${id}`);
    } finally {
      body.destroy();
    }
    await rm(sourcePath, { force: true });
  }

  async fetchChunk(
    id: string,
    index: number,
    targetPath: string,
    part: ChunkPart = 'video',
  ): Promise<boolean> {
    const key = `${this.#renderPrefix(id)}${chunkName(index, part)}`;
    try {
      const object = await this.#client.send(
        new GetObjectCommand({ Bucket: this.#settings.bucket, Key: key }),
      );
      await pipeline(object.Body as Readable, createWriteStream(targetPath));
      return true;
    } catch (error) {
      await rm(targetPath, { force: true });
      if (error instanceof S3ServiceException && error.name === 'NoSuchKey') return false;
      throw explain(error, this.#settings, `downloading chunk ${index} of ${id}`);
    }
  }

  async removeChunks(id: string, count: number): Promise<void> {
    if (count <= 0) return;
    const prefix = this.#renderPrefix(id);
    const objects = Array.from({ length: count }, (_, index) =>
      (['video', 'poster'] as const).map((part) => ({ Key: `${prefix}${chunkName(index, part)}` })),
    ).flat();
    try {
      await this.#client.send(
        new DeleteObjectsCommand({
          Bucket: this.#settings.bucket,
          Delete: { Objects: objects, Quiet: true },
        }),
      );
    } catch (error) {
      throw explain(error, this.#settings, `deleting the chunks of ${id}`);
    }
  }

  async checkWritable(): Promise<void> {
    const { bucket, prefix } = this.#settings;
    const probe = `${prefix ? `${prefix}/` : ''}.kino-readiness`;
    const bounded = { abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS) };
    try {
      await this.#client.send(new HeadBucketCommand({ Bucket: bucket }), bounded);
      await this.#client.send(new PutObjectCommand({ Bucket: bucket, Key: probe, Body: 'ok' }), bounded);
      await this.#client.send(new DeleteObjectCommand({ Bucket: bucket, Key: probe }), bounded);
    } catch (error) {
      throw explain(error, this.#settings, 'storage is not writable');
    }
  }

  close(): void {
    this.#client.destroy();
  }
}
