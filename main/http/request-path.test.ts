import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Problem, installProblemHandlers } from './problem.ts';

const TOKEN = '1795561883.lJP2d2mv3CoAH1VZM1zg5myjc0yEbvgBU6FXPHgO7MA';
const SIGNATURE = TOKEN.split('.')[1]!;

describe('the path a problem shows', () => {
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    app = Fastify();
    installProblemHandlers(app, 1024);
    const refuse = async () => {
      throw new Problem(403, 'forbidden', 'refused');
    };
    app.get('/v1/files/:id/:kind', refuse);
    // A route added in a plugin counts as well as one added at the root.
    await app.register(async (docs) => {
      docs.get('/v1/docs/*', refuse);
    });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });

  afterAll(() => app.close());

  const instanceOf = async (path: string) => {
    const response = await fetch(`${base}${path}`);
    const text = await response.text();
    expect(text, path).not.toContain(SIGNATURE);
    return (JSON.parse(text) as { instance: string; detail: string }).instance;
  };

  it('shows plain route parameters, and hides one that holds more than a value', async () => {
    expect(await instanceOf('/v1/files/rnd_1/video-2?token=x')).toBe('/v1/files/rnd_1/video-2');
    expect(await instanceOf(`/v1/files/rnd_1/video%3Ftoken=${TOKEN}`)).toBe('/v1/files/rnd_1/[redacted]');
    expect(await instanceOf(`/v1/files/rnd_1/video;token=${TOKEN}`)).toBe('/v1/files/rnd_1/[redacted]');
    expect(await instanceOf(`/v1/files/${TOKEN}/video`)).toBe('/v1/files/[redacted]/video');
    expect(await instanceOf(`/v1/files/rnd_1/a%2F${SIGNATURE}`)).toBe('/v1/files/rnd_1/[redacted]');
  });

  it('cuts a wildcard at its first segment that is not plain', async () => {
    expect(await instanceOf('/v1/docs/static/index.css')).toBe('/v1/docs/static/index.css');
    expect(await instanceOf(`/v1/docs/static/${TOKEN}/x.css`)).toBe('/v1/docs/static/[redacted]');
  });

  it('cuts a path no route matched at the first segment no route expects there', async () => {
    expect(await instanceOf(`/v1/files/rnd_1/video/${TOKEN}`)).toBe('/v1/files/rnd_1/video/[redacted]');
    expect(await instanceOf(`/v1/files/rnd_1/video/${SIGNATURE}`)).toBe('/v1/files/rnd_1/video/[redacted]');
    expect(await instanceOf(`/v1/${SIGNATURE}/files`)).toBe('/v1/[redacted]');
    expect(await instanceOf('/v1/files/rnd_1/')).toBe('/v1/files/rnd_1/');
    expect(await instanceOf('/')).toBe('/');
    const unknown = await fetch(`${base}/v1/files/rnd_1/video/${SIGNATURE}`);
    expect(((await unknown.json()) as { detail: string }).detail).toBe(
      'no route GET /v1/files/rnd_1/video/[redacted]',
    );
  });
});
