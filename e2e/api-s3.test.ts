// The render API on S3 storage (STORAGE_BACKEND=s3) against a real S3-protocol server on loopback
// that checks every signature: renders stream up under S3_PREFIX, downloads redirect to presigned
// links (or the public base URL), cleanup deletes and counts objects, readiness names what is wrong.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeFile } from '../main/ffmpeg/probe.ts';
import { S3_TEST_KEY, startS3Server } from '../main/storage/s3-server.fixture.ts';
import type { S3TestServer } from '../main/storage/s3-server.fixture.ts';
import {
  TEST_CLEANUP_TOKEN,
  TINY_SPEC,
  readAnswer,
  sleep,
  useApiServers,
  waitForRender,
} from './api-server.ts';
import type { RunningApi } from './api-server.ts';

let s3: S3TestServer;
let work: string;

beforeAll(async () => {
  s3 = await startS3Server(['renders']);
  work = mkdtempSync(path.join(tmpdir(), 'kino-api-s3-'));
});
afterAll(async () => {
  await s3?.close();
  rmSync(work, { recursive: true, force: true });
});

const s3Env = (extra: Record<string, string> = {}) => ({
  STORAGE_BACKEND: 's3',
  S3_BUCKET: 'renders',
  S3_ENDPOINT: s3.endpoint,
  S3_FORCE_PATH_STYLE: 'true',
  S3_PREFIX: 'kino/test',
  S3_ACCESS_KEY_ID: S3_TEST_KEY.accessKeyId,
  S3_SECRET_ACCESS_KEY: S3_TEST_KEY.secretAccessKey,
  ...extra,
});

const servers = useApiServers();

/** The objects s3rver holds under a render's folder (its on-disk layout: <bucket>/<key>._S3rver_object). */
function objectsOf(id: string): string[] {
  const dir = path.join(s3.directory, 'renders', 'kino', 'test', id);
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith('._S3rver_object'))
        .sort()
    : [];
}

async function render(api: RunningApi, body: Record<string, unknown>) {
  const created = await readAnswer(
    await api.api('/v1/renders', {
      method: 'POST',
      json: { spec: TINY_SPEC, options: { quality: 'draft' }, ...body },
    }),
  );
  expect(created.status).toBe(202);
  return waitForRender(api, created.body.id as string);
}

describe('render API on S3 storage', () => {
  it(
    'stores a render in the bucket and serves it through a presigned redirect',
    { timeout: 120_000 },
    async () => {
      const api = await servers.start({ env: s3Env() });
      expect((await readAnswer(await fetch(`${api.baseUrl}/v1/readyz`))).body).toMatchObject({
        status: 'ready',
        checks: { storage: 'ok' },
      });
      const job = await render(api, {});
      expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
      expect(objectsOf(job.id)).toEqual(['receipt.json._S3rver_object', 'video.mp4._S3rver_object']);
      expect(s3.requests.some((line) => line.startsWith(`PUT /renders/kino/test/${job.id}/video.mp4`))).toBe(
        true,
      );

      // Same token rules as local storage, then a redirect to a presigned GET.
      const unsigned = job.video!.downloadUrl.replace(/\?.*$/, '');
      expect((await fetch(unsigned, { redirect: 'manual' })).status).toBe(401);
      const redirect = await fetch(job.video!.downloadUrl, { redirect: 'manual' });
      expect(redirect.status).toBe(302);
      const location = redirect.headers.get('location')!;
      expect(location.startsWith(`${s3.endpoint}/renders/kino/test/${job.id}/video.mp4?`)).toBe(true);
      const expires = Number(new URL(location).searchParams.get('X-Amz-Expires'));
      const life = (Date.parse(job.expiresAt) - Date.now()) / 1000;
      // Rounded up from the signing second, so the link never ends before expiresAt.
      expect(expires).toBeLessThanOrEqual(Math.ceil(life) + 1);
      expect(expires).toBeGreaterThan(life - 60);

      const download = await fetch(location);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('video/mp4');
      expect(download.headers.get('content-disposition')).toBe(`attachment; filename="${job.id}.mp4"`);
      const file = path.join(work, `${job.id}.mp4`);
      writeFileSync(file, new Uint8Array(await download.arrayBuffer()));
      expect((await probeFile(file)).video).toMatchObject({ codec: 'h264', frames: 30 });
      // The presigned link is for GET of that one object only.
      expect((await fetch(location, { method: 'PUT', body: 'x' })).status).toBe(403);

      const receipt = await fetch(
        (await fetch(job.video!.receiptUrl!, { redirect: 'manual' })).headers.get('location')!,
      );
      expect(((await receipt.json()) as { output: { sha256: string } }).output.sha256).toBe(
        job.video!.sha256,
      );
    },
  );

  it('redirects public files to S3_PUBLIC_BASE_URL', { timeout: 120_000 }, async () => {
    const api = await servers.start({ env: s3Env({ S3_PUBLIC_BASE_URL: 'https://cdn.example.com/v' }) });
    const job = await render(api, { visibility: 'public' });
    const redirect = await fetch(job.video!.downloadUrl, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(`https://cdn.example.com/v/kino/test/${job.id}/video.mp4`);
  });

  it(
    'cleanup deletes the objects of expired renders and counts their bytes, a dry run first',
    { timeout: 120_000 },
    async () => {
      const api = await servers.start({ env: { ...s3Env(), CLEANUP_INTERVAL: '0' } });
      const job = await render(api, { ttl: '1s' });
      expect(objectsOf(job.id)).toHaveLength(2);
      await sleep(1500);
      const clean = (dryRun: boolean) =>
        fetch(`${api.baseUrl}/v1/maintenance/cleanup`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_CLEANUP_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ dryRun }),
        }).then(readAnswer);
      const dry = await clean(true);
      expect(dry.body).toMatchObject({ dryRun: true, deletedFiles: 2 });
      expect(dry.body.freedBytes as number).toBeGreaterThan(job.video!.bytes);
      expect(objectsOf(job.id)).toHaveLength(2);
      const real = await clean(false);
      expect(real.body).toMatchObject({ dryRun: false, deletedFiles: 2, freedBytes: dry.body.freedBytes });
      expect(objectsOf(job.id)).toEqual([]);
    },
  );

  it(
    'is not ready, saying why, when the bucket does not exist or the credentials are wrong',
    { timeout: 60_000 },
    async () => {
      const missing = await servers.start({ env: s3Env({ S3_BUCKET: 'no-such-bucket' }) });
      const notReady = await readAnswer(await fetch(`${missing.baseUrl}/v1/readyz`));
      expect(notReady.status).toBe(503);
      expect(notReady.body.detail).toMatch(/storage: .*bucket "no-such-bucket" .* does not exist/);

      const wrong = await servers.start({ env: s3Env({ S3_SECRET_ACCESS_KEY: 'not-the-secret-key' }) });
      const refused = await readAnswer(await fetch(`${wrong.baseUrl}/v1/readyz`), ['not-the-secret-key']);
      expect(refused.status).toBe(503);
      expect(refused.body.detail).toMatch(/refused the credentials .*S3_SECRET_ACCESS_KEY/);
      // A render it cannot store fails storage_failed and leaves nothing in the bucket.
      const job = await render(wrong, {});
      expect(job.status).toBe('failed');
      expect(job.error?.code).toBe('storage_failed');
      expect(objectsOf(job.id)).toEqual([]);
      expect(wrong.output()).not.toContain('not-the-secret-key');
    },
  );
});
