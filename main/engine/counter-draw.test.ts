// A counter's prefix and suffix, drawn with the real Skia canvas and the bundled fonts: Kino draws
// them in the case the spec wrote; the display face (Bebas Neue) has capitals only, so in it every
// letter shows as a capital. That is the face's design, which the README states.
import { beforeAll, describe, expect, it } from 'vitest';
import { createDrawEnv, createSkiaSurface, readRgba } from './canvas-host.ts';
import { registerBundledFonts } from '../fonts/register.ts';
import { restingState } from '../../shared/animation/state.ts';
import type { DrawEnv } from '../../shared/canvas/types.ts';
import { drawCounter } from '../../shared/elements/text/counter-draw.ts';
import { CounterElementSchema } from '../../shared/spec/counter-element.ts';
import type { TextElement } from '../../shared/spec/text-element.ts';

const FRAME = { width: 1920, height: 1080 };
const BOX = { x: 100, y: 100, width: 1200, height: 200 };
let env: DrawEnv;

beforeAll(() => {
  registerBundledFonts();
  env = createDrawEnv(FRAME, 30, { image: () => undefined, videoFrame: () => undefined });
});

/** The counter at rest: its pixels, and the text it reports to review. */
function draw(fields: Record<string, unknown>): { pixels: Uint8Array; text: string } {
  const element = CounterElementSchema.parse({ type: 'counter', to: 1200, countDuration: 0, ...fields });
  const surface = createSkiaSurface(1400, 400);
  surface.ctx.fillStyle = '#000000';
  surface.ctx.fillRect(0, 0, 1400, 400);
  let text = '';
  drawCounter({
    ctx: surface.ctx,
    element,
    box: BOX,
    env,
    state: restingState(),
    time: { frame: 60, sceneSeconds: 2, elementSeconds: 2, elementDuration: 3 },
    key: 's0/e0',
    drawChildren: () => {},
    observeText: (shown: TextElement) => (text = shown.text),
  });
  return { pixels: readRgba(surface), text };
}

function differingPixels(a: Uint8Array, b: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < a.length; i += 4)
    if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) count++;
  return count;
}

describe('a counter prefix and suffix', () => {
  it('keep the case the spec wrote: "users" is not drawn as "USERS"', () => {
    const lower = draw({ font: 'sans', prefix: 'about ', suffix: ' users' });
    const upper = draw({ font: 'sans', prefix: 'ABOUT ', suffix: ' USERS' });
    expect(lower.text).toBe('about 1,200 users');
    expect(differingPixels(lower.pixels, upper.pixels)).toBeGreaterThan(1000);
  });

  it('show as capitals in the display face, which has no lowercase letters', () => {
    const lower = draw({ font: 'display', suffix: ' users' });
    const upper = draw({ font: 'display', suffix: ' USERS' });
    // The text is still the spec's; only the face draws it in capitals.
    expect(lower.text).toBe('1,200 users');
    expect(differingPixels(lower.pixels, upper.pixels)).toBe(0);
  });
});
