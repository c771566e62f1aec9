// The render tools: generate_video, edit_video, render_video, render_composition, get_render and
// cancel_render. Each render is a job in the same store and queue as POST /v1/renders (the same
// checks and limits, through createRender), so it shows in GET /v1/renders/{id} too. A call waits
// for its render, sending progress notifications when asked, up to MCP_WAIT_SECONDS; then it
// answers with the job so the agent polls with get_render. Canceling the call cancels the render.
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { AI_PROVIDERS } from '../authoring/providers.ts';
import { OutputFields, RenderOptionsSchema } from '../../shared/protocol/render-options.ts';
import type { OutputOptions } from '../../shared/protocol/render-options.ts';
import { CreateRenderBodySchema, cancelRender, createRender } from '../renders/render-requests.ts';
import { AuthoringRecordSchema } from '../../shared/protocol/authoring-record.ts';
import { TemplateValuesArgument } from './template-tools.ts';
import type { CreateRenderBody } from '../renders/render-requests.ts';
import { findLiveJob } from '../renders/job-lookup.ts';
import { errorView } from '../renders/job-view.ts';
import { RENDER_ID_PATTERN } from '../storage/storage.ts';
import { JOB_STATUSES, PROGRESS_STAGES, TERMINAL_STATUSES } from '../jobs/job-store.ts';
import type { RenderJob } from '../jobs/job-store.ts';
import type { McpHost } from './host.ts';
import { runTool, toolSuccess } from './tool-result.ts';

const POLL_MS = 200;

/**
 * JSON Schemas declared once (the API's, the job's, the encoder settings), read as zod. An `as
 * const` schema's readonly lists are what zod's JSON Schema type calls mutable: hence the one cast.
 */
function fromJsonSchema(schema: object) {
  return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
}
/** An output field of the render options, read as zod from its one JSON Schema. */
function outputArgument<K extends keyof typeof OutputFields>(field: K) {
  return fromJsonSchema(OutputFields[field]) as z.ZodType<NonNullable<OutputOptions[K]>>;
}
const aspect = outputArgument('aspect').describe("Output aspect; default the spec's own.");
const format = outputArgument('format').describe('Output format (default mp4).');
const quality = outputArgument('quality').describe('Quality level (default standard; draft is fastest).');
const poster = outputArgument('poster').describe(
  'Also store a PNG poster of the frame at this time, e.g. "1.5s".',
);
// Checked against the format by createRender.
const encoder = outputArgument('encoder').describe(
  "Encoder settings over the quality level's (crf, preset, pixelFormat, audioBitrate, codec); leave it out unless asked: a setting the format does not use is refused.",
);
const provider = z
  .enum(AI_PROVIDERS)
  .describe('The AI provider (default AI_PROVIDER, or the one configured).');
/** A string field of the API's body schema. */
const apiText = (schema: { type: 'string' }) => fromJsonSchema(schema) as z.ZodType<string>;
const model = apiText(CreateRenderBodySchema.properties.model).describe(
  "The provider's model (default its *_MODEL setting on the server).",
);
const spec = z
  .record(z.string(), z.unknown())
  .describe('A video spec (JSON); get_video_spec_schema has its schema, get_doc "spec" its guide.');
const renderId = z.string().regex(RENDER_ID_PATTERN).describe('A render id, "rnd_…".');

const FieldErrorSchema = z.object({ pointer: z.string(), message: z.string() });

