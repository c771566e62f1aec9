// What the MCP tests share: the SDK's own client over either transport, the tool list they expect,
// small specs, and checks on what the tools answer.
import { readFileSync } from 'node:fs';
import { loadImage } from '@napi-rs/canvas';
import { Client } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/client';
import { expect } from 'vitest';

export const KINO_TOOLS = [
  'cancel_render',
  'edit_video',
  'generate_video',
  'get_doc',
  'get_render',
  'get_video_spec_schema',
  'list_docs',
  'list_templates',
  'render_composition',
  'render_frame',
  'render_video',
  'review_video',
  'search_docs',
  'spec_to_code',
  'validate_code',
];

/** One second of square video at 15 fps: quick to render at draft quality. */
export const QUICK_SPEC = {
  kinoSpec: 1,
  aspect: 'square',
  fps: 15,
  scenes: [
    {
      duration: '1s',
      background: '#1e1b4b',
      elements: [{ type: 'text', text: 'Hello MCP', size: 120, animate: [{ preset: 'fadeIn' }] }],
    },
  ],
};

/**
 * A reel whose second element's text is far too small to read (review finds text_too_small there)
 * and whose third has a ⏻ that no bundled font has (missing_glyph; its ★ comes from the fallback chain).
 */
export const TINY_TEXT_SPEC = {
  kinoSpec: 1,
  aspect: 'reels',
  scenes: [
    {
      duration: '2s',
      background: '#0f172a',
      elements: [
        { type: 'text', text: 'Launch day', size: 140, y: 0.4 },
        { type: 'text', text: 'terms and conditions apply to every offer', size: 12, y: 0.7 },
        { type: 'text', text: '⏻ 4.8★', font: 'display', size: 120, y: 0.2 },
      ],
    },
  ],
};

/** Long enough at standard quality to be canceled while it renders. */
export const SLOW_SPEC = {
  kinoSpec: 1,
  aspect: 'reels',
  fps: 30,
  scenes: Array.from({ length: 4 }, (_, index) => ({
    duration: '5s',
    background: ['#312e81', '#0f766e', '#7c2d12', '#1e3a8a'][index],
    elements: [{ type: 'text', text: `Part ${index + 1}`, size: 160, animate: [{ preset: 'pop' }] }],
  })),
};

export async function connect(transport: Transport, options: { modern?: boolean } = {}): Promise<Client> {
  const client = new Client(
    { name: 'kino-e2e', version: '1.0.0' },
    options.modern ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  await client.connect(transport);
  return client;
}

export interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text?: string; data?: string; mimeType?: string }[];
  structuredContent?: Record<string, unknown>;
}

export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  options: Parameters<Client['callTool']>[1] = {},
): Promise<ToolAnswer> {
  return (await client.callTool({ name, arguments: args }, options)) as unknown as ToolAnswer;
}

/** The answer's text, failing with it when the tool answered an error. */
export function expectSuccess(answer: ToolAnswer): Record<string, unknown> {
  const text = answer.content.map((block) => block.text ?? '').join('\n');
  expect(answer.isError, text).toBeFalsy();
  expect(answer.structuredContent, text).toBeDefined();
  return answer.structuredContent!;
}

export function errorText(answer: ToolAnswer): string {
  expect(answer.isError).toBe(true);
  return answer.content.map((block) => block.text ?? '').join('\n');
}

/** tools/list has every tool, each with an input schema and an output schema. */
export async function expectEveryTool(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual(KINO_TOOLS);
  for (const tool of tools) {
    expect(tool.inputSchema.type, tool.name).toBe('object');
    expect(tool.outputSchema?.type, tool.name).toBe('object');
    expect(tool.description?.length, tool.name).toBeGreaterThan(40);
  }
}

/** The image block of a render_frame answer, decoded: a real PNG of the size the answer states. */
export async function expectFrameImage(answer: ToolAnswer): Promise<{ width: number; height: number }> {
  const structured = expectSuccess(answer);
  const image = answer.content.find((block) => block.type === 'image');
  expect(image?.mimeType).toBe('image/png');
  const bytes = Buffer.from(image!.data!, 'base64');
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const decoded = await loadImage(bytes);
  expect(decoded.width).toBe(structured.imageWidth);
  expect(decoded.height).toBe(structured.imageHeight);
  expect(Math.max(decoded.width, decoded.height)).toBeLessThanOrEqual(768);
  return { width: decoded.width, height: decoded.height };
}

/** Dimensions of a PNG file on disk. */
export async function pngSize(file: string): Promise<{ width: number; height: number }> {
  const image = await loadImage(readFileSync(file));
  return { width: image.width, height: image.height };
}
