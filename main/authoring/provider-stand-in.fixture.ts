// A loopback stand-in for the AI providers, for tests: it speaks each provider's real wire format
// (OpenAI Responses, Anthropic Messages, Google generateContent, OpenAI-compatible chat completions)
// and plays a script of answers, one per request, recording every request it got. The AI SDK's own
// provider code talks to it through baseURL, exactly as it would to the real service.
//
// Like the real services it refuses what they refuse, with their status and error body: a request
// over the context window, and a structured-output schema that breaks the provider's rules
// (provider-schema-rules.ts). Where the provider constrains its answer to the schema (OpenAI strict,
// Anthropic's output_config, Gemini's responseJsonSchema, a local server's grammar), a scripted answer
// must fit the schema the request sent, as a real model's would: the nulls a strict model writes for
// fields it leaves out are filled in, and an answer that still does not fit is a test failure
// (recorded in `misfits`), never passed on.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { schemaViolations } from './provider-schema-rules.ts';
import type { SchemaRuleSet } from './provider-schema-rules.ts';
import type { AiProviderName } from './providers.ts';

export type ScriptedAnswer =
  /** A structured-output answer carrying this JSON value. */
  | { json: unknown; inputTokens?: number; outputTokens?: number; delayMs?: number }
  /** Plain text instead of JSON (a model that ignored the format). */
  | { text: string }
  /** An HTTP error with the provider's own error body. */
  | { status: number; message?: string; retryAfterSeconds?: number }
  /** The model declines. */
  | { refusal: string }
  /** No answer until the client gives up. */
  | { hang: true };

export interface RecordedRequest {
  provider: AiProviderName;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface ProviderStandIn {
  /** The baseURL to give each provider. */
  baseURL: Record<AiProviderName, string>;
  /** Adds answers to the script (played in order, for any provider). */
  script(...answers: ScriptedAnswer[]): void;
  requests: RecordedRequest[];
  /** Prompt tokens of each request, counted as the provider counts them (o200k_base). */
  promptTokens: number[];
  /** Scripted answers that did not fit the schema a constrained request sent: each is a test bug. */
  misfits: string[];
  /** Sets the context window each provider enforces from now on. */
  setContextWindow(tokens: number | undefined): void;
  /** Answers still unplayed. */
  pending(): number;
  close(): Promise<void>;
}

const PREFIX: Record<AiProviderName, string> = {
  openai: '/openai/v1',
  anthropic: '/anthropic/v1',
  google: '/google/v1beta',
  'openai-compatible': '/compatible/v1',
};

function providerOf(path: string): AiProviderName | undefined {
  if (path === '/openai/v1/responses') return 'openai';
  if (path === '/anthropic/v1/messages') return 'anthropic';
  if (/^\/google\/v1beta\/models\/[^/]+:generateContent$/.test(path)) return 'google';
  if (path === '/compatible/v1/chat/completions') return 'openai-compatible';
  return undefined;
}

/** Context windows of the models the defaults name (OpenAI's gpt-5 family, Claude, Gemini Flash). */
const CONTEXT_WINDOWS: Record<AiProviderName, number> = {
  openai: 400_000,
  anthropic: 200_000,
  google: 1_048_576,
  'openai-compatible': 32_768,
};

/** The text a provider reads as the prompt: every string of the instructions and messages. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).join('\n');
  if (typeof value === 'object' && value !== null) return Object.values(value).map(textOf).join('\n');
  return '';
}

/**
 * The request's structured-output schema, the rules its provider holds it to, and whether the
 * provider constrains the answer to it. The schema counts as prompt tokens for the hosted providers;
 * a local server (llama.cpp, vLLM) compiles it to a grammar that takes no context.
 */
function requestShape(provider: AiProviderName, body: Record<string, unknown>) {
  const at = (path: string): unknown =>
    path
      .split('.')
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], body);
  switch (provider) {
    case 'openai': {
      const format = at('text.format') as { schema?: unknown; strict?: boolean; name?: string } | undefined;
      return {
        schema: format?.schema,
        rules: format?.strict ? ('openai-strict' as SchemaRuleSet) : undefined,
        constrained: format?.strict === true,
        name: format?.name ?? 'response',
        prompt: textOf([body.instructions, body.input]) + JSON.stringify(format?.schema ?? ''),
      };
    }
    case 'anthropic': {
      const native = at('output_config.format.schema');
      const tool = (body.tools as { name?: string; input_schema?: unknown }[] | undefined)?.find(
        (candidate) => candidate.name === 'json',
      );
      return {
        schema: native ?? tool?.input_schema,
        rules: native ? ('anthropic-output-format' as const) : tool ? ('anthropic-tool' as const) : undefined,
        constrained: native !== undefined,
        name: 'json',
        prompt: textOf([body.system, body.messages]) + JSON.stringify(native ?? body.tools ?? ''),
      };
    }
    case 'google': {
      const schema = at('generationConfig.responseJsonSchema');
      return {
        schema,
        rules: schema ? ('google' as const) : undefined,
        constrained: schema !== undefined,
        name: 'response',
        prompt: textOf([body.systemInstruction, body.contents]) + JSON.stringify(schema ?? ''),
      };
    }
    case 'openai-compatible': {
      const schema = at('response_format.json_schema.schema');
      return {
        schema,
        rules: undefined,
        constrained: schema !== undefined,
        name: 'response',
        prompt: textOf(body.messages),
      };
    }
  }
}