export const RenderResultSchema = z.object({
  id: z.string(),
  status: z.enum(JOB_STATUSES),
  progress: z
    .object({
      stage: z.enum(PROGRESS_STAGES),
      framesDone: z.number(),
      framesTotal: z.number(),
      percent: z.number(),
    })
    .nullable(),
  spec: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe('The spec rendered (null for code compositions).'),
  downloadUrl: z.string().optional().describe('HTTP: the video, a signed link that needs no header.'),
  path: z.string().optional().describe('stdio: the video file on this machine.'),
  poster: z.string().optional().describe('The poster PNG: a link (HTTP) or a path (stdio).'),
  receipt: z
    .object({
      verified: z.boolean(),
      checks: z.array(z.string()).describe('What ffprobe confirmed about the file.'),
      width: z.number(),
      height: z.number(),
      fps: z.number(),
      frames: z.number(),
      durationSeconds: z.number(),
      bytes: z.number(),
      sha256: z.string(),
      location: z.string().describe('The full receipt (JSON): a link (HTTP) or a path (stdio).'),
    })
    .nullable(),
  changes: z.array(z.string()).nullable().describe('edit_video: the JSON pointers of the spec that changed.'),
  authoring: fromJsonSchema(AuthoringRecordSchema)
    .nullable()
    .describe(
      'generate_video and edit_video: how the provider wrote the spec (attempts, each repair with its errors and findings, findings left, tokens, time).',
    ),
  error: z
    .object({ code: z.string(), message: z.string(), errors: z.array(FieldErrorSchema).optional() })
    .nullable(),
});
export type RenderResult = z.infer<typeof RenderResultSchema>;

/** The job as a tool answers it. */
export async function renderResult(job: RenderJob, host: McpHost): Promise<RenderResult> {
  const succeeded = job.status === 'succeeded';
  const video = succeeded && job.video ? await host.locate(job, 'video') : undefined;
  const poster = succeeded && job.poster ? await host.locate(job, 'poster') : undefined;
  const receipt = succeeded ? job.receipt : null;
  return {
    id: job.id,
    status: job.status,
    progress: job.progress && {
      stage: job.progress.stage,
      framesDone: job.progress.framesDone,
      framesTotal: job.progress.framesTotal,
      percent: job.progress.percent,
    },
    spec: job.spec,
    ...(video ? (host.transport === 'http' ? { downloadUrl: video } : { path: video }) : {}),
    ...(poster ? { poster } : {}),
    receipt: receipt
      ? {
          verified: receipt.receipt.verification.ok,
          checks: receipt.receipt.verification.checks.filter((check) => check.ok).map((check) => check.name),
          width: receipt.receipt.options.width,
          height: receipt.receipt.options.height,
          fps: receipt.receipt.options.fps,
          frames: receipt.receipt.options.frames,
          durationSeconds: receipt.receipt.options.durationSeconds,
          bytes: receipt.receipt.output.bytes,
          sha256: receipt.receipt.output.sha256,
          location: await host.locate(job, 'receipt'),
        }
      : null,
    changes: job.changes,
    authoring: job.authoring,
    // Over HTTP the caller is remote: the server's folders are hidden, as in the API's job view.
    error: job.error && errorView(job.error, host.hiddenPaths ?? []),
  };
}

/** One line for the model: what happened and what to do next. */
export function renderSummary(result: RenderResult): string {
  const where = result.downloadUrl ?? result.path;
  switch (result.status) {
    case 'succeeded':
      return (
        `Render ${result.id} succeeded: ${where}` +
        (result.receipt
          ? ` (${result.receipt.width}×${result.receipt.height}, ${result.receipt.frames} frames, ${result.receipt.durationSeconds.toFixed(2)} s, verified: ${result.receipt.checks.join(', ')})`
          : '') +
        (result.changes ? `; changed ${result.changes.join(', ') || 'nothing'}` : '')
      );
    case 'failed':
      return `Render ${result.id} failed (${result.error?.code}): ${result.error?.message}`;
    case 'canceled':
      return `Render ${result.id} was canceled.`;
    default: {
      const progress = result.progress
        ? `, ${result.progress.stage} ${Math.round(result.progress.percent)}%`
        : '';
      return `Render ${result.id} is ${result.status}${progress}; call get_render with this id until it ends.`;
    }
  }
}

const isTerminal = (job: RenderJob) => TERMINAL_STATUSES.includes(job.status);

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** A quiet render (queued, or authoring) still sends a notification this often, so clients see it alive. */
const HEARTBEAT_MS = 10_000;

