// Text layout and drawing. (Initial version: wrapping and alignment; refined by the text module work.)
import type { DrawEnv } from '../draw/types.ts';
import { resolveLength } from '../layout/length.ts';
import type { ElementDrawArgs } from './definition.ts';
import type { TextElement } from './text.ts';

function fontSize(element: TextElement, env: DrawEnv): number {
  return resolveLength(element.size ?? 72, env.size.height, { frame: env.size, scale: env.scale });
}

function fontString(element: TextElement, env: DrawEnv, size: number): string {
  return `${element.italic ? 'italic ' : ''}${element.weight ?? 700} ${size}px "${env.fontFamily(element.font ?? 'sans')}"`;
}

function wrap(ctx: CanvasRenderingContext2D, text: string, maxWidth: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (line && ctx.measureText(candidate).width > maxWidth) {
        lines.push(line);
        line = word;
      } else line = candidate;
    }
    lines.push(line);
  }
  return lines;
}

export function measureText(element: TextElement, env: DrawEnv, maxWidth: number): { width: number; height: number } {
  const ctx = env.createSurface(1, 1).ctx;
  const size = fontSize(element, env);
  ctx.font = fontString(element, env, size);
  const lines = wrap(ctx, element.text, maxWidth);
  const width = Math.max(...lines.map((l) => ctx.measureText(l).width));
  return { width: Math.min(maxWidth, width), height: lines.length * size * (element.lineHeight ?? 1.15) };
}

export function drawText({ ctx, element, box, env }: ElementDrawArgs<TextElement>): void {
  const size = fontSize(element, env);
  ctx.font = fontString(element, env, size);
  ctx.fillStyle = element.color ?? '#ffffff';
  ctx.textBaseline = 'middle';
  const align = element.align ?? 'center';
  ctx.textAlign = align;
  const lineHeight = size * (element.lineHeight ?? 1.15);
  const x = align === 'left' ? box.x : align === 'right' ? box.x + box.width : box.x + box.width / 2;
  wrap(ctx, element.text, box.width).forEach((line, index) => {
    ctx.fillText(line, x, box.y + lineHeight * (index + 0.5));
  });
}
