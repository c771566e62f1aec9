// GET /v1/schema/video-spec (always) and, when DOCS_ENABLED, the API reference: a Swagger UI page
// served from the bundled package (no CDN), /v1/docs/openapi.json and /v1/docs/llms.txt.
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync } from 'fastify';
import { videoSpecJsonSchema } from '../../../shared/spec/json-schema.ts';
import type { RouteOptions } from '../../renders/context.ts';
import { llmsGuide } from '../docs/llms-guide.ts';
import { MCP_PAGE_POLICY, mcpPage } from '../docs/mcp-page.ts';
import { problemResponses } from '../../http/problem.ts';

const noLimit = { rateLimit: false } as const;

const KINO_LOGO = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="32" viewBox="0 0 120 32">' +
    '<rect x="1" y="4" width="24" height="24" rx="6" fill="#6366f1"/><path d="M10 10l9 6-9 6z" fill="#fff"/>' +
    '<text x="33" y="23" font-family="Inter,Helvetica,Arial,sans-serif" font-size="20" font-weight="700" fill="#fff">kino</text></svg>',
);

export const schemaRoutes: FastifyPluginAsync<RouteOptions> = async (app) => {
  const schemaText = JSON.stringify(videoSpecJsonSchema());
  app.get(
    '/v1/schema/video-spec',
    {
      config: noLimit,
      schema: {
        summary: 'The video spec JSON Schema',
        description: 'JSON Schema (draft 2020-12) of the `spec` input.',
        tags: ['schema'],
        response: {
          200: {
            description: 'The JSON Schema.',
            content: { 'application/schema+json': { schema: { type: 'object' } } },
          },
        },
      },
    },
    async (_request, reply) => reply.type('application/schema+json').send(schemaText),
  );
};

/**
 * The one <style> element Swagger UI's React code inserts, allowed by its hash rather than by
 * 'unsafe-inline'. The browser test of /v1/docs fails, naming the new hash, if an upgrade changes it.
 */
const SWAGGER_UI_STYLE_HASH = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

/**
 * The plugin's policy, narrowed to this server (no https: styles or fonts, no validator images, no
 * upgrade of a plain-http deployment's own assets), with Swagger UI's own style element allowed.
 */
export function docsPolicy(header: string): string {
  const directives = header
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive && directive !== 'upgrade-insecure-requests')
    .map((directive) => directive.replace(/ https:/g, '').replace(/ validator\.swagger\.io/g, ''))
    .map((directive) =>
      directive.startsWith('style-src ') ? `${directive} ${SWAGGER_UI_STYLE_HASH}` : directive,
    );
  return [...directives, "form-action 'none'"].join('; ');
}

export const docsRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx }) => {
  await app.register(swaggerUi, {
    routePrefix: '/v1/docs',
    staticCSP: true,
    transformStaticCSP: docsPolicy,
    // No badge from validator.swagger.io: the page talks to this server only.
    uiConfig: { deepLinking: true, tryItOutEnabled: false, validatorUrl: null },
    logo: { type: 'image/svg+xml', content: KINO_LOGO, href: '/v1/docs', target: '_self' },
    theme: { title: 'Kino render API' },
  });
  app.get(
    '/v1/docs/openapi.json',
    {
      config: noLimit,
      schema: {
        summary: 'The OpenAPI 3.1 document',
        tags: ['docs'],
        response: { 200: { description: 'OpenAPI 3.1', type: 'object', additionalProperties: true } },
      },
    },
    async () => app.swagger(),
  );
  app.get(
    '/v1/docs/llms.txt',
    {
      config: noLimit,
      schema: {
        summary: 'A plain-text guide for AI agents',
        description: 'How to write a video spec and call this API, as llms.txt.',
        tags: ['docs'],
        response: {
          200: { description: 'Plain text.', content: { 'text/plain': { schema: { type: 'string' } } } },
          ...problemResponses(404),
        },
      },
    },
    async (_request, reply) => reply.type('text/plain; charset=utf-8').send(llmsGuide(ctx.links().baseUrl)),
  );
  app.get(
    '/v1/docs/mcp',
    {
      config: noLimit,
      schema: {
        summary: 'How to connect an MCP client',
        description: "Client configs to copy: `kino mcp` on stdio, and this server's /mcp (MCP_ENABLED).",
        tags: ['docs'],
        response: { 200: { description: 'HTML.', content: { 'text/html': { schema: { type: 'string' } } } } },
      },
    },
    async (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', MCP_PAGE_POLICY)
        .send(mcpPage(ctx.links().baseUrl, ctx.config.mcpEnabled)),
  );
};