/**
 * Waits for the render to end, or for `waitMs`. Sends progress notifications when the caller gave a
 * progress token (percent of the whole render, strictly increasing and below 100 as the protocol
 * requires), and cancels the render when the caller cancels the call. A call aborted because this
 * server is closing leaves its render alone: it finishes, or is queued again for the next start.
 */
async function awaitRender(job: RenderJob, host: McpHost, mcp: ServerContext): Promise<RenderJob> {
  const { store } = host.service;
  const signal = mcp.mcpReq.signal;
  const token = mcp.mcpReq._meta?.progressToken;
  const deadline = Date.now() + host.waitMs;
  let sent = -1;
  let sentAt = 0;
  let lastStep = '';
  for (;;) {
    const current = (await store.get(job.id)) ?? job;
    if (isTerminal(current)) return current;
    if (signal.aborted) {
      if (host.closing()) return current;
      try {
        return await cancelRender(host.service, job.id);
      } catch {
        return (await store.get(job.id)) ?? current;
      }
    }
    const progress = current.progress;
    const step = progress ? `${progress.stage}:${progress.framesDone}:${progress.percent}` : current.status;
    // Below 100 until the answer, and strictly increasing: near the top, nothing more is sent.
    const next = Math.min(99.99, Math.max(progress?.percent ?? 0, sent + 0.01));
    const due = step !== lastStep || Date.now() - sentAt >= HEARTBEAT_MS;
    if (token !== undefined && due && next > sent) {
      lastStep = step;
      sentAt = Date.now();
      sent = next;
      const stage = progress?.stage ?? current.status;
      const frames =
        progress && progress.framesTotal > 0
          ? ` ${progress.framesDone} of ${progress.framesTotal} frames`
          : '';
      await mcp.mcpReq
        .notify({
          method: 'notifications/progress',
          params: {
            progressToken: token,
            progress: sent,
            total: 100,
            // The id first, so an agent can poll or cancel the render before the call ends.
            message: `${job.id} ${stage}${frames}`,
          },
        })
        .catch(() => undefined);
    }
    if (Date.now() >= deadline) return current;
    await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())), signal);
  }
}

async function submitAndWait(body: CreateRenderBody, host: McpHost, mcp: ServerContext) {
  const created = await createRender(host.service, body);
  host.log.info({ jobId: created.id, input: created.input.kind, via: 'mcp' }, 'render queued');
  const job = await awaitRender(created, host, mcp);
  const result = await renderResult(job, host);
  return toolSuccess(renderSummary(result), result);
}

/** The optional request fields a tool's arguments carry: render options, and the AI provider. */
function requestExtras(
  args: Pick<OutputOptions, 'aspect' | 'format' | 'quality' | 'poster' | 'encoder'> &
    Pick<CreateRenderBody, 'variables' | 'provider' | 'model'>,
): Partial<CreateRenderBody> {
  const { properties } = RenderOptionsSchema;
  return {
    // The API's validator fills in format's and quality's defaults; here they are filled the same way.
    options: {
      format: args.format ?? properties.format.default,
      quality: args.quality ?? properties.quality.default,
      ...(args.aspect ? { aspect: args.aspect } : {}),
      ...(args.poster ? { poster: args.poster } : {}),
      ...(args.encoder !== undefined ? { encoder: args.encoder } : {}),
    },
    ...(args.provider ? { provider: args.provider } : {}),
    ...(args.model ? { model: args.model } : {}),
    ...(args.variables ? { variables: args.variables } : {}),
  };
}

