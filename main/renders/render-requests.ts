// Creating and canceling renders: the one input (key, spec, prompt or edit) checked, the queue's room
// and the render's cost checked, the job inserted and the runner woken. POST and DELETE /v1/renders
// and the MCP render tools all go through here, so they share every rule and limit.
import type { FromSchema } from 'json-schema-to-ts';
import { encoderRefusal, renderCostRefusal } from '../engine/request-checks.ts';
import type { EncoderAsked, RequestRefusal } from '../engine/request-checks.ts';
import type { SpecIssue } from '../../shared/spec/validate.ts';
import { AI_PROVIDERS, chooseProvider } from '../authoring/providers.ts';
import { examineSubmittedSpec } from './spec-examiner.ts';
import type { OutputAsked } from './spec-examination.ts';
import { VariableValuesSchema } from '../../shared/protocol/variable-values.ts';
import { resolveVariableValues } from '../../shared/spec/variables.ts';
import type { VariableIssue } from '../../shared/spec/variables.ts';
import { WEBHOOK_EVENTS } from '../jobs/job-store.ts';
import type { RenderInput, RenderJob, RenderJobOptions, WebhookTarget } from '../jobs/job-store.ts';
import { webhookUrlProblem } from '../jobs/webhook-dispatcher.ts';
import { randomToken } from '../storage/secrets.ts';
import { Problem } from '../http/problem.ts';
import { TTL_PATTERN, parseDuration } from './config.ts';
import type { ApiContext } from './context.ts';
import { findLiveJob } from './job-lookup.ts';
import { RenderOptionsSchema } from '../../shared/protocol/render-options.ts';
import type { OutputRequest } from '../../shared/protocol/render-options.ts';
import { RENDER_ID_SOURCE } from '../storage/storage.ts';

export const CreateRenderBodySchema = {
  type: 'object',
  additionalProperties: false,
  description: 'Exactly one of key, spec, prompt or edit, and optional options, visibility and ttl.',
  properties: {
    key: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: "A composition key registered in the server's render project (RENDER_PROJECT).",
    },
    spec: {
      type: 'object',
      description: 'A video spec; its JSON Schema is served at /v1/schema/video-spec.',
    },
    prompt: {
      type: 'string',
      minLength: 1,
      maxLength: 20000,
      description:
        'A description of the video for an AI provider to author into a spec, which is validated, reviewed and repaired before it renders (503 when no provider is configured).',
    },
    edit: {
      type: 'object',
      additionalProperties: false,
      required: ['base', 'change'],
      description:
        'A change to an earlier render (its id) or to a spec, made by an AI provider as a JSON Patch, so what the change does not touch stays as it was (503 when no provider is configured).',
      properties: {
        base: {
          description: 'The render id to start from, or a spec.',
          oneOf: [{ type: 'string', pattern: RENDER_ID_SOURCE }, { type: 'object' }],
        },
        change: { type: 'string', minLength: 1, maxLength: 20000 },
      },
    },
    provider: {
      type: 'string',
      enum: AI_PROVIDERS,
      description: 'For prompt and edit: the AI provider (default AI_PROVIDER, or the one configured).',
    },
    model: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: "For prompt and edit: the provider's model (default its *_MODEL setting).",
    },
    variables: {
      ...VariableValuesSchema,
      description:
        "For key and spec inputs that are templates: a value for each variable, checked against its declared type (GET /v1/templates lists a project's templates). Unknown, missing and mistyped values are 400 with the variable's name.",
    },
    options: RenderOptionsSchema,
    webhook: {
      type: 'object',
      additionalProperties: false,
      required: ['url'],
      description:
        'Where to POST the job (as GET returns it) when it ends, signed the Standard Webhooks way; default WEBHOOK_URL. https only, public hosts only.',
      properties: {
        url: { type: 'string', minLength: 1, maxLength: 2000 },
        events: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: { type: 'string', enum: WEBHOOK_EVENTS },
          description: 'Which ends to send (default all three).',
        },
      },
    },
    visibility: {
      type: 'string',
      enum: ['public', 'private'],
      description: 'private (default unless PUBLIC_BY_DEFAULT=true): downloads need the signed link.',
    },
    ttl: {
      type: 'string',
      pattern: TTL_PATTERN,
      description:
        'How long the render and its files are kept after it ends (expiresAt is set again then): a whole number and s, m, h or d, e.g. "48h". Default FILE_TTL, at most MAX_TTL.',
    },
  },
  oneOf: [{ required: ['key'] }, { required: ['spec'] }, { required: ['prompt'] }, { required: ['edit'] }],
  examples: [{ key: 'stats', options: { quality: 'draft', poster: '1s' } }],
} as const;

export type CreateRenderBody = FromSchema<typeof CreateRenderBodySchema>;