/** What each provider answers to a prompt over the context window (status 400, their own body). */
function contextErrorBody(provider: AiProviderName, tokens: number, window: number): unknown {
  switch (provider) {
    case 'openai':
      return {
        error: {
          message:
            'Your input exceeds the context window of this model. Please adjust your input and try again.',
          type: 'invalid_request_error',
          param: 'input',
          code: 'context_length_exceeded',
        },
      };
    case 'anthropic':
      return {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: `prompt is too long: ${tokens} tokens > ${window} maximum`,
        },
      };
    case 'google':
      return {
        error: {
          code: 400,
          message: `The input token count (${tokens}) exceeds the maximum number of tokens allowed (${window}).`,
          status: 'INVALID_ARGUMENT',
        },
      };
    case 'openai-compatible':
      // llama.cpp's server; vLLM says the same in other words.
      return {
        error: {
          code: 400,
          message: 'the request exceeds the available context size, try increasing it',
          type: 'exceed_context_size_error',
          n_prompt_tokens: tokens,
          n_ctx: window,
        },
      };
  }
}

/** What each provider answers to a structured-output schema it cannot take (status 400). */
function schemaErrorBody(provider: AiProviderName, name: string, violation: string): unknown {
  switch (provider) {
    case 'anthropic':
      return {
        type: 'error',
        error: { type: 'invalid_request_error', message: `output_config.format.schema: ${violation}` },
      };
    case 'google':
      return {
        error: {
          code: 400,
          message: `Invalid JSON payload received. ${violation} at 'generation_config.response_json_schema'.`,
          status: 'INVALID_ARGUMENT',
        },
      };
    default:
      return {
        error: {
          message: `Invalid schema for response_format '${name}': ${violation}`,
          type: 'invalid_request_error',
          param: 'text.format.schema',
          code: 'invalid_json_schema',
        },
      };
  }
}

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a local "#/$defs/Name" points at. */
const target = (ref: string, root: Json): unknown =>
  ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, key) => (node as Json | undefined)?.[key], root);

/**
 * A scripted answer as a strict model writes it: every property the schema lists and the answer
 * leaves out, present as null where the schema lets it be null. Unions take the branch whose consts
 * (an element's `type`) match.
 */
export function withStrictNulls(value: unknown, schema: unknown, root: Json): unknown {
  if (!isJson(schema)) return value;
  if (typeof schema.$ref === 'string') return withStrictNulls(value, target(schema.$ref, root), root);
  if (Array.isArray(schema.anyOf)) {
    const branch = schema.anyOf.find((candidate) => fits(value, candidate, root));
    return branch ? withStrictNulls(value, branch, root) : value;
  }
  if (Array.isArray(value)) return value.map((item) => withStrictNulls(item, schema.items, root));
  if (!isJson(value) || !isJson(schema.properties)) return value;
  const out: Json = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    out[name] = name in value ? withStrictNulls(value[name], property, root) : null;
  }
  for (const [name, inner] of Object.entries(value)) if (!(name in out)) out[name] = inner;
  return out;
}