export function registerRenderTools(server: McpServer, host: McpHost): void {
  const annotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
  const outputSchema = RenderResultSchema;

  server.registerTool(
    'render_video',
    {
      title: 'Render a video spec',
      description:
        'Renders a video spec (JSON) to a verified file. Waits for the render (with progress notifications) up to MCP_WAIT_SECONDS, then answers with the job; poll get_render if it is still running. Check frames first with render_frame and review_video: they are far cheaper.',
      inputSchema: z.object({
        spec,
        variables: TemplateValuesArgument.optional(),
        aspect: aspect.optional(),
        format: format.optional(),
        quality: quality.optional(),
        encoder: encoder.optional(),
        poster: poster.optional(),
      }),
      outputSchema,
      annotations,
    },
    (args, mcp) => runTool(host, () => submitAndWait({ spec: args.spec, ...requestExtras(args) }, host, mcp)),
  );

  server.registerTool(
    'render_composition',
    {
      title: 'Render a registered composition',
      description:
        'Renders a composition registered in the render project (its key, e.g. "product-launch"; list_docs lists them under project/) to a verified file; a template takes variables (list_templates). Waits like render_video.',
      inputSchema: z.object({
        key: apiText(CreateRenderBodySchema.properties.key).describe('The composition key.'),
        variables: TemplateValuesArgument.optional(),
        aspect: aspect.optional(),
        format: format.optional(),
        quality: quality.optional(),
        encoder: encoder.optional(),
      }),
      outputSchema,
      annotations,
    },
    (args, mcp) => runTool(host, () => submitAndWait({ key: args.key, ...requestExtras(args) }, host, mcp)),
  );

  server.registerTool(
    'generate_video',
    {
      title: 'Generate a video from a prompt',
      description:
        'An AI provider configured on the server writes a spec from the prompt; the spec is validated, reviewed and repaired, then rendered. Needs a provider (OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY or OPENAI_COMPATIBLE_BASE_URL). Waits like render_video; the answer has the spec to refine with edit_video.',
      inputSchema: z.object({
        prompt: apiText(CreateRenderBodySchema.properties.prompt).describe('What the video shows and says.'),
        aspect: aspect.optional(),
        format: format.optional(),
        quality: quality.optional(),
        provider: provider.optional(),
        model: model.optional(),
      }),
      outputSchema,
      annotations: { ...annotations, openWorldHint: true },
    },
    (args, mcp) =>
      runTool(host, () => submitAndWait({ prompt: args.prompt, ...requestExtras(args) }, host, mcp)),
  );

  server.registerTool(
    'edit_video',
    {
      title: 'Change a video with words',
      description:
        'An AI provider changes an earlier render (its id) or a spec as a JSON Patch, so what the change does not touch stays as it was, then renders the result. The answer lists the changed JSON pointers. Needs a provider, like generate_video.',
      inputSchema: z.object({
        base: z.union([renderId, spec]).describe('The render id to start from, or a spec.'),
        change: apiText(CreateRenderBodySchema.properties.edit.properties.change).describe(
          'What to change, in words.',
        ),
        aspect: aspect.optional(),
        format: format.optional(),
        quality: quality.optional(),
        provider: provider.optional(),
        model: model.optional(),
      }),
      outputSchema,
      annotations: { ...annotations, openWorldHint: true },
    },
    (args, mcp) =>
      runTool(host, () =>
        submitAndWait({ edit: { base: args.base, change: args.change }, ...requestExtras(args) }, host, mcp),
      ),
  );

  server.registerTool(
    'get_render',
    {
      title: 'Get a render',
      description: 'The render with its status and progress and, once it succeeded, its file and receipt.',
      inputSchema: z.object({ id: renderId }),
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(host, async () => {
        const result = await renderResult(await findLiveJob(host.service, args.id), host);
        return toolSuccess(renderSummary(result), result);
      }),
  );

  server.registerTool(
    'cancel_render',
    {
      title: 'Cancel a render',
      description: 'Cancels a queued or running render; it ends canceled and leaves no file.',
      inputSchema: z.object({ id: renderId }),
      outputSchema,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(host, async () => {
        const canceled = await cancelRender(host.service, args.id);
        host.log.info({ jobId: canceled.id, via: 'mcp' }, 'render canceled');
        const result = await renderResult(canceled, host);
        return toolSuccess(renderSummary(result), result);
      }),
  );
}