function asFieldErrors(prefix: string, issues: (SpecIssue | VariableIssue)[]) {
  return issues.map((issue) => ({
    pointer: `${'in' in issue && issue.in === 'variables' ? '/variables' : prefix}${issue.pointer}`,
    message: issue.message,
  }));
}

/** 400 for values that do not fit a template: named by variable, at /variables/<name>. */
function invalidVariables(issues: VariableIssue[]): Problem {
  return new Problem(
    400,
    'invalid_variables',
    `the template's variables do not bind: ${issues.map((issue) => issue.message).join('; ')}`,
    { errors: asFieldErrors('/variables', issues) },
  );
}

/**
 * The job's input, and for a spec the spec as it renders (bound, for a template) and the code it
 * prints as: the job shows both from the start.
 */
type ResolvedInput = RenderInput & { code?: string; bound?: Record<string, unknown> };

/** The spec an edit starts from: a render's (by id) or one sent in the request. */
async function editBase(
  base: string | Record<string, unknown>,
  ctx: ApiContext,
): Promise<{ spec: Record<string, unknown>; render?: string }> {
  if (typeof base === 'string') {
    const job = await findLiveJob(ctx, base);
    if (!job.spec) {
      throw new Problem(
        409,
        'base_not_ready',
        `render ${base} has no spec to edit yet (status ${job.status}${job.input.kind === 'key' ? ', or its composition draws with code' : ''})`,
        { errors: [{ pointer: '/edit/base', message: 'this render has no spec to start from' }] },
      );
    }
    return { spec: job.spec, render: base };
  }
  if (base.variables !== undefined) {
    throw new Problem(400, 'invalid_spec', 'an edit starts from a plain spec, not a template', {
      errors: [
        {
          pointer: '/edit/base/variables',
          message: 'bind the template first: render it with variables, then edit that render by its id',
        },
      ],
    });
  }
  const checked = await examineSubmittedSpec(base, undefined, []);
  if (!checked.ok) {
    throw new Problem(400, 'invalid_spec', `the base spec is invalid (${checked.issues.length} errors)`, {
      errors: asFieldErrors('/edit/base', checked.issues),
    });
  }
  return { spec: base };
}

/** A prompt or an edit: the provider it names (or the default), checked against the AI rate limit. */
async function authoredInput(body: CreateRenderBody, ctx: ApiContext): Promise<ResolvedInput> {
  const choice = chooseProvider(ctx.config.ai, { provider: body.provider, model: body.model });
  if (!choice.ok) {
    const errors = choice.status === 400 ? [{ pointer: '/provider', message: choice.message }] : undefined;
    throw new Problem(
      choice.status,
      choice.status === 503 ? 'ai_unavailable' : 'unknown_provider',
      choice.message,
      {
        ...(errors ? { errors } : {}),
      },
    );
  }
  // API_TOKEN is the one token that queues renders.
  ctx.aiRequests?.assertAllowed('api');
  const named = { provider: choice.provider.name, model: choice.provider.model };
  if (body.prompt !== undefined) {
    ctx.aiRequests?.record('api');
    return { kind: 'prompt', prompt: body.prompt, ...named };
  }
  const base = await editBase(body.edit!.base as string | Record<string, unknown>, ctx);
  ctx.aiRequests?.record('api');
  return {
    kind: 'edit',
    base: base.spec,
    ...(base.render ? { baseRender: base.render } : {}),
    change: body.edit!.change,
    ...named,
  };
}

