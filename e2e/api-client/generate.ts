// Builds the render API's OpenAPI document without listening and turns it into TypeScript types
// (e2e/api-client/openapi.d.ts) with openapi-typescript, formatted by prettier so `prettier --check`
// passes. `npm run api:types` regenerates the file; openapi-document.test.ts fails while it is stale.
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import openapiTS, { COMMENT_HEADER, astToString } from 'openapi-typescript';
import type { OpenAPI3 } from 'openapi-typescript';
import * as prettier from 'prettier';
import { loadServerConfig } from '../../main/renders/config.ts';
import { createApiServer } from '../../main/api/server.ts';

/** Where the generated types live. */
export const API_TYPES_PATH = path.join(import.meta.dirname, 'openapi.d.ts');

/** The base URL the document names in `servers` (fixed, so the output does not depend on a port). */
export const DOCUMENT_BASE_URL = 'http://127.0.0.1:8080';

/**
 * Creates the API server (not listening, nothing queued) in a throwaway data directory, hands its
 * Fastify instance to `use` once ready, then closes the server and removes the directory.
 */
export async function withApiApp<T>(use: (app: FastifyInstance) => T | Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kino-openapi-'));
  try {
    const config = loadServerConfig({
      DATA_DIR: dataDir,
      API_TOKEN: 'x'.repeat(32),
      BASE_URL: DOCUMENT_BASE_URL,
      LOG_LEVEL: 'silent',
    });
    const server = await createApiServer(config);
    try {
      await server.app.ready();
      return await use(server.app);
    } finally {
      await server.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The OpenAPI document exactly as /v1/docs/openapi.json serves it (with the fixed base URL). */
export function buildOpenApiDocument(): Promise<OpenAPI3> {
  // A deep copy: the caller owns it, and it holds only JSON.
  return withApiApp((app) => JSON.parse(JSON.stringify(app.swagger())) as OpenAPI3);
}

/** The TypeScript types of the document, prettier-formatted: the contents of openapi.d.ts. */
export async function generateApiTypes(): Promise<string> {
  const document = await buildOpenApiDocument();
  // emptyObjectsUnknown: a bare `{ type: 'object' }` (an edit's base spec, the spec schema) takes any
  // object, as JSON Schema means, instead of openapi-typescript's default Record<string, never>.
  const ast = await openapiTS(document, { silent: true, emptyObjectsUnknown: true });
  const types = `${COMMENT_HEADER}${astToString(ast)}`;
  const prettierConfig = (await prettier.resolveConfig(API_TYPES_PATH)) ?? {};
  return prettier.format(types, { ...prettierConfig, filepath: API_TYPES_PATH });
}

/** Regenerates openapi.d.ts and returns its path. */
export async function writeApiTypes(): Promise<string> {
  await writeFile(API_TYPES_PATH, await generateApiTypes());
  return API_TYPES_PATH;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const written = await writeApiTypes();
  process.stdout.write(`wrote ${path.relative(process.cwd(), written)}\n`);
}
