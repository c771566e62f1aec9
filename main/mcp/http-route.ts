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
  localhostAllowedOrigins,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteOptions } from '../renders/context.ts';
import { downloadUrl } from '../renders/job-view.ts';
import { requireBearer } from '../http/auth.ts';
import { OneAtATime } from './host.ts';
import type { McpHost } from './host.ts';
import { kinoMcpServerFactory } from './kino-mcp-server.ts';
import { LegacySessions } from './legacy-sessions.ts';

/**
 * Browser origins (host names) allowed to call /mcp: BASE_URL's host (and every loopback name when
 * it is one), and MCP_ALLOWED_ORIGINS.
 */
function allowedOrigins(baseUrl: string, configured: readonly string[]): string[] {
  const own = new URL(baseUrl).hostname;
  const loopback = localhostAllowedOrigins();
  return [...new Set([own, ...(loopback.includes(own) ? loopback : []), ...configured])];
}

/** What a browser client may send and read across origins (allowed origins only). */
const CORS_HEADERS = {
  'access-control-allow-methods': 'GET, POST, DELETE',
  'access-control-allow-headers':
    'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id',
  'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version, www-authenticate',
  'access-control-max-age': '600',
};

function jsonRpcError(code: number, message: string) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

export const mcpRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx }) => {
  let closing = false;
  const host: McpHost = {
    transport: 'http',
    service: ctx,
    waitMs: ctx.config.mcpWaitMs,
    locate: async (job, kind) => downloadUrl(job, kind, ctx.links()),
    framesDir: undefined,
    looks: new OneAtATime(),
    closing: () => closing,
    log: ctx.log.child({ component: 'mcp' }),
    // A remote caller learns no server path from an error.
    hiddenPaths: ctx.hiddenPaths,
  };
  const factory = kinoMcpServerFactory(host);
  const modern = createMcpHandler(factory, {
    legacy: 'reject',
    onerror: (error) => host.log.debug({ err: error }, 'MCP request refused or failed'),
  });
  const serveModern = toNodeHandler(modern);
  const legacy = new LegacySessions(factory, host.log);
  const requireApiToken = requireBearer(() => ctx.apiToken, 'API_TOKEN', ctx.authFailures);
  app.addHook('preClose', async () => {
    // Calls aborted from here on are the server stopping, not their callers canceling: their
    // renders finish, or are queued again for the next start.
    closing = true;
    await Promise.all([modern.close(), legacy.close()]);
  });

  /** A foreign Origin is 403 before anything else; an allowed one gets the CORS headers. */
  const checkOrigin = async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = validateOriginHeader(
      request.headers.origin,
      allowedOrigins(ctx.links().baseUrl, ctx.config.mcpAllowedOrigins),
    );
    if (!origin.ok) {
      await reply
        .code(403)
        .type('application/json')
        .send(jsonRpcError(-32000, 'Forbidden: this origin may not call /mcp (MCP_ALLOWED_ORIGINS)'));
      return;
    }
    if (origin.origin) {
      reply.raw.setHeader('access-control-allow-origin', origin.origin);
      reply.raw.setHeader('vary', 'Origin');
      for (const [name, value] of Object.entries(CORS_HEADERS)) reply.raw.setHeader(name, value);
    }
  };

  app.options('/mcp', { onRequest: checkOrigin, schema: { hide: true } }, async (_request, reply) =>
    reply.code(204).send(),
  );

  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/mcp',
    schema: {
      summary: 'MCP (Streamable HTTP)',
      description:
        'The Model Context Protocol endpoint, for AI agents: the same tools as `kino mcp`. Protocol 2026-07-28, and 2025-era clients in sessions. See /v1/docs/mcp.',
      tags: ['mcp'],
      security: [{ apiToken: [] }],
      hide: true,
    },
    onRequest: [checkOrigin, requireApiToken],
    handler: async (request, reply) => {
      reply.hijack();
      const res = reply.raw;
      try {
        // A version header no 2025 revision has goes to the modern leg, which refuses it with 400.
        const version = request.headers['mcp-protocol-version'];
        const legacyVersion = version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(String(version));
        const isModern =
          request.method === 'POST' &&
          !(
            legacyVersion &&
            (await isLegacyRequest(await toWebRequest(request.raw, request.body), request.body))
          );
        if (isModern) await serveModern(request.raw, res, request.body);
        else await legacy.handle(request.raw, res, request.body);
      } catch (error) {
        request.log.error({ err: error }, 'MCP request failed');
        if (!res.headersSent) {
          res.writeHead(closing ? 503 : 500, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify(jsonRpcError(-32603, closing ? 'the server is stopping' : 'internal error')),
          );
        } else if (!res.writableEnded) {
          res.end();
        }
      }
    },
  });
};