/** Whether a value is of the branch's kind: its type, and for objects the consts it declares. */
function fits(value: unknown, schema: unknown, root: Json): boolean {
  if (!isJson(schema)) return false;
  if (typeof schema.$ref === 'string') return fits(value, target(schema.$ref, root), root);
  if (Array.isArray(schema.anyOf)) return schema.anyOf.some((branch) => fits(value, branch, root));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  const typed = types.some(
    (type) =>
      type === kind ||
      (type === 'integer' && Number.isInteger(value)) ||
      (type === undefined && 'const' in schema),
  );
  if (!typed) return 'const' in schema && schema.const === value;
  if (!isJson(value) || !isJson(schema.properties)) return true;
  return Object.entries(schema.properties).every(
    ([name, property]) => !(isJson(property) && 'const' in property) || value[name] === property.const,
  );
}

function errorBody(provider: AiProviderName, status: number, message: string): unknown {
  switch (provider) {
    case 'anthropic':
      return {
        type: 'error',
        error: { type: status === 429 ? 'rate_limit_error' : 'api_error', message },
      };
    case 'google':
      return { error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL' } };
    default:
      return {
        error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null },
      };
  }
}

/** Whether the Anthropic request asks for the answer as the "json" tool's input. */
function wantsJsonTool(body: Record<string, unknown>): boolean {
  const tools = body.tools as { name?: string }[] | undefined;
  return Array.isArray(tools) && tools.some((tool) => tool.name === 'json');
}

function success(
  provider: AiProviderName,
  body: Record<string, unknown>,
  answer: { text?: string; refusal?: string; inputTokens: number; outputTokens: number },
): unknown {
  const model = String(body.model ?? 'stand-in');
  const { text, refusal, inputTokens, outputTokens } = answer;
  switch (provider) {
    case 'openai':
      return {
        id: 'resp_standin',
        object: 'response',
        created_at: 1_700_000_000,
        status: 'completed',
        model,
        output: [
          {
            type: 'message',
            id: 'msg_standin',
            status: 'completed',
            role: 'assistant',
            content:
              refusal === undefined
                ? [{ type: 'output_text', text, annotations: [] }]
                : [{ type: 'refusal', refusal }],
          },
        ],
        usage: {
          input_tokens: inputTokens,
          output_tokens: outputTokens,
          total_tokens: inputTokens + outputTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens_details: { reasoning_tokens: 0 },
        },
      };
    case 'anthropic': {
      // A model asked to call the json tool may still answer in prose: then there is no tool call.
      const parsed = (() => {
        try {
          return { value: JSON.parse(text ?? '') as unknown };
        } catch {
          return undefined;
        }
      })();
      const toolUse = refusal === undefined && parsed !== undefined && wantsJsonTool(body);
      return {
        id: 'msg_standin',
        type: 'message',
        role: 'assistant',
        model,
        content: toolUse
          ? [{ type: 'tool_use', id: 'toolu_standin', name: 'json', input: parsed.value }]
          : [{ type: 'text', text: refusal ?? text }],
        stop_reason: refusal !== undefined ? 'refusal' : toolUse ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: inputTokens, output_tokens: outputTokens },
      };
    }
    case 'google':
      return refusal === undefined
        ? {
            candidates: [{ content: { parts: [{ text }], role: 'model' }, finishReason: 'STOP', index: 0 }],
            usageMetadata: {
              promptTokenCount: inputTokens,
              candidatesTokenCount: outputTokens,
              totalTokenCount: inputTokens + outputTokens,
            },
          }
        : {
            candidates: [{ content: { parts: [], role: 'model' }, finishReason: 'SAFETY', index: 0 }],
            usageMetadata: {
              promptTokenCount: inputTokens,
              candidatesTokenCount: 0,
              totalTokenCount: inputTokens,
            },
          };
    case 'openai-compatible':
      return {
        id: 'chatcmpl-standin',
        object: 'chat.completion',
        created: 1_700_000_000,
        model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: refusal === undefined ? text : null,
              refusal: refusal ?? null,
            },
            finish_reason: refusal === undefined ? 'stop' : 'content_filter',
          },
        ],
        usage: {
          prompt_tokens: inputTokens,
          completion_tokens: outputTokens,
          total_tokens: inputTokens + outputTokens,
        },
      };
  }
}

export interface StandInOptions {
  /** The context window every provider enforces (default: each provider's own). */
  contextWindow?: number;
}

