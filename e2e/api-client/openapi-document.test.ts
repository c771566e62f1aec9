// The OpenAPI document the render API generates: the committed client types are current, the
// document is structurally sound OpenAPI 3.1 (every $ref resolves, every operation answers, every
// schema is valid JSON Schema 2020-12), and every route the server registers is documented.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import type { OpenAPI3 } from 'openapi-typescript';
import type * as FastifyModule from 'fastify';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { API_TYPES_PATH, buildOpenApiDocument, generateApiTypes, withApiApp } from './generate.ts';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The routes @fastify/swagger-ui serves under its prefix (the UI page, its assets, its own copies of the document). */
const SWAGGER_UI_ROUTES = [/^\/v1\/docs\/?$/, /^\/v1\/docs\/static\/.*/, /^\/v1\/docs\/(json|yaml)$/];

/** Every route a Fastify instance registers, as its onRoute hook sees it (HEAD twins included). */
const routesOf = vi.hoisted(() => new WeakMap<object, { method: string; url: string }[]>());
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof FastifyModule>();
  // The server builds its instance inside createApiServer: hook it the moment it exists, before any route.
  const create = ((options?: Parameters<typeof actual.default>[0]) => {
    const app = actual.default(options) as unknown as FastifyInstance;
    const routes: { method: string; url: string }[] = [];
    routesOf.set(app, routes);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url });
    });
    return app;
  }) as unknown as typeof actual.default;
  return { ...actual, default: create, fastify: create };
});

type Json = unknown;
interface Operation {
  responses?: Record<string, { $ref?: string; description?: unknown }>;
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> };
  security?: Record<string, string[]>[];
}

/** Resolves a local reference ("#/a/b~1c") inside the document; undefined when it points nowhere. */
function resolvePointer(document: Json, ref: string): Json {
  if (!ref.startsWith('#')) return undefined;
  const tokens =
    ref === '#'
      ? []
      : ref
          .slice(2)
          .split('/')
          .map((token) => decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: Json = document;
  for (const token of tokens) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, Json>)[token];
  }
  return node;
}

/** Every `$ref` in the document with where it sits. */
function collectRefs(node: Json, at = '#', found: { at: string; ref: string }[] = []) {
  if (Array.isArray(node)) node.forEach((item, i) => collectRefs(item, `${at}/${i}`, found));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push({ at, ref: value });
      else collectRefs(value, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, found);
    }
  }
  return found;
}

function operations(document: OpenAPI3): { method: string; path: string; operation: Operation }[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => (item as Record<string, unknown>)[method] !== undefined).map(
      (method) => ({ method, path, operation: (item as Record<string, Operation>)[method]! }),
    ),
  );
}

