// A client generated from the OpenAPI document drives the real server (`kino serve`): create a render
// from a spec, poll it, download the verified file, and meet the documented errors. Every JSON answer
// is checked against its response schema in the served document (Ajv, JSON Schema 2020-12), so a
// field the document does not name, or one it promises and the server leaves out, fails here; and
// tsc checks this file against the generated types (openapi.d.ts).
import { createHash } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { TEST_API_TOKEN, TEST_CLEANUP_TOKEN, TINY_SPEC, removeDataDir, startApi } from '../api-server.ts';
import type { RunningApi } from '../api-server.ts';
import type { components, paths } from './openapi.d.ts';

type RenderJob = components['schemas']['RenderJob'];
type Problem = components['schemas']['Problem'];
type CreateRenderBody = paths['/v1/renders']['post']['requestBody']['content']['application/json'];
type Method = 'get' | 'post' | 'delete';

const DOCUMENT_ID = 'https://kino.invalid/openapi.json';
const escapePointer = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

interface Document {
  servers?: { url: string }[];
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, unknown> }> } | undefined>
  >;
}

describe('a client generated from the OpenAPI document', () => {
  let api: RunningApi;
  let document: Document;
  let ajv: Ajv2020;
  let client: ReturnType<typeof createClient<paths>>;
  /** The render through the client (see renderedJob), made once per file on first use. */
  let renderOnce: Promise<RenderJob> | undefined;

  /** The path of a request schema or response schema inside the document. */
  function schemaRef(method: Method, path: string, at: string): string {
    return `${DOCUMENT_ID}#/paths/${escapePointer(path)}/${method}/${at}`;
  }

  /**
   * Checks an answer against the document: its status is documented for the operation, its media
   * type is documented for that status, and its JSON body fits the schema there.
   */
  function expectDocumented(method: Method, path: string, response: Response, body?: unknown): void {
    const where = `${method.toUpperCase()} ${path} → ${response.status}`;
    const responses = document.paths[path]?.[method]?.responses;
    expect(responses, `${method.toUpperCase()} ${path} is not in the document`).toBeDefined();
    const documented = responses![String(response.status)];
    expect(
      documented,
      `${where}: status not documented (documented: ${Object.keys(responses!).join(', ')})`,
    ).toBeDefined();
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const documentedTypes = Object.keys(documented!.content ?? {});
    const bodyless = [204, 304].includes(response.status) || response.headers.get('content-length') === '0';
    if (bodyless) {
      expect(documentedTypes, `${where}: the document promises a body, the server sends none`).toEqual([]);
      return;
    }
    expect(
      documentedTypes,
      `${where}: the server sends ${mediaType}, the document names other types`,
    ).toContain(mediaType);
    if (body === undefined) return;
    const validate = ajv.getSchema(
      schemaRef(method, path, `responses/${response.status}/content/${escapePointer(mediaType)}/schema`),
    )!;
    const valid = validate(body);
    expect(valid ? [] : validate.errors, `${where}: the body does not match its documented schema`).toEqual(
      [],
    );
  }

  /** Checks a request body against the document's request schema for the operation. */
  function requestErrors(path: string, body: unknown) {
    const validate = ajv.getSchema(schemaRef('post', path, 'requestBody/content/application~1json/schema'))!;
    return validate(body) ? [] : validate.errors;
  }

  /** Checks an error answer is application/problem+json fitting the Problem component. */
  function expectProblem(response: Response, body: unknown): void {
    expect(response.headers.get('content-type'), `${response.status}: media type`).toMatch(
      /^application\/problem\+json/,
    );
    const validate = ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/Problem`)!;
    expect(validate(body) ? [] : validate.errors, `${response.status}: ${JSON.stringify(body)}`).toEqual([]);
  }

  /** A plain request (for what the typed client cannot send: raw bodies, odd URLs). */
  async function raw(path: string, init: RequestInit = {}) {
    const response = await fetch(`${api.baseUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${TEST_API_TOKEN}`, ...init.headers },
    });
    const text = await response.text();
    return { response, body: text ? (JSON.parse(text) as unknown) : undefined };
  }

  beforeAll(async () => {
    api = await startApi();
    const response = await fetch(`${api.baseUrl}/v1/docs/openapi.json`);
    expect(response.status).toBe(200);
    document = (await response.json()) as Document;
    expect(document.servers?.[0]?.url, 'the served document names the server it came from').toBe(api.baseUrl);
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormatsPlugin.default(ajv);
    ajv.addFormat('binary', true);
    ajv.addSchema({ ...document, $id: DOCUMENT_ID });
    client = createClient<paths>({
      baseUrl: api.baseUrl,
      headers: { Authorization: `Bearer ${TEST_API_TOKEN}` },
    });
  });

  afterAll(async () => {
    await api?.stop();
    if (api) removeDataDir(api.dataDir);
  });

  /**
   * Renders TINY_SPEC through the client, checking every answer on the way (POST, then polling the
   * Location until the job ends), and gives the succeeded job.
   */
  async function renderThroughClient(): Promise<RenderJob> {
    const body = { spec: TINY_SPEC, options: { quality: 'draft', poster: '0.5s' } } as const;
    expect(requestErrors('/v1/renders', body), 'the document refuses a body the server takes').toEqual([]);

    const created = await client.POST('/v1/renders', { body });
    expect(created.error).toBeUndefined();
    expect(created.response.status).toBe(202);
    expectDocumented('post', '/v1/renders', created.response, created.data);
    const job = created.data!;
    expect(job.status).toBe('queued');
    expect(job.input).toEqual({ kind: 'spec' });
    expect(job.options).toEqual({ format: 'mp4', quality: 'draft', poster: '0.5s' });
    expect(job.visibility).toBe('private');
    const location = created.response.headers.get('location');
    expect(location).toBe(`/v1/renders/${job.id}`);
    const id = location!.split('/').pop()!;

    let current = job;
    const deadline = Date.now() + 240_000;
    while (current.status === 'queued' || current.status === 'running') {
      expect(Date.now(), `render ${id} still ${current.status} after 240 s`).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 250));
      const polled = await client.GET('/v1/renders/{id}', { params: { path: { id } } });
      expect(polled.error).toBeUndefined();
      expectDocumented('get', '/v1/renders/{id}', polled.response, polled.data);
      current = polled.data!;
    }
    expect(current.status, JSON.stringify(current.error)).toBe('succeeded');
    expect(current.error).toBeNull();
    expect(current.finishedAt).not.toBeNull();
    // openapi-fetch widens tuples (cubicBezier) to arrays in response data; the component type keeps them.
    return current as RenderJob;
  }

  /**
   * The succeeded render that the flow test and the download checks use. Whichever test asks first
   * makes it, so each test passes alone (vitest -t) and in any order, never on another's leftovers.
   */
  const renderedJob = (): Promise<RenderJob> => (renderOnce ??= renderThroughClient());

  it('renders a spec: POST, poll the Location, download the file whose sha256 the job names', async () => {
    const current = await renderedJob();
    const id = current.id;
    const video = current.video!;
    expect(video.contentType).toBe('video/mp4');
    expect(video.width).toBeGreaterThan(0);
    expect(video.height, 'a square video').toBe(video.width);
    expect(video.durationSeconds).toBeCloseTo(1, 1);
    expect(video.downloadUrl.startsWith(`${api.baseUrl}/v1/files/${id}/video?token=`)).toBe(true);
    const download = await fetch(video.downloadUrl);
    expect(download.status).toBe(200);
    expectDocumented('get', '/v1/files/{id}/{kind}', download);
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(download.headers.get('content-type')).toBe(video.contentType);
    expect(bytes.length).toBe(video.bytes);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(video.sha256);

    const poster = current.poster!;
    expect(poster.contentType).toBe('image/png');
    const posterDownload = await fetch(poster.downloadUrl);
    expect(posterDownload.status).toBe(200);
    expectDocumented('get', '/v1/files/{id}/{kind}', posterDownload);
    expect((await posterDownload.arrayBuffer()).byteLength).toBe(poster.bytes);

    // A finished render cannot be canceled: 409, as documented.
    const cancel = await client.DELETE('/v1/renders/{id}', { params: { path: { id } } });
    expect(cancel.data).toBeUndefined();
    expect(cancel.response.status).toBe(409);
    expect(cancel.error?.code).toBe('not_cancelable');
    expectDocumented('delete', '/v1/renders/{id}', cancel.response, cancel.error);
  }, 300_000);

  it('catches an undocumented field and a missing one (the response checks have teeth)', async () => {
    const rendered = await renderedJob();
    const validate = ajv.getSchema(
      schemaRef('get', '/v1/renders/{id}', 'responses/200/content/application~1json/schema'),
    )!;
    expect(validate(rendered)).toBe(true);
    expect(validate({ ...rendered, attempts: 1 })).toBe(false);
    const { video: _video, ...withoutVideo } = rendered;
    expect(validate(withoutVideo)).toBe(false);
    expect(validate({ ...rendered, video: { ...rendered.video, downloadUrl: 'not a url' } })).toBe(false);
  }, 300_000);

  it('cancels a render through the client: DELETE answers the canceled job', async () => {
    const created = await client.POST('/v1/renders', { body: { key: 'product-launch' } });
    expect(created.response.status).toBe(202);
    expectDocumented('post', '/v1/renders', created.response, created.data);
    expect(created.data?.input).toEqual({ kind: 'key', key: 'product-launch' });
    const id = created.data!.id;
    // A standard-quality key render takes tens of seconds: it is still queued or running now.
    const canceled = await client.DELETE('/v1/renders/{id}', { params: { path: { id } } });
    expect(canceled.error).toBeUndefined();
    expect(canceled.response.status).toBe(200);
    expect(canceled.data?.status).toBe('canceled');
    expectDocumented('delete', '/v1/renders/{id}', canceled.response, canceled.data);
    const after = await client.GET('/v1/renders/{id}', { params: { path: { id } } });
    expect(after.data?.status).toBe('canceled');
    expect(after.data?.video).toBeNull();
    expectDocumented('get', '/v1/renders/{id}', after.response, after.data);
  });

  it('answers an unknown field with a Problem that points at it', async () => {
    const body: CreateRenderBody = {
      key: 'stats',
      // @ts-expect-error -- the generated body type has no such field (and the server refuses it)
      colour: 'red',
    };
    const created = await client.POST('/v1/renders', { body });
    expect(created.data).toBeUndefined();
    expectTypeOf(created.error).toEqualTypeOf<Problem | undefined>();
    const problem: Problem = created.error!;
    expect(created.response.status).toBe(400);
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors?.[0]?.pointer).toBe('/colour');
    expect(problem.errors?.[0]?.message).toBe('unknown field');
    expectDocumented('post', '/v1/renders', created.response, problem);
    // The document refuses it as well.
    expect(requestErrors('/v1/renders', body)).not.toEqual([]);
  });

  it('answers an invalid spec with a Problem at the spec pointer', async () => {
    const scene = TINY_SPEC.scenes[0]!;
    const created = await client.POST('/v1/renders', {
      body: { spec: { ...TINY_SPEC, scenes: [{ ...scene, duration: 'soon' }] } },
    });
    expect(created.response.status).toBe(400);
    expect(created.error?.code).toBe('invalid_spec');
    expect(created.error?.errors?.map((e) => e.pointer)).toContain('/spec/scenes/0/duration');
    expectDocumented('post', '/v1/renders', created.response, created.error);
  });

  it('answers a missing or wrong token with a documented 401 Problem', async () => {
    const anonymous = createClient<paths>({ baseUrl: api.baseUrl });
    const created = await anonymous.POST('/v1/renders', { body: { key: 'stats' } });
    expect(created.response.status).toBe(401);
    expect(created.error?.code).toBe('unauthorized');
    expect(created.response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expectDocumented('post', '/v1/renders', created.response, created.error);

    const cleanupWithApiToken = await client.POST('/v1/maintenance/cleanup', { body: { dryRun: true } });
    expect(cleanupWithApiToken.response.status).toBe(401);
    expectDocumented(
      'post',
      '/v1/maintenance/cleanup',
      cleanupWithApiToken.response,
      cleanupWithApiToken.error,
    );
  });

  it('answers an unknown render with a documented 404 Problem, for GET and DELETE', async () => {
    const id = 'rnd_doesnotexist0123456789';
    const got = await client.GET('/v1/renders/{id}', { params: { path: { id } } });
    expect(got.response.status).toBe(404);
    expect(got.error?.code).toBe('not_found');
    expectDocumented('get', '/v1/renders/{id}', got.response, got.error);
    const deleted = await client.DELETE('/v1/renders/{id}', { params: { path: { id } } });
    expect(deleted.response.status).toBe(404);
    expectDocumented('delete', '/v1/renders/{id}', deleted.response, deleted.error);
  });

  it('answers bodies the server cannot take with documented Problems (415, 400 invalid_json, 413)', async () => {
    const asXml = await raw('/v1/renders', {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: '<render key="stats"/>',
    });
    expect(asXml.response.status).toBe(415);
    expectDocumented('post', '/v1/renders', asXml.response, asXml.body);

    const broken = await raw('/v1/renders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"key": ',
    });
    expect(broken.response.status).toBe(400);
    expect((broken.body as Problem).code).toBe('invalid_json');
    expectDocumented('post', '/v1/renders', broken.response, broken.body);

    const huge = await raw('/v1/renders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'x'.repeat(1024 * 1024 + 1) }),
    });
    expect(huge.response.status).toBe(413);
    expectDocumented('post', '/v1/renders', huge.response, huge.body);

    const ai = await client.POST('/v1/renders', { body: { prompt: 'a calm sunrise' } });
    expect(ai.response.status).toBe(503);
    expect(ai.error?.code).toBe('ai_unavailable');
    expectDocumented('post', '/v1/renders', ai.response, ai.error);
  });

  it.each([
    {
      status: 206,
      what: 'a byte range of the video',
      headers: (_job: RenderJob): Record<string, string> => ({ range: 'bytes=0-99' }),
    },
    {
      status: 304,
      what: 'a revalidation of the video',
      headers: (job: RenderJob): Record<string, string> => ({ 'if-none-match': `"${job.video!.sha256}"` }),
    },
    {
      status: 416,
      what: 'a range outside the video',
      headers: (job: RenderJob): Record<string, string> => ({ range: `bytes=${job.video!.bytes + 10}-` }),
    },
  ])(
    'documents the $status answer to $what (with its body type, or none)',
    async (check) => {
      const rendered = await renderedJob();
      const response = await fetch(rendered.video!.downloadUrl, { headers: check.headers(rendered) });
      expect(response.status).toBe(check.status);
      if (check.status === 206) expect((await response.clone().arrayBuffer()).byteLength).toBe(100);
      expectDocumented('get', '/v1/files/{id}/{kind}', response);
    },
    300_000,
  );

  it('guards private files with documented Problems (401, 403, 404, 400)', async () => {
    const rendered = await renderedJob();
    const { id } = rendered;
    const videoUrl = new URL(rendered.video!.downloadUrl);
    const token = videoUrl.searchParams.get('token')!;
    const cases = [
      { path: `/v1/files/${id}/video`, status: 401 },
      { path: `/v1/files/${id}/video?token=${token.slice(0, -2)}xx`, status: 403 },
      { path: `/v1/files/${id}/poster?token=${token}`, status: 403 },
      { path: `/v1/files/rnd_doesnotexist0123456789/video`, status: 404 },
      { path: `/v1/files/${id}/thumbnail?token=${token}`, status: 400 },
    ];
    for (const { path, status } of cases) {
      const response = await fetch(`${api.baseUrl}${path}`);
      const body = (await response.json()) as Problem;
      expect(response.status, path).toBe(status);
      expectDocumented('get', '/v1/files/{id}/{kind}', response, body);
    }
  }, 300_000);

  it('answers a render id too long to route with a documented Problem', async () => {
    // Fastify refuses a path parameter over 100 characters before the route runs.
    const id = 'x'.repeat(101);
    const got = await client.GET('/v1/renders/{id}', { params: { path: { id } } });
    expect(got.response.status).toBeGreaterThanOrEqual(400);
    expectProblem(got.response, got.error);
    expectDocumented('get', '/v1/renders/{id}', got.response, got.error);
    const deleted = await client.DELETE('/v1/renders/{id}', { params: { path: { id } } });
    expectProblem(deleted.response, deleted.error);
    expectDocumented('delete', '/v1/renders/{id}', deleted.response, deleted.error);
  });

  it('answers a malformed URL with a Problem', async () => {
    const { response, body } = await raw('/v1/renders/%E0%A4%A');
    expect(response.status).toBe(400);
    expectProblem(response, body);
  });

  it('serves cleanup, health and readiness as documented', async () => {
    const maintenance = createClient<paths>({
      baseUrl: api.baseUrl,
      headers: { Authorization: `Bearer ${TEST_CLEANUP_TOKEN}` },
    });
    const cleanup = await maintenance.POST('/v1/maintenance/cleanup', { body: { dryRun: true } });
    expect(cleanup.response.status).toBe(200);
    expect(cleanup.data?.dryRun).toBe(true);
    expectDocumented('post', '/v1/maintenance/cleanup', cleanup.response, cleanup.data);

    const health = await client.GET('/v1/healthz');
    expect(health.data?.status).toBe('ok');
    expectDocumented('get', '/v1/healthz', health.response, health.data);

    const ready = await client.GET('/v1/readyz');
    expect(ready.response.status).toBe(200);
    expect(ready.data?.status).toBe('ready');
    expectDocumented('get', '/v1/readyz', ready.response, ready.data);

    const schema = await client.GET('/v1/schema/video-spec');
    expect(schema.response.status).toBe(200);
    expectDocumented('get', '/v1/schema/video-spec', schema.response, schema.data);
  });
});
