// A loopback stand-in for the AI providers, for tests: it speaks each provider's real wire format
// (OpenAI Responses, Anthropic Messages, Google generateContent, OpenAI-compatible chat completions)
// and plays a script of answers, one per request, recording every request it got. The AI SDK's own
// provider code talks to it through baseURL, exactly as it would to the real service.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
      const toolUse = refusal === undefined && wantsJsonTool(body);
      return {
        id: 'msg_standin',
        type: 'message',
        role: 'assistant',
        model,
        content: toolUse
          ? [{ type: 'tool_use', id: 'toolu_standin', name: 'json', input: JSON.parse(text!) as unknown }]
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

export async function startProviderStandIn(): Promise<ProviderStandIn> {
  const script: ScriptedAnswer[] = [];
  const requests: RecordedRequest[] = [];
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
      const answer = script.shift() ?? { status: 500, message: 'the stand-in has no answer scripted' };
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) =>
        res
          .writeHead(status, { 'content-type': 'application/json', ...headers })
          .end(JSON.stringify(payload));
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
      const tokens = {
        inputTokens: 'inputTokens' in answer ? (answer.inputTokens ?? 1200) : 1200,
        outputTokens: 'outputTokens' in answer ? (answer.outputTokens ?? 400) : 400,
      };
      if ('refusal' in answer) send(200, success(provider, body, { refusal: answer.refusal, ...tokens }));
      else if ('text' in answer) send(200, success(provider, body, { text: answer.text, ...tokens }));
      else {
        const reply = () =>
          send(200, success(provider, body, { text: JSON.stringify(answer.json), ...tokens }));
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
    pending: () => script.length,
    close: async () => {
      for (const release of hanging) release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A one-second scene with one line of white text: the answers the authoring tests script. */
export const textScene = (text: string, background: string, size = 110) => ({
  duration: '1s',
  background,
  elements: [{ type: 'text', text, size, color: '#ffffff' }],
});

/** A valid two-scene spec that renders in a blink (square, 12 fps, 2 s). */
export const TWO_SCENE_SPEC = {
  kinoSpec: 1,
  aspect: 'square',
  fps: 12,
  scenes: [textScene('Hello', '#101826'), textScene('World', '#1f2937')],
};