async function resolveInput(body: CreateRenderBody, ctx: ApiContext): Promise<ResolvedInput> {
  if ((body.prompt !== undefined || body.edit !== undefined) && body.variables !== undefined) {
    throw new Problem(400, 'validation_failed', 'variables apply to key and spec inputs only', {
      errors: [{ pointer: '/variables', message: 'only for key and spec inputs' }],
    });
  }
  if (body.prompt !== undefined || body.edit !== undefined) return await authoredInput(body, ctx);
  if (body.provider !== undefined || body.model !== undefined) {
    throw new Problem(400, 'validation_failed', 'provider and model apply to prompt and edit inputs only', {
      errors: [
        {
          pointer: body.provider !== undefined ? '/provider' : '/model',
          message: 'only for prompt and edit',
        },
      ],
    });
  }
  const variables = body.variables ? { variables: body.variables } : {};
  if (body.spec !== undefined) {
    const requests = outputRequests(body);
    const asked: OutputAsked[] = requests?.map((output, index) => ({
      aspect: output.aspect,
      poster: output.poster,
      posterPointer: `/options/outputs/${index}/poster`,
    })) ?? [{ aspect: body.options?.aspect, poster: body.options?.poster, posterPointer: '/options/poster' }];
    const examined = await examineSubmittedSpec(body.spec, body.variables, asked);
    if (!examined.ok) {
      const issues = examined.issues;
      if (issues.every((issue) => 'in' in issue && issue.in === 'variables')) {
        throw invalidVariables(issues as VariableIssue[]);
      }
      throw new Problem(
        400,
        'invalid_spec',
        `the spec is invalid (${issues.length} error${issues.length === 1 ? '' : 's'})`,
        {
          errors: asFieldErrors('/spec', issues),
        },
      );
    }
    const tooCostly = renderCostRefusal(examined.outputs, ctx.config.maxRenderPixels, '/spec');
    if (tooCostly) throw refused(tooCostly);
    const posterOutside = examined.posters.find((poster) => poster !== undefined);
    if (posterOutside) throw refused(posterOutside);
    return {
      kind: 'spec',
      spec: body.spec,
      ...variables,
      ...(examined.bound ? { bound: examined.bound } : {}),
      code: examined.code,
    };
  }
  const key = body.key!;
  const keys = await ctx.keys.keys().catch((error: unknown) => {
    ctx.log.error({ err: error }, 'the render project cannot be loaded');
    throw new Problem(
      503,
      'project_unavailable',
      "the server's render project cannot be loaded, so no key can be rendered now; the operator must fix RENDER_PROJECT",
    );
  });
  if (!keys.includes(key)) {
    const known = keys.length > 0 ? `known keys are ${keys.join(', ')}` : 'the render project registers none';
    throw new Problem(400, 'unknown_key', `unknown composition key "${key}": ${known}`, {
      errors: [{ pointer: '/key', message: `unknown composition key; ${known}` }],
    });
  }
  await assertKeyVariables(ctx, key, body.variables ?? {});
  return { kind: 'key', key, ...variables };
}

/**
 * A key's template values are checked when the render is asked for, so a wrong one is a 400 now
 * rather than a failed job later. Reading a code key's declarations runs it in a worker process.
 * A key that cannot be read fails its job as before, unless values were given that cannot be
 * checked without it.
 */
async function assertKeyVariables(
  ctx: ApiContext,
  key: string,
  values: Record<string, unknown>,
): Promise<void> {
  const declared = await ctx.keys.variablesOf(key).catch((error: unknown) => {
    ctx.log.warn({ err: error, key }, 'the template variables of a key cannot be read');
    if (Object.keys(values).length === 0) return null;
    // Why it failed names server paths: it goes to the log, and the client learns whose fault it is.
    throw new Problem(
      503,
      'project_unavailable',
      `composition key "${key}" cannot be loaded on this server, so its variables cannot be checked; the operator must fix it (the server log says why)`,
    );
  });
  if (declared === null) return;
  const resolved = resolveVariableValues(declared ?? {}, values);
  if (!resolved.ok) throw invalidVariables(resolved.issues);
}

/**
 * Room in the queue: MAX_QUEUE_DEPTH for the whole server (503, and readyz not ready), then
 * MAX_QUEUED_PER_TOKEN for the caller (429). API_TOKEN is the one token that queues renders, so
 * its queued renders are all of them.
 */
async function assertQueueHasRoom(ctx: ApiContext): Promise<void> {
  const queued = await ctx.store.countByStatus('queued');
  const retry = { headers: { 'retry-after': String(QUEUE_RETRY_AFTER_SECONDS) } };
  if (queued >= ctx.config.maxQueueDepth) {
    throw new Problem(
      503,
      'queue_full',
      `the render queue is full: ${queued} renders are waiting, the most this server holds (MAX_QUEUE_DEPTH); retry later`,
      retry,
    );
  }
  if (queued >= ctx.config.maxQueuedPerToken) {
    throw new Problem(
      429,
      'too_many_queued',
      `this token has ${queued} renders waiting, the most allowed (MAX_QUEUED_PER_TOKEN); wait for some to start, or cancel some`,
      retry,
    );
  }
}

/** How long a refused caller should wait: about one short render. */
const QUEUE_RETRY_AFTER_SECONDS = 30;

/** A request's refusal as the API's problem, its issues at their pointers. */
function refused(refusal: RequestRefusal): Problem {
  return new Problem(refusal.status, refusal.code, refusal.message, { errors: refusal.issues });
}

/** options.outputs with every unset field taken from options (format mp4, quality standard). */
function outputRequests(body: CreateRenderBody): OutputRequest[] | undefined {
  const base = body.options;
  return base?.outputs?.map((output) => ({
    format: output.format ?? base.format ?? 'mp4',
    quality: output.quality ?? base.quality ?? 'standard',
    ...((output.aspect ?? base.aspect) ? { aspect: (output.aspect ?? base.aspect)! } : {}),
    ...((output.poster ?? base.poster) ? { poster: (output.poster ?? base.poster)! } : {}),
    ...((output.encoder ?? base.encoder) ? { encoder: (output.encoder ?? base.encoder)! } : {}),
  }));
}

