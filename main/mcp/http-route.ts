// /mcp on the render API (MCP_ENABLED=true), Streamable HTTP. 2026-07-28 requests go to the SDK's
// createMcpHandler (stateless, per request; an unsupported MCP-Protocol-Version is a 400);
// 2025-era requests (classified by the SDK's isLegacyRequest) to sessions (legacy-sessions.ts).
// In front of both, as the spec requires: a foreign Origin is refused (403) before anything else,
// then the same bearer API_TOKEN as /v1/renders (401). Renders go through the API's job store.
import { toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import {
  SUPPORTED_PROTOCOL_VERSIONS,
  createMcpHandler,
  isLegacyRequest,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../api/context.ts';
import { downloadUrl } from '../api/job-view.ts';
import { requireBearer } from '../http/auth.ts';
import { OneAtATime } from './host.ts';
import type { McpHost } from './host.ts';
import { kinoMcpServerFactory } from './kino-mcp-server.ts';
import { LegacySessions } from './legacy-sessions.ts';

/** Browser origins allowed to call /mcp: the server's own (BASE_URL's host) and MCP_ALLOWED_ORIGINS. */
function allowedOrigins(baseUrl: string, configured: readonly string[]): string[] {
  return [new URL(baseUrl).hostname, ...configured];
}

export const mcpRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx }) => {
  const host: McpHost = {
    transport: 'http',
    service: ctx,
    waitMs: ctx.config.mcpWaitMs,
    locate: async (job, kind) => downloadUrl(job, kind, ctx.links()),
    framesDir: undefined,
    looks: new OneAtATime(),
    log: ctx.log.child({ component: 'mcp' }),
  };
  const factory = kinoMcpServerFactory(host);
  const modern = createMcpHandler(factory, {
    legacy: 'reject',
    onerror: (error) => host.log.debug({ err: error }, 'MCP request refused or failed'),
  });
  const serveModern = toNodeHandler(modern);
  const legacy = new LegacySessions(factory, host.log);
  const requireApiToken = requireBearer(() => ctx.apiToken, 'API_TOKEN', ctx.authFailures);
  app.addHook('onClose', async () => {
    await Promise.all([modern.close(), legacy.close()]);
  });

  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/mcp',
    schema: {
      summary: 'MCP (Streamable HTTP)',
      description:
        'The Model Context Protocol endpoint, for AI agents: the same tools as `kino mcp`. Protocol 2026-07-28, and 2025-era clients without sessions. See /v1/docs/mcp.',
      tags: ['mcp'],
      security: [{ apiToken: [] }],
      hide: true,
    },
    onRequest: [
      async (request, reply) => {
        const origin = validateOriginHeader(
          request.headers.origin,
          allowedOrigins(ctx.links().baseUrl, ctx.config.mcpAllowedOrigins),
        );
        if (origin.ok) return;
        // A JSON-RPC error without an id, as the transport answers its own refusals.
        await reply
          .code(403)
          .type('application/json')
          .send({
            jsonrpc: '2.0',
            error: {
              code: -32000,
              message: `Forbidden: this origin may not call /mcp (MCP_ALLOWED_ORIGINS)`,
            },
            id: null,
          });
      },
      requireApiToken,
    ],
    handler: async (request, reply) => {
      reply.hijack();
      // A version header no 2025 revision has goes to the modern leg, which refuses it with 400.
      const version = request.headers['mcp-protocol-version'];
      const legacyVersion = version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(String(version));
      const isModern =
        request.method === 'POST' &&
        !(
          legacyVersion &&
          (await isLegacyRequest(await toWebRequest(request.raw, request.body), request.body))
        );
      if (isModern) await serveModern(request.raw, reply.raw, request.body);
      else await legacy.handle(request.raw, reply.raw, request.body);
    },
  });
};
