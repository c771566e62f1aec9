// Templates over the API: GET /v1/templates lists the example project's templates, and POST
// /v1/renders binds `variables` to a key or a spec, refusing bad values with their names.
import { describe, expect, it } from 'vitest';
import { readAnswer, useApiServers, waitForRender } from './api-server.ts';

const servers = useApiServers();

/** Half a second of square video whose text and colour come from variables. */
const TINY_TEMPLATE = {
  kinoSpec: 1,
  title: 'Hello {{name}}',
  variables: {
    name: { type: 'string', maxLength: 20 },
    size: { type: 'number', default: 110, min: 40, max: 200 },
    ink: { type: 'color', default: '#fde68a' },
  },
  aspect: 'square',
  scenes: [
    {
      duration: '0.5s',
      background: '#1e1b4b',
      elements: [{ type: 'text', text: 'Hi {{name}}!', size: { var: 'size' }, color: { var: 'ink' } }],
    },
  ],
};

describe('templates over the API', () => {
  it('lists the templates of the render project with their variables', { timeout: 60_000 }, async () => {
    const api = await servers.start();
    const unauthorized = await readAnswer(await fetch(`${api.baseUrl}/v1/templates`));
    expect(unauthorized.status).toBe(401);

    const listed = await readAnswer(await api.api('/v1/templates'));
    expect(listed.status, listed.text).toBe(200);
    const templates = listed.body.templates as {
      key: string;
      kind: string;
      variables: Record<string, unknown>;
    }[];
    expect(templates.map((t) => t.key)).toEqual([
      'product-promo',
      'quote-card',
      'stats-recap',
      'talking-head',
    ]);
    expect(listed.body.unavailable).toEqual([]);
    const quote = templates.find((t) => t.key === 'quote-card')!;
    expect(quote.kind).toBe('spec');
    expect(quote.variables.author).toMatchObject({ type: 'string', default: 'Edsger W. Dijkstra' });
    // A code template's declarations are read too (in a worker process, not the server's own).
    const stats = templates.find((t) => t.key === 'stats-recap')!;
    expect(stats.kind).toBe('composition');
    expect(stats.variables.users).toMatchObject({ type: 'number', min: 0 });
  });

  it('refuses values that do not fit, naming each variable', { timeout: 60_000 }, async () => {
    const api = await servers.start();
    const post = async (json: unknown) => readAnswer(await api.api('/v1/renders', { method: 'POST', json }));

    const wrongType = await post({ key: 'quote-card', variables: { author: 'Ada', accent: 'blurple' } });
    expect(wrongType.status, wrongType.text).toBe(400);
    expect(wrongType.headers.get('content-type')).toContain('application/problem+json');
    expect(wrongType.body).toMatchObject({
      code: 'invalid_variables',
      errors: [{ pointer: '/variables/accent', message: expect.stringContaining('expected a CSS colour') }],
    });

    const unknown = await post({ key: 'stats-recap', variables: { user: 5 } });
    expect(unknown.status, unknown.text).toBe(400);
    expect(unknown.body).toMatchObject({
      errors: [{ pointer: '/variables/user', message: expect.stringContaining('unknown variable "user"') }],
    });

    const outOfRange = await post({ key: 'stats-recap', variables: { rating: 7 } });
    expect(outOfRange.body).toMatchObject({ errors: [{ pointer: '/variables/rating' }] });

    const missing = await post({ spec: TINY_TEMPLATE, variables: { size: 90 } });
    expect(missing.status, missing.text).toBe(400);
    expect(missing.body).toMatchObject({
      code: 'invalid_variables',
      errors: [{ pointer: '/variables/name', message: expect.stringContaining('is required') }],
    });

    const notTemplate = await post({ key: 'stats', variables: { title: 'x' } });
    expect(notTemplate.body).toMatchObject({
      errors: [{ pointer: '/variables/title', message: expect.stringContaining('declares no variables') }],
    });

    const forPrompt = await post({ prompt: 'a video', variables: { a: 1 } });
    expect(forPrompt.status).toBe(400);
    expect(forPrompt.body).toMatchObject({ errors: [{ pointer: '/variables' }] });

    const badValue = await post({ key: 'quote-card', variables: { author: { nested: true } } });
    expect(badValue.status).toBe(400);
  });

  it(
    'renders a spec template with variables, the job showing the bound spec',
    { timeout: 120_000 },
    async () => {
      const api = await servers.start();
      const created = await readAnswer(
        await api.api('/v1/renders', {
          method: 'POST',
          json: {
            spec: TINY_TEMPLATE,
            variables: { name: 'Ada', ink: 'deepskyblue' },
            options: { quality: 'draft' },
          },
        }),
      );
      expect(created.status, created.text).toBe(202);
      expect(created.body.input).toEqual({ kind: 'spec', variables: { name: 'Ada', ink: 'deepskyblue' } });
      const spec = created.body.spec as {
        title: string;
        variables?: unknown;
        scenes: { elements: unknown[] }[];
      };
      expect(spec.title).toBe('Hello Ada');
      expect(spec).not.toHaveProperty('variables');
      expect(spec.scenes[0]!.elements[0]).toMatchObject({ text: 'Hi Ada!', size: 110, color: 'deepskyblue' });
      expect(created.body.code).toContain("text('Hi Ada!'");

      const job = await waitForRender(api, created.body.id as string);
      expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
      expect(job.video).toMatchObject({ width: 540, height: 540 });
    },
  );

  it('renders a key template with variables, recorded in the receipt', { timeout: 180_000 }, async () => {
    const api = await servers.start();
    const variables = { author: 'Grace Hopper', role: 'Rear admiral', accent: '#38bdf8' };
    const created = await readAnswer(
      await api.api('/v1/renders', {
        method: 'POST',
        json: { key: 'quote-card', variables, options: { quality: 'draft' } },
      }),
    );
    expect(created.status, created.text).toBe(202);
    const job = await waitForRender(api, created.body.id as string);
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.input).toEqual({ kind: 'key', key: 'quote-card', variables });
    const spec = job.spec as unknown as {
      title: string;
      scenes: { elements: { id: string; text?: string }[] }[];
    };
    expect(spec.title).toBe('Quote card: Grace Hopper');
    expect(spec.scenes[0]!.elements.find((e) => e.id === 'author')?.text).toBe('Grace Hopper');
    const receipt = job.receipt as unknown as { inputs: { request: unknown } };
    expect(receipt.inputs.request).toMatchObject({
      input: { kind: 'key', key: 'quote-card', variables },
    });
  });
});