describe('the OpenAPI document', () => {
  let document: OpenAPI3;
  beforeAll(async () => {
    document = await buildOpenApiDocument();
  });

  it('matches the committed client types (openapi.d.ts)', async () => {
    const committed = readFileSync(API_TYPES_PATH, 'utf8');
    const fresh = await generateApiTypes();
    // On failure vitest shows the difference; the fix is to regenerate.
    expect(committed, 'e2e/api-client/openapi.d.ts is stale: run npm run api:types').toBe(fresh);
  });

  it('is OpenAPI 3.1 with a title, a version and a server', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info.title).toEqual(expect.any(String));
    expect(document.info.version).toEqual(expect.any(String));
    expect(document.servers?.[0]?.url).toBe('http://127.0.0.1:8080');
  });

  it('resolves every $ref inside the document', () => {
    const refs = collectRefs(document);
    expect(refs.length).toBeGreaterThan(0);
    const dangling = refs.filter(({ ref }) => resolvePointer(document, ref) === undefined);
    expect(dangling, 'references that point nowhere in the document').toEqual([]);
  });

  it('gives every operation its responses, each with a description, and declares every path parameter', () => {
    const ops = operations(document);
    expect(ops.length).toBeGreaterThan(5);
    const schemes = Object.keys(document.components?.securitySchemes ?? {});
    for (const { method, path, operation } of ops) {
      const where = `${method.toUpperCase()} ${path}`;
      const responses = Object.entries(operation.responses ?? {});
      expect(responses.length, `${where} has no responses`).toBeGreaterThan(0);
      for (const [status, response] of responses) {
        expect(status, `${where}: response key`).toMatch(/^([1-5]([0-9]{2}|XX)|default)$/);
        const resolved = (
          response.$ref ? resolvePointer(document, response.$ref) : response
        ) as Operation['responses'] & { description?: unknown };
        expect(typeof resolved?.description, `${where} ${status} needs a description`).toBe('string');
      }
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!).sort();
      const declared = (operation.parameters ?? []).filter((p) => p.in === 'path');
      expect(declared.map((p) => p.name).sort(), `${where}: path parameters`).toEqual(templated);
      for (const parameter of declared) expect(parameter.required, `${where}: ${parameter.name}`).toBe(true);
      for (const requirement of operation.security ?? []) {
        for (const scheme of Object.keys(requirement)) expect(schemes, where).toContain(scheme);
      }
    }
  });

  it('types the spec input of POST /v1/renders with the VideoSpec component', () => {
    const body = (document.paths?.['/v1/renders'] as { post?: Operation } | undefined)?.post?.requestBody;
    const schema = body?.content?.['application/json']?.schema as
      { properties?: Record<string, { $ref?: string }> } | undefined;
    expect(schema?.properties?.spec).toEqual({ $ref: '#/components/schemas/VideoSpec' });
    expect(document.components?.schemas?.VideoSpec).toEqual(expect.objectContaining({ type: 'object' }));
  });

  it('holds only valid JSON Schema 2020-12 (every component and every operation schema compiles)', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormatsPlugin.default(ajv);
    ajv.addFormat('binary', true);
    const id = 'https://kino.invalid/openapi.json';
    ajv.addSchema({ ...document, $id: id });
    for (const name of Object.keys(document.components?.schemas ?? {})) {
      expect(() => ajv.getSchema(`${id}#/components/schemas/${name}`), name).not.toThrow();
    }
    for (const { method, path, operation } of operations(document)) {
      const escaped = path.replace(/~/g, '~0').replace(/\//g, '~1');
      const base = `${id}#/paths/${escaped}/${method}`;
      const media = [
        ...Object.entries(operation.requestBody?.content ?? {}).map(([type, m]) => ({
          at: `requestBody/content/${type.replace(/\//g, '~1')}`,
          m,
        })),
        ...Object.entries(operation.responses ?? {}).flatMap(([status, response]) =>
          Object.entries((response as { content?: Record<string, { schema?: unknown }> }).content ?? {}).map(
            ([type, m]) => ({ at: `responses/${status}/content/${type.replace(/\//g, '~1')}`, m }),
          ),
        ),
      ];
      for (const { at, m } of media) {
        if (!m.schema) continue;
        expect(() => ajv.getSchema(`${base}/${at}/schema`), `${method} ${path} ${at}`).not.toThrow();
      }
    }
  });

  it('documents every route the server registers (except HEAD and the Swagger UI assets)', async () => {
    const routes = await withApiApp((app) => routesOf.get(app) ?? []);
    expect(routes).toContainEqual({ method: 'POST', url: '/v1/renders' });
    const documented = new Set(
      operations(document).map(({ method, path }) => `${method.toUpperCase()} ${path}`),
    );
    const undocumented = routes
      .filter(({ method }) => method !== 'HEAD')
      .filter(({ url }) => !SWAGGER_UI_ROUTES.some((pattern) => pattern.test(url)))
      .map(({ method, url }) => `${method} ${url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`)
      .filter((route) => !documented.has(route));
    expect(undocumented, 'routes missing from the OpenAPI document').toEqual([]);
    const served = new Set(
      routes.map(({ method, url }) => `${method} ${url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`),
    );
    const phantom = [...documented].filter((route) => !served.has(route));
    expect(phantom, 'documented operations the server does not serve').toEqual([]);
  });
});