export async function startProviderStandIn(options: StandInOptions = {}): Promise<ProviderStandIn> {
  const script: ScriptedAnswer[] = [];
  const requests: RecordedRequest[] = [];
  const promptTokens: number[] = [];
  const misfits: string[] = [];
  let contextWindow = options.contextWindow;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const hanging = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      const provider = providerOf(path);
      if (req.method !== 'POST' || !provider) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"error":{"message":"no such route"}}');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      requests.push({ provider, path, headers: req.headers, body });
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) =>
        res
          .writeHead(status, { 'content-type': 'application/json', ...headers })
          .end(JSON.stringify(payload));
      const shape = requestShape(provider, body);
      const tokens = countTokens(shape.prompt);
      promptTokens.push(tokens);
      const window = contextWindow ?? CONTEXT_WINDOWS[provider];
      if (tokens > window) {
        send(400, contextErrorBody(provider, tokens, window));
        return;
      }
      if (shape.rules) {
        const violation = schemaViolations(shape.schema, shape.rules)[0];
        if (violation) {
          send(400, schemaErrorBody(provider, shape.name, violation.message));
          return;
        }
      }
      const answer = script.shift() ?? { status: 500, message: 'the stand-in has no answer scripted' };
      if ('json' in answer && shape.constrained && isJson(shape.schema)) {
        const schema = shape.schema;
        const json =
          shape.rules === 'openai-strict' ? withStrictNulls(answer.json, schema, schema) : answer.json;
        const validate = ajv.compile(schema);
        if (!validate(json)) {
          const why = ajv.errorsText(validate.errors?.slice(0, 3));
          misfits.push(`${provider}: the scripted answer does not fit the request's schema: ${why}`);
          send(500, errorBody(provider, 500, `stand-in: scripted answer misfits the schema (${why})`));
          return;
        }
        answer.json = json;
      }
      if ('hang' in answer) {
        const release = () => res.destroy();
        hanging.add(release);
        res.on('close', () => hanging.delete(release));
        return;
      }
      if ('status' in answer) {
        send(
          answer.status,
          errorBody(provider, answer.status, answer.message ?? `stand-in error ${answer.status}`),
          answer.retryAfterSeconds === undefined ? {} : { 'retry-after': String(answer.retryAfterSeconds) },
        );
        return;
      }
      const usage = {
        inputTokens: 'inputTokens' in answer ? (answer.inputTokens ?? tokens) : tokens,
        outputTokens: 'outputTokens' in answer ? (answer.outputTokens ?? 400) : 400,
      };
      if ('refusal' in answer) send(200, success(provider, body, { refusal: answer.refusal, ...usage }));
      else if ('text' in answer) send(200, success(provider, body, { text: answer.text, ...usage }));
      else {
        const reply = () =>
          send(200, success(provider, body, { text: JSON.stringify(answer.json), ...usage }));
        if (answer.delayMs) setTimeout(reply, answer.delayMs);
        else reply();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseURL: Object.fromEntries(
      Object.entries(PREFIX).map(([name, prefix]) => [name, `${origin}${prefix}`]),
    ) as Record<AiProviderName, string>,
    script: (...answers) => script.push(...answers),
    requests,
    promptTokens,
    misfits,
    setContextWindow: (tokens) => {
      contextWindow = tokens;
    },
    pending: () => script.length,
    close: async () => {
      for (const release of hanging) release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An edit's answer as a model writes it: each operation's value as JSON text (edit-patch.ts). */
export function editAnswer(...operations: { op: string; path: string; value?: unknown; from?: string }[]) {
  return {
    json: {
      patch: operations.map(({ op, path, value, from }) => ({
        op,
        path,
        from: from ?? null,
        value: value === undefined ? null : JSON.stringify(value),
      })),
    },
  };
}

/** A one-second scene with one line of white text: the answers the authoring tests script. */
export const textScene = (text: string, background: string, size = 110) => ({
  duration: '1s',
  background,
  elements: [{ type: 'text', text, size, color: '#ffffff' }],
});

/**
 * A spec every schema takes but the timeline refuses (its text starts after its scene ends): a
 * wrong answer that even a strictly constrained model can give.
 */
export const LATE_ELEMENT_SPEC = {
  kinoSpec: 1,
  aspect: 'square',
  scenes: [{ duration: '1s', elements: [{ type: 'text', text: 'Too late', start: '5s' }] }],
};

/** A valid two-scene spec that renders in a blink (square, 12 fps, 2 s). */
export const TWO_SCENE_SPEC = {
  kinoSpec: 1,
  aspect: 'square',
  fps: 12,
  scenes: [textScene('Hello', '#101826'), textScene('World', '#1f2937')],
};