/** Each output's encoder settings against its format, at options.encoder's pointer or the output's own. */
async function assertEncoderSettings(body: CreateRenderBody): Promise<void> {
  const outputs = body.options?.outputs;
  const asked: EncoderAsked[] = outputs
    ? outputs.map((output, index) => ({
        format: output.format ?? body.options?.format ?? 'mp4',
        encoder: output.encoder ?? body.options?.encoder,
        pointer: output.encoder ? `/options/outputs/${index}/encoder` : '/options/encoder',
      }))
    : [
        {
          format: body.options?.format ?? 'mp4',
          encoder: body.options?.encoder,
          pointer: '/options/encoder',
        },
      ];
  const refusal = await encoderRefusal(asked, outputs !== undefined);
  if (refusal) throw refused(refusal);
}

function ttlMs(body: CreateRenderBody, ctx: ApiContext): number {
  if (body.ttl === undefined) return ctx.config.fileTtlMs;
  const ms = parseDuration(body.ttl)!;
  if (ms > ctx.config.maxTtlMs) {
    const maxHours = Math.floor(ctx.config.maxTtlMs / 3_600_000);
    throw new Problem(
      400,
      'validation_failed',
      `ttl ${body.ttl} is longer than this server allows (MAX_TTL)`,
      {
        errors: [{ pointer: '/ttl', message: `must be at most ${maxHours}h (MAX_TTL)` }],
      },
    );
  }
  return ms;
}

/** The request's webhook, else the server's WEBHOOK_URL; its URL checked against the outbound rules. */
function webhookTarget(body: CreateRenderBody, ctx: ApiContext): WebhookTarget | undefined {
  const url = body.webhook?.url ?? ctx.config.webhookUrl;
  if (url === undefined) return undefined;
  const problem = webhookUrlProblem(url, ctx.config.webhookAllowPrivate);
  if (problem) {
    throw new Problem(400, 'validation_failed', `the webhook URL is refused: ${problem}`, {
      errors: [{ pointer: '/webhook/url', message: problem }],
    });
  }
  return { url, events: [...(body.webhook?.events ?? WEBHOOK_EVENTS)] };
}

/** Checks the request and queues its render; throws a Problem (400, 409, 429, 503 …) when it cannot. */
export async function createRender(ctx: ApiContext, body: CreateRenderBody): Promise<RenderJob> {
  await assertQueueHasRoom(ctx);
  await assertEncoderSettings(body);
  const { code, bound, ...input } = await resolveInput(body, ctx);
  const outputs = outputRequests(body);
  // With several outputs, the job's own format, quality, aspect and poster are the first output's.
  const first = outputs?.[0] ?? body.options;
  const options: RenderJobOptions = {
    format: first?.format ?? 'mp4',
    quality: first?.quality ?? 'standard',
    ...(first?.aspect ? { aspect: first.aspect } : {}),
    ...(first?.poster ? { poster: first.poster } : {}),
    ...(first?.encoder ? { encoder: first.encoder } : {}),
    ...(outputs ? { outputs } : {}),
    ...(body.options?.review ? { review: true } : {}),
    ...(body.options?.strictQuality ? { strictQuality: true } : {}),
    ...(body.options?.allowQuality?.length ? { allowQuality: [...body.options.allowQuality] } : {}),
  };
  const webhook = webhookTarget(body, ctx);
  const created = await ctx.store.insert({
    id: `rnd_${randomToken(18)}`,
    input,
    options,
    visibility: body.visibility ?? (ctx.config.publicByDefault ? 'public' : 'private'),
    createdAt: ctx.now(),
    ttlMs: ttlMs(body, ctx),
    ...(input.kind === 'spec' ? { spec: bound ?? input.spec, code: code ?? null } : {}),
    ...(webhook ? { webhook } : {}),
  });
  await ctx.runner.submitted(created);
  return created;
}

/** Cancels a queued or running render; 404/410 for an unknown or expired id, 409 once it ended. */
export async function cancelRender(ctx: ApiContext, id: string): Promise<RenderJob> {
  const found = await findLiveJob(ctx, id);
  if (!(await ctx.store.cancel(found.id, ctx.now()))) {
    const status = (await ctx.store.get(found.id))?.status ?? found.status;
    throw new Problem(
      409,
      'not_cancelable',
      `render ${found.id} already ${status}; only queued or running renders can be canceled`,
    );
  }
  await ctx.runner.cancel(found.id);
  return (await ctx.store.get(found.id))!;
}
