// Assembles the render API: Fastify with strict validation, problem+json errors, per-token rate
// limits, the OpenAPI document generated from the route schemas, the durable job store, the
// storage backend, the render runner and the cleanup timer.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import swagger from '@fastify/swagger';
import rateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { pino } from 'pino';
import type { DestinationStream, Logger } from 'pino';
import { videoSpecJsonSchema } from '../../shared/spec/json-schema.ts';
import { randomToken } from '../storage/secrets.ts';
import { rateLimitKey } from '../http/auth.ts';
import { loggedUrl } from '../http/request-path.ts';
import { effectiveBaseUrl } from '../renders/config.ts';
import type { ServerConfig } from '../renders/config.ts';
import type { ApiContext, RouteOptions } from '../renders/context.ts';
import { openRenderContext } from '../renders/render-context.ts';
import { RenderJobSchema } from '../renders/job-view.ts';
import { storeOutageProblem } from './store-outage.ts';
import { Problem, ProblemSchema, installProblemHandlers, sendProblem } from '../http/problem.ts';
import { docsRoutes, schemaRoutes } from './routes/docs.ts';
import { fileRoutes } from './routes/files.ts';
import { healthRoutes } from './routes/health.ts';
import { maintenanceRoutes } from './routes/maintenance.ts';
import { renderRoutes } from './routes/renders.ts';
import { templateRoutes } from './routes/templates.ts';

export interface ApiServerOptions {
  /** The clock, for tests of expiry. */
  now?: () => number;
  /** Where log lines go (default stdout). */
  logDestination?: DestinationStream;
  /**
   * The /mcp routes, mounted when MCP_ENABLED (main/mcp/http-route.ts; given by the caller because
   * the MCP server sits above the API in the layers).
   */
  mcpRoutes?: FastifyPluginAsync<RouteOptions>;
}

export interface ApiServer {
  app: FastifyInstance;
  ctx: ApiContext;
  /** Set when this start generated the API token, so it can be shown once. */
  generatedApiToken: string | undefined;
  /** Starts listening and taking work; resolves to the base URL. */
  listen(): Promise<string>;
  /** Stops taking requests and work, waits for running renders (up to SHUTDOWN_GRACE), closes the store. */
  close(): Promise<void>;
}

function createLogger(config: ServerConfig, destination: DestinationStream | undefined): Logger {
  return pino(
    {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
      serializers: {
        req: (req: FastifyRequest) => ({
          method: req.method,
          url: loggedUrl(req),
          remoteAddress: req.ip,
        }),
      },
    },
    destination,
  );
}

/** The parts of the generated OpenAPI document that are amended after generation. */
interface OpenApiDocument {
  servers?: { url: string }[];
  webhooks?: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown> };
  paths?: Record<
    string,
    Record<
      string,
      { requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }
    >
  >;
}

/** The spec's JSON Schema as OpenAPI components, its $defs renamed so its $refs resolve there. */
function specComponents(): Record<string, unknown> {
  const {
    $defs,
    $schema: _schema,
    $id: _id,
    ...root
  } = videoSpecJsonSchema() as Record<string, unknown> & {
    $defs?: Record<string, unknown>;
  };
  const rename = (name: string) => `VideoSpec${name.replace(/[^A-Za-z0-9]/g, '')}`;
  const rewrite = (value: unknown): unknown =>
    JSON.parse(
      JSON.stringify(value).replace(
        /"#\/\$defs\/([^"]+)"/g,
        (_m, name: string) => `"#/components/schemas/${rename(name)}"`,
      ),
    );
  const components: Record<string, unknown> = { VideoSpec: rewrite(root) };
  for (const [name, schema] of Object.entries($defs ?? {})) components[rename(name)] = rewrite(schema);
  return components;
}

/** The webhook a render's end sends (OpenAPI 3.1 `webhooks`): the job, signed (Standard Webhooks). */
function renderEndedWebhook() {
  const header = (description: string) => ({ required: true, schema: { type: 'string' }, description });
  return {
    post: {
      summary: 'A render ended',
      description:
        "Sent to the request's webhook.url (or WEBHOOK_URL) when the job ends as one of its events. The body is the job as GET /v1/renders/{id} answers it. Verify the signature with a Standard Webhooks library and WEBHOOK_SECRET; answer 2xx, or the delivery is retried (about a day).",
      parameters: [
        { in: 'header', name: 'webhook-id', ...header('msg_<render id>_<event>: the same on every retry') },
        { in: 'header', name: 'webhook-timestamp', ...header('Unix seconds when this attempt was signed') },
        {
          in: 'header',
          name: 'webhook-signature',
          ...header('"v1,<base64 HMAC-SHA256>" over id.timestamp.body'),
        },
        { in: 'header', name: 'kino-event', ...header('render.succeeded, render.failed or render.canceled') },
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/RenderJob' } } },
      },
      responses: { '2XX': { description: 'Received; any other answer is retried.' } },
    },
  };
}

