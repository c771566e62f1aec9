// The render API as a client uses it: `kino serve` in its own process, real HTTP on loopback.
// POST a render, follow its Location until it ends, download the file from the job's link and
// check it with ffprobe against what the job says; watch progress; read the schema and the docs.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gifFps } from '../main/encoder/encoder-args.ts';
import type { OutputFormat } from '../shared/output/formats.ts';
import { probeFile } from '../main/ffmpeg/probe.ts';
import { REPO_ROOT } from './cli-helpers.ts';
import {
  TEST_API_TOKEN,
  TEST_CLEANUP_TOKEN,
  TINY_SPEC,
  readAnswer,
  removeDataDir,
  startApi,
  waitForRender,
} from './api-server.ts';
import type { RenderJobBody, RunningApi } from './api-server.ts';

const read = (response: Response) => readAnswer(response);

const TINY_FPS = 30;
const DAY_MS = 86_400_000;
const TERMINAL = ['succeeded', 'failed', 'canceled'];
const STAGES = ['starting', 'authoring', 'rendering', 'encoding', 'verifying', 'storing'];

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('render API: the client flow (kino serve over HTTP)', () => {
  let api: RunningApi;
  let work: string;
  /** Every download token the server handed out, to look for in its log. */
  const downloadTokens = new Set<string>();

  beforeAll(async () => {
    api = await startApi();
    work = mkdtempSync(join(tmpdir(), 'kino-api-flow-'));
  });

  afterAll(async () => {
    if (api) {
      await api.stop();
      removeDataDir(api.dataDir);
    }
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** POST /v1/renders: expects 202, the queued job, and a Location naming it. */
  async function create(body: unknown): Promise<{ job: RenderJobBody; location: string }> {
    const answer = await read(await api.api('/v1/renders', { method: 'POST', json: body }));
    expect(answer.status, answer.text).toBe(202);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const job = answer.body as RenderJobBody;
    expect(job.id).toMatch(/^rnd_[A-Za-z0-9_-]{20,64}$/);
    expect(job.status).toBe('queued');
    expect(job.video).toBeNull();
    expect(job.poster).toBeNull();
    expect(job.receipt).toBeNull();
    const location = answer.headers.get('location');
    expect(location).toBe(`/v1/renders/${job.id}`);
    return { job, location: location! };
  }

  /** Waits for the render and expects it to have succeeded, with its download links. */
  async function succeeded(id: string): Promise<RenderJobBody> {
    const job = await waitForRender(api, id, { timeoutMs: 150_000 });
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.error).toBeNull();
    expect(job.video).not.toBeNull();
    for (const url of [job.video?.downloadUrl, job.poster?.downloadUrl, job.video?.receiptUrl]) {
      const token = url && new URL(url).searchParams.get('token');
      if (token) downloadTokens.add(token);
    }
    return job;
  }

  /** Downloads the job's video from its link (no bearer token: the link is enough) into a file. */
  async function downloadVideo(job: RenderJobBody, name: string): Promise<string> {
    const video = job.video!;
    expect(video.downloadUrl.startsWith(`${api.baseUrl}/v1/files/${job.id}/video`)).toBe(true);
    const response = await fetch(video.downloadUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(video.contentType);
    expect(response.headers.get('content-length')).toBe(String(video.bytes));
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.byteLength).toBe(video.bytes);
    expect(sha256(bytes)).toBe(video.sha256);
    const path = join(work, name);
    writeFileSync(path, bytes);
    return path;
  }

  /** ffprobe's view of the file agrees with the job's video fields. */
  async function expectProbe(
    path: string,
    job: RenderJobBody,
    expected: { codec: string; alpha: boolean; fps: number },
  ) {
    const video = job.video!;
    const probe = await probeFile(path);
    expect(probe.video?.codec).toBe(expected.codec);
    expect(probe.video?.width).toBe(video.width);
    expect(probe.video?.height).toBe(video.height);
    expect(probe.video?.hasAlpha).toBe(expected.alpha);
    expect(probe.video?.fps).toBeCloseTo(expected.fps, 1);
    expect(probe.video?.frames).toBe(Math.round(video.durationSeconds * expected.fps));
    expect(Math.abs(probe.durationSeconds - video.durationSeconds)).toBeLessThanOrEqual(0.1);
    expect(probe.sizeBytes).toBe(video.bytes);
    return probe;
  }

  /**
   * The job's receipt describes the downloaded file (its hash, ffprobe's probe), names no server
   * path, and its receiptUrl serves the same document.
   */
  async function expectReceipt(job: RenderJobBody, path: string) {
    const receipt = job.receipt!;
    expect(receipt).toMatchObject({
      receipt: 'kino.render',
      version: 2,
      maker: 'api',
      options: { format: job.options.format, quality: job.options.quality },
      output: { path: `${job.id}.mp4`, bytes: job.video!.bytes, sha256: sha256(readFileSync(path)) },
      verification: { ok: true, mismatches: [] },
    });
    expect(receipt.inputs.request).toEqual({ input: job.input, options: job.options });
    expect(receipt.toolchain).toMatchObject({
      kino: expect.any(String),
      node: process.version,
      ffmpeg: expect.any(String),
      ffprobe: expect.any(String),
    });
    const { sizeBytes, durationSeconds, video, audio } = await probeFile(path);
    expect(receipt.output.probe).toMatchObject(
      JSON.parse(JSON.stringify({ sizeBytes, durationSeconds, video, audio })),
    );
    const text = JSON.stringify(receipt);
    expect(text).not.toContain(REPO_ROOT);
    expect(text).not.toContain(api.dataDir);

    const url = job.video!.receiptUrl!;
    expect(url.startsWith(`${api.baseUrl}/v1/files/${job.id}/receipt?token=`)).toBe(true);
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^application\/json/);
    expect(served.headers.get('content-disposition')).toContain(`${job.id}.render.json`);
    expect(await served.json()).toEqual(receipt);
    // The video's token does not open the receipt.
    const videoToken = new URL(job.video!.downloadUrl).searchParams.get('token');
    const wrong = await fetch(`${api.baseUrl}/v1/files/${job.id}/receipt?token=${videoToken}`);
    expect(wrong.status).toBe(403);
    return receipt;
  }

  it('renders a spec: POST → 202 + Location → poll the Location → download → ffprobe', async () => {
    const { job: queued, location } = await create({ spec: TINY_SPEC, options: { quality: 'draft' } });
    expect(queued.input).toEqual({ kind: 'spec' });
    expect(queued.options).toEqual({ format: 'mp4', quality: 'draft' });
    expect(queued.visibility).toBe('private');
    expect(Date.parse(queued.expiresAt) - Date.parse(queued.createdAt as string)).toBe(DAY_MS);
    // A spec input is known at submit: the job shows it, and its code, from the start (issue 12).
    expect(queued.spec).toEqual(TINY_SPEC);
    expect(queued.code).toContain('export default');

    // Follow the Location header, as a client does, until the render ends.
    const url = new URL(location, api.baseUrl).href;
    const deadline = Date.now() + 150_000;
    let job: RenderJobBody;
    for (;;) {
      const answer = await read(await fetch(url, { headers: { authorization: `Bearer ${TEST_API_TOKEN}` } }));
      expect(answer.status, answer.text).toBe(200);
      job = answer.body as RenderJobBody;
      expect(job.id).toBe(queued.id);
      if (TERMINAL.includes(job.status)) break;
      expect(['queued', 'running']).toContain(job.status);
      expect(job.spec).toEqual(TINY_SPEC);
      // Running always has a progress, "starting" until the worker reports.
      if (job.status === 'running')
        expect(job.progress?.stage).toMatch(/^(starting|rendering|encoding|verifying|storing)$/);
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.startedAt).toEqual(expect.any(String));
    expect(job.finishedAt).toEqual(expect.any(String));

    // The job carries the spec it rendered and the equivalent builder code.
    expect(job.spec).toEqual(TINY_SPEC);
    expect(job.code).toContain('export default');
    // Draft renders at half size: the square 1080 frame is 540 wide.
    expect(job.video).toMatchObject({
      contentType: 'video/mp4',
      width: 540,
      height: 540,
      durationSeconds: 1,
    });
    expect(job.poster).toBeNull();

    const path = await downloadVideo(await succeeded(job.id), 'spec.mp4');
    await expectProbe(path, job, { codec: 'h264', alpha: false, fps: TINY_FPS });
    // The receipt: the spec sent is hashed as the JSON text the job holds; it read no other file.
    const receipt = await expectReceipt(job, path);
    const specText = JSON.stringify(TINY_SPEC);
    expect(receipt.source).toEqual({ kind: 'spec' });
    expect(receipt.inputs.files).toEqual([
      {
        role: 'spec',
        source: 'request',
        bytes: Buffer.byteLength(specText),
        sha256: sha256(Buffer.from(specText)),
      },
    ]);
    expect(receipt.options).toMatchObject({
      aspect: 'square',
      frames: 30,
      framesTotal: 30,
      width: 540,
      height: 540,
    });
  });

  it('renders a registered composition key ("stats", draft)', async () => {
    const { job: queued } = await create({ key: 'stats', options: { quality: 'draft' } });
    expect(queued.input).toEqual({ kind: 'key', key: 'stats' });
    const job = await succeeded(queued.id);
    expect(job.input).toEqual({ kind: 'key', key: 'stats' });
    expect(job.spec).toMatchObject({ kinoSpec: 1, aspect: 'square', fps: 30 });
    expect(Array.isArray(job.spec?.scenes)).toBe(true);
    expect(job.code).toContain('export default');
    expect(job.video).toMatchObject({ contentType: 'video/mp4', width: 540, height: 540 });
    expect(job.video!.durationSeconds).toBeGreaterThan(1);

    const path = await downloadVideo(job, 'stats.mp4');
    const probe = await expectProbe(path, job, { codec: 'h264', alpha: false, fps: 30 });
    // The spec has a music track: the mp4 carries it.
    expect(probe.audio?.codec).toBe('aac');
    // The receipt names the registered spec and the sounds it mixed, relative to the render project.
    const receipt = await expectReceipt(job, path);
    const examples = (file: string) => {
      const bytes = readFileSync(join(REPO_ROOT, 'examples', file));
      return { path: file, bytes: bytes.byteLength, sha256: sha256(bytes) };
    };
    expect(receipt.source).toEqual({ kind: 'spec', path: 'specs/stats.json', key: 'stats' });
    expect(receipt.inputs.files).toEqual([
      { role: 'spec', ...examples('specs/stats.json') },
      { role: 'audio', source: 'asset:music-loop.m4a', ...examples('assets/music-loop.m4a') },
      { role: 'audio', source: 'asset:click.wav', ...examples('assets/click.wav') },
    ]);
  });

  const formats: { format: OutputFormat; contentType: string; codec: string; alpha: boolean }[] = [
    { format: 'mp4', contentType: 'video/mp4', codec: 'h264', alpha: false },
    { format: 'gif', contentType: 'image/gif', codec: 'gif', alpha: false },
    { format: 'transparent', contentType: 'video/webm', codec: 'vp9', alpha: true },
    { format: 'mov', contentType: 'video/quicktime', codec: 'prores', alpha: true },
  ];
  for (const { format, contentType, codec, alpha } of formats) {
    it(`renders format ${format} (${codec}${alpha ? ' with alpha' : ''}) and serves it as ${contentType}`, async () => {
      const { job: queued } = await create({ spec: TINY_SPEC, options: { format, quality: 'draft' } });
      expect(queued.options).toEqual({ format, quality: 'draft' });
      const job = await succeeded(queued.id);
      expect(job.video?.contentType).toBe(contentType);
      expect(job.video?.durationSeconds).toBeCloseTo(1, 1);
      const path = await downloadVideo(job, `tiny-${format}`);
      await expectProbe(path, job, { codec, alpha, fps: format === 'gif' ? gifFps(TINY_FPS) : TINY_FPS });
    });
  }

  it('stores a poster PNG of the frame at options.poster, at the video size', async () => {
    const { job: queued } = await create({
      spec: TINY_SPEC,
      options: { quality: 'draft', aspect: 'landscape', poster: '0.5s' },
    });
    expect(queued.options).toEqual({ format: 'mp4', quality: 'draft', aspect: 'landscape', poster: '0.5s' });
    const job = await succeeded(queued.id);
    expect(job.video).toMatchObject({ width: 960, height: 540 });
    expect(job.poster?.contentType).toBe('image/png');
    expect(job.poster!.downloadUrl.startsWith(`${api.baseUrl}/v1/files/${job.id}/poster`)).toBe(true);

    const response = await fetch(job.poster!.downloadUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-length')).toBe(String(job.poster!.bytes));
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.byteLength).toBe(job.poster!.bytes);
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

    const image = await loadImage(bytes);
    expect(image.width).toBe(job.video!.width);
    expect(image.height).toBe(job.video!.height);
    // A real frame: the scene's background colour (#1e1b4b) fills the corner.
    const canvas = createCanvas(image.width, image.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(image, 0, 0);
    const [r, g, b] = ctx.getImageData(2, 2, 1, 1).data;
    expect(Math.abs(r! - 0x1e)).toBeLessThanOrEqual(4);
    expect(Math.abs(g! - 0x1b)).toBeLessThanOrEqual(4);
    expect(Math.abs(b! - 0x4b)).toBeLessThanOrEqual(4);
  });

  it('reports progress while a longer render runs (product-launch, draft)', async () => {
    const { job: queued } = await create({ key: 'product-launch', options: { quality: 'draft' } });
    const running: NonNullable<RenderJobBody['progress']>[] = [];
    const deadline = Date.now() + 150_000;
    let job: RenderJobBody;
    for (;;) {
      const answer = await read(await api.api(`/v1/renders/${queued.id}`));
      expect(answer.status).toBe(200);
      job = answer.body as RenderJobBody;
      if (job.progress) {
        expect(STAGES).toContain(job.progress.stage);
        expect(job.progress.percent).toBeGreaterThanOrEqual(0);
        expect(job.progress.percent).toBeLessThanOrEqual(100);
        expect(job.progress.framesDone).toBeLessThanOrEqual(job.progress.framesTotal);
      }
      if (job.status === 'running' && job.progress) running.push(job.progress);
      if (TERMINAL.includes(job.status)) break;
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(running.length).toBeGreaterThan(0);
    expect(running.some((p) => p.framesTotal > 0)).toBe(true);
    // Seen mid-render: some frames left to draw, or the encoder at work.
    expect(running.some((p) => p.percent < 100 && p.framesTotal > 0)).toBe(true);
  });

  it('a spec with groups nested 500 deep → 400 invalid_spec at the group too deep, not a 500', async () => {
    let element: Record<string, unknown> = { type: 'rect', width: 10, height: 10, fill: '#fff' };
    for (let i = 0; i < 500; i++) element = { type: 'group', children: [element] };
    const spec = { ...TINY_SPEC, scenes: [{ duration: '1s', elements: [element] }] };
    const answer = await read(await api.api('/v1/renders', { method: 'POST', json: { spec } }));
    expect(answer.status, answer.text).toBe(400);
    const problem = answer.body as { code: string; errors: { pointer: string }[] };
    expect(problem.code).toBe('invalid_spec');
    expect(problem.errors.map((e) => e.pointer)).toEqual([
      `/spec/scenes/0/elements/0${'/children/0'.repeat(32)}`,
    ]);
    expect(JSON.stringify(problem)).toMatch(/at most 32 deep/);
  });

  it('serves the video spec JSON Schema (draft 2020-12)', async () => {
    const answer = await read(await fetch(`${api.baseUrl}/v1/schema/video-spec`));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/schema\+json/);
    const schema = answer.body;
    expect(String(schema.$schema)).toContain('2020-12');
    expect(schema.type).toBe('object');
    expect((schema.properties as Record<string, unknown>).kinoSpec).toBeDefined();
  });

  it('answers /v1/healthz and /v1/readyz with every check ok', async () => {
    const health = await read(await fetch(`${api.baseUrl}/v1/healthz`));
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');
    const ready = await read(await fetch(`${api.baseUrl}/v1/readyz`));
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { storage: 'ok', ffmpeg: 'ok', queue: 'ok' } });
  });

  it('serves the docs page from local assets only', async () => {
    const response = await fetch(`${api.baseUrl}/v1/docs`);
    const answer = await read(response);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.text).toMatch(/<script[^>]*\bsrc=/i);
    // No script, stylesheet or icon from another host; each one it names loads from this server.
    const origin = new URL(api.baseUrl).origin;
    const assets = [...answer.text.matchAll(/\b(?:src|href)\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      const url = new URL(asset, response.url);
      expect(url.origin, asset).toBe(origin);
      const loaded = await fetch(url);
      expect(loaded.status, asset).toBe(200);
      await loaded.arrayBuffer();
    }
    expect(answer.text).not.toMatch(/<script[^>]*\bsrc\s*=\s*["']?(https?:)?\/\//i);
    expect(answer.headers.get('content-security-policy') ?? '').toContain("script-src 'self'");
  });

  it('serves an OpenAPI 3.1 document with every route', async () => {
    const answer = await read(await fetch(`${api.baseUrl}/v1/docs/openapi.json`));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const document = answer.body as {
      openapi: string;
      servers?: { url: string }[];
      paths: Record<string, Record<string, unknown>>;
      webhooks?: Record<string, { post?: { requestBody?: unknown } }>;
    };
    expect(document.openapi).toBe('3.1.0');
    // The webhook a render's end sends is documented too: its body is the job.
    expect(JSON.stringify(document.webhooks?.renderEnded?.post?.requestBody)).toContain(
      '#/components/schemas/RenderJob',
    );
    expect(document.servers?.[0]?.url).toBe(api.baseUrl);
    const routes: [string, string][] = [
      ['/v1/renders', 'post'],
      ['/v1/renders/{id}', 'get'],
      ['/v1/renders/{id}', 'delete'],
      ['/v1/files/{id}/{kind}', 'get'],
      ['/v1/maintenance/cleanup', 'post'],
      ['/v1/schema/video-spec', 'get'],
      ['/v1/healthz', 'get'],
      ['/v1/readyz', 'get'],
      ['/v1/docs/openapi.json', 'get'],
      ['/v1/docs/llms.txt', 'get'],
      ['/v1/docs/mcp', 'get'],
    ];
    for (const [path, method] of routes) {
      expect(document.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
    }
  });

  it('serves llms.txt as plain text naming this server', async () => {
    const answer = await read(await fetch(`${api.baseUrl}/v1/docs/llms.txt`));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(answer.text).toContain(api.baseUrl);
  });

  // Last: everything above has been logged by now.
  it('never writes the API token or a download token to its log', () => {
    const log = api.output();
    expect(log).toContain('render succeeded');
    expect(log).not.toContain(TEST_API_TOKEN);
    expect(log).not.toContain(TEST_CLEANUP_TOKEN);
    expect(downloadTokens.size).toBeGreaterThan(0);
    for (const token of downloadTokens) expect(log).not.toContain(token);
    expect(log).not.toMatch(/token=(?!\[redacted\])/);
  });
});
