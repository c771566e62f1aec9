import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes, createHash } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3_TEST_KEY, startS3Server } from './s3-server.fixture.ts';
import type { S3TestServer } from './s3-server.fixture.ts';
import { S3Storage } from './s3-storage.ts';
import type { S3Settings } from './s3-storage.ts';

const ID = 'rnd_abcdefghijklmnopqrstuvwx';
let s3: S3TestServer;
let work: string;

beforeAll(async () => {
  s3 = await startS3Server(['renders']);
  work = mkdtempSync(path.join(tmpdir(), 'kino-s3-test-'));
});
afterAll(async () => {
  await s3?.close();
  rmSync(work, { recursive: true, force: true });
});

const settings = (extra: Partial<S3Settings> = {}): S3Settings => ({
  bucket: 'renders',
  region: 'us-east-1',
  endpoint: s3.endpoint,
  forcePathStyle: true,
  prefix: 'kino/prod',
  ...S3_TEST_KEY,
  ...extra,
});

function file(name: string, bytes: Buffer): string {
  const target = path.join(work, name);
  writeFileSync(target, bytes);
  return target;
}

const terms = (seconds: number) => ({
  visibility: 'private' as const,
  now: Date.now(),
  expiresAt: Date.now() + seconds * 1000,
});

describe('S3Storage against a loopback S3 server', () => {
  it('stores under <prefix>/<id>/<kind>.<ext> with type and disposition, and a presigned GET serves it', async () => {
    const storage = new S3Storage(settings());
    const bytes = randomBytes(4096);
    const ref = { id: ID, kind: 'video' as const, extension: '.mp4' };
    expect(storage.key(ref)).toBe(`kino/prod/${ID}/video.mp4`);
    expect(
      await storage.put(ref, file('a.mp4', bytes), { contentType: 'video/mp4', filename: `${ID}.mp4` }),
    ).toEqual({ bytes: 4096 });
    const asked = terms(3600);
    const delivery = await storage.deliver(ref, asked);
    expect(delivery.kind).toBe('redirect');
    const url = (delivery as { url: string }).url;
    expect(url).toContain(`/renders/kino/prod/${ID}/video.mp4?`);
    // The link lives from its signing second for X-Amz-Expires: to expiresAt, never less, < 1 s more.
    const query = new URL(url).searchParams;
    const signed = query
      .get('X-Amz-Date')!
      .replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z');
    const ends = Date.parse(signed) + Number(query.get('X-Amz-Expires')) * 1000;
    expect(ends).toBeGreaterThanOrEqual(asked.expiresAt);
    expect(ends - asked.expiresAt).toBeLessThan(1000);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${ID}.mp4"`);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('refuses the presigned link for a PUT, for another key, and after it expires', async () => {
    const storage = new S3Storage(settings());
    const ref = { id: ID, kind: 'receipt' as const, extension: '.json' };
    await storage.put(ref, file('r.json', Buffer.from('{}')), {
      contentType: 'application/json',
      filename: 'r.json',
    });
    const url = ((await storage.deliver(ref, terms(2))) as { url: string }).url;
    expect((await fetch(url, { method: 'PUT', body: 'overwritten' })).status).toBe(403);
    const other = url.replace('/receipt.json?', '/video.mp4?');
    expect((await fetch(other)).status).toBe(403);
    expect((await fetch(url)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3100));
    expect((await fetch(url)).status).toBe(403);
  });

  it('never presigns for longer than the render lives, nor than 7 days', async () => {
    const storage = new S3Storage(settings());
    const ref = { id: ID, kind: 'video' as const, extension: '.mp4' };
    const long = new URL(((await storage.deliver(ref, terms(30 * 24 * 3600))) as { url: string }).url);
    expect(long.searchParams.get('X-Amz-Expires')).toBe(String(7 * 24 * 3600));
  });

  it('redirects public files to S3_PUBLIC_BASE_URL', async () => {
    const storage = new S3Storage(settings({ publicBaseUrl: 'https://cdn.example.com/media/' }));
    const delivery = await storage.deliver(
      { id: ID, kind: 'poster', extension: '.png' },
      { ...terms(60), visibility: 'public' },
    );
    expect(delivery).toEqual({
      kind: 'redirect',
      url: `https://cdn.example.com/media/kino/prod/${ID}/poster.png`,
    });
  });

  it('uploads a file larger than the part size in parts, byte for byte', async () => {
    const storage = new S3Storage(settings({ partSizeBytes: 5 * 1024 * 1024 }));
    const bytes = randomBytes(12 * 1024 * 1024 + 123);
    const ref = { id: 'rnd_multipartmultipartmultip', kind: 'video' as const, extension: '.mp4' };
    await storage.put(ref, file('big.mp4', bytes), { contentType: 'video/mp4', filename: 'big.mp4' });
    const response = await fetch(((await storage.deliver(ref, terms(60))) as { url: string }).url);
    const got = Buffer.from(await response.arrayBuffer());
    expect(got.length).toBe(bytes.length);
    expect(createHash('sha256').update(got).digest('hex')).toBe(
      createHash('sha256').update(bytes).digest('hex'),
    );
    // Three parts went up, each its own signed request.
    const parts = s3.requests.filter(
      (line) => line.startsWith('PUT') && line.includes('multipartmultip') && /partNumber=\d/.test(line),
    );
    expect(parts).toHaveLength(3);
  });

  it('measures and removes a render, and tolerates objects already gone', async () => {
    const storage = new S3Storage(settings());
    const id = 'rnd_cleanupcleanupcleanupcl';
    await storage.put({ id, kind: 'video', extension: '.mp4' }, file('c.mp4', randomBytes(1000)), {
      contentType: 'video/mp4',
      filename: 'c.mp4',
    });
    await storage.put({ id, kind: 'receipt', extension: '.json' }, file('c.json', randomBytes(24)), {
      contentType: 'application/json',
      filename: 'c.json',
    });
    expect(await storage.measureRender(id)).toEqual({ files: 2, bytes: 1024 });
    expect(await storage.removeRender(id)).toEqual({ files: 2, bytes: 1024 });
    expect(await storage.measureRender(id)).toEqual({ files: 0, bytes: 0 });
    expect(await storage.removeRender(id)).toEqual({ files: 0, bytes: 0 });
  });

  it('says clearly when the bucket does not exist or the credentials are wrong', async () => {
    await expect(new S3Storage(settings()).checkWritable()).resolves.toBeUndefined();
    await expect(new S3Storage(settings({ bucket: 'no-such-bucket' })).checkWritable()).rejects.toThrow(
      /bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+ does not exist/,
    );
    const wrong = new S3Storage(settings({ secretAccessKey: 'not-the-secret' }));
    await expect(wrong.checkWritable()).rejects.toThrow(/refused the credentials .*S3_SECRET_ACCESS_KEY/);
    await expect(
      wrong.put({ id: ID, kind: 'video', extension: '.mp4' }, file('w.mp4', randomBytes(10)), {
        contentType: 'video/mp4',
        filename: 'w.mp4',
      }),
    ).rejects.toThrow(/uploading video of rnd_.*refused the credentials/);
  });

  it('says the endpoint cannot be reached, and what to check, when nothing listens there', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const storage = new S3Storage(settings({ endpoint: `http://127.0.0.1:${port}` }));
    const failure = await storage.checkWritable().then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toBe(
      `storage is not writable: bucket "renders" at http://127.0.0.1:${port} cannot be reached (ECONNREFUSED): check S3_ENDPOINT and the network`,
    );
  });
});