export async function createApiServer(
  config: ServerConfig,
  options: ApiServerOptions = {},
): Promise<ApiServer> {
  const now = options.now ?? Date.now;
  const log = createLogger(config, options.logDestination);
  const service = await openRenderContext(config, log, now);
  const { ctx } = service;
  let baseUrl = config.baseUrl ?? effectiveBaseUrl(config, config.port);

  const app = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    bodyLimit: config.maxBodyBytes,
    // A whole request, headers and body, must arrive within REQUEST_TIMEOUT: a body sent a byte at a
    // time cannot hold a connection open. Node checks every second here (its default is 30 s).
    serverFactory: (handler) =>
      createServer(
        {
          requestTimeout: config.requestTimeoutMs,
          headersTimeout: Math.min(config.requestTimeoutMs, 60_000),
          connectionsCheckingInterval: 1000,
        },
        handler,
      ),
    genReqId: () => `req_${randomToken(9)}`,
    requestIdHeader: false,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    trustProxy: config.trustProxy,
    ajv: {
      customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false, allErrors: true },
    },
    // Errors Fastify raises before routing (a malformed or over-long URL) are problems too.
    frameworkErrors: (error, request, reply) => {
      const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 400;
      const detail =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? 'a path segment is too long to be an id'
          : 'the URL is malformed';
      void sendProblem(request, reply, status, status === 414 ? 'uri_too_long' : 'bad_url', detail);
    },
  });
  // Bodies are JSON only: anything else is 415, not parsed as text.
  app.removeContentTypeParser('text/plain');
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installProblemHandlers(app, config.maxBodyBytes, {
    bodyLimitSetting: 'MAX_BODY',
    knownFailure: storeOutageProblem,
  });
  app.addSchema(ProblemSchema);
  app.addSchema(RenderJobSchema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Kino render API',
        version: '1.0.0',
        description:
          'POST one input (a composition key or a video spec), poll the job, download the verified file. Errors are RFC 9457 problem details. AI agents: [connect over MCP](/v1/docs/mcp), or read [llms.txt](/v1/docs/llms.txt).',
      },
      components: {
        securitySchemes: {
          apiToken: { type: 'http', scheme: 'bearer', description: 'API_TOKEN' },
          cleanupToken: { type: 'http', scheme: 'bearer', description: 'CLEANUP_TOKEN' },
        },
      },
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
    transformObject: (documentObject) => {
      const document = (
        'openapiObject' in documentObject ? documentObject.openapiObject : {}
      ) as OpenApiDocument;
      document.servers = [{ url: baseUrl }];
      document.components = {
        ...document.components,
        schemas: { ...document.components?.schemas, ...specComponents() },
      };
      const body = document.paths?.['/v1/renders']?.post?.requestBody?.content?.['application/json']?.schema;
      if (body?.properties?.spec) body.properties.spec = { $ref: '#/components/schemas/VideoSpec' };
      const job = document.components.schemas?.RenderJob as
        { properties?: Record<string, unknown> } | undefined;
      if (job?.properties?.spec) {
        job.properties.spec = {
          description:
            'The video spec: a spec input from the start, a key once a worker resolves it; null for compositions that draw with code.',
          anyOf: [{ $ref: '#/components/schemas/VideoSpec' }, { type: 'null' }],
        };
      }
      document.webhooks = { renderEnded: renderEndedWebhook() };
      return document;
    },
  });
  if (config.rateLimit) {
    const { max, windowMs } = config.rateLimit;
    await app.register(rateLimit, {
      max,
      timeWindow: windowMs,
      keyGenerator: rateLimitKey(() => ({ api: ctx.apiToken, cleanup: config.cleanupToken })),
      // The reference page loads a dozen static files; reading docs should not use up a caller's budget.
      allowList: (request) => request.url.startsWith('/v1/docs'),
      errorResponseBuilder: (_request, context) =>
        new Problem(
          429,
          'rate_limited',
          `too many requests: at most ${context.max} per ${windowMs / 1000}s for each token (RATE_LIMIT); retry after ${Math.ceil(context.ttl / 1000)}s`,
        ),
    });
  }
  await app.register(renderRoutes, { ctx });
  await app.register(templateRoutes, { ctx });
  await app.register(fileRoutes, { ctx });
  await app.register(maintenanceRoutes, { ctx });
  await app.register(schemaRoutes, { ctx });
  await app.register(healthRoutes, { ctx });
  if (config.docsEnabled) await app.register(docsRoutes, { ctx });
  if (config.mcpEnabled) {
    if (!options.mcpRoutes)
      throw new Error('MCP_ENABLED is set but this server was built without the MCP routes');
    await app.register(options.mcpRoutes, { ctx });
  }

  let closing: Promise<void> | undefined;
  return {
    app,
    ctx,
    generatedApiToken: service.generatedApiToken,
    async listen() {
      await app.listen({ port: config.port, host: config.host });
      const address = app.server.address() as AddressInfo;
      baseUrl = effectiveBaseUrl(config, address.port);
      service.setBaseUrl(baseUrl);
      await service.start();
      log.info(
        { baseUrl, dataDir: config.dataDir, concurrency: config.renderConcurrency },
        'render API listening',
      );
      return baseUrl;
    },
    close() {
      // Renders get their grace period while the HTTP side closes.
      closing ??= service.stop(() => app.close());
      return closing;
    },
  };
}
