// Blur, glow and shadow layers bounded to the element's ink (clipToInk) draw the very pixels the
// unbounded, canvas-sized layers drew: each frame is drawn both ways and the pixels hashed. The
// elements cover the bounded types (text, rect, ellipse, line, image, a clipped group) blurred,
// glowing and shadowed, scaled by 2 and 0.5, rotated, wiped and revealed, text grown past its box
// by keyframes, and a zoom transition that scales the whole scene.
import { createHash } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ModelElement, VideoModel } from '../../shared/spec/model.ts';
import type * as ElementEffects from '../../shared/draw/element-effects.ts';
import { loadProject } from '../project/load.ts';
import { DrawingSession } from './drawing-session.ts';
import { projectContext } from './project-context.ts';
import type { RenderProjectContext } from './project-context.ts';

const bounds = vi.hoisted(() => ({ on: true, clips: 0, tight: 0 }));
vi.mock('../../shared/draw/element-effects.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof ElementEffects>();
  return {
    ...actual,
    clipToInk: (...args: Parameters<typeof actual.clipToInk>) => {
      if (!bounds.on) return;
      bounds.clips++;
      if (args[3]) bounds.tight++;
      actual.clipToInk(...args);
    },
  };
});

const EXAMPLES = new URL('../../examples/', import.meta.url).pathname;
const blurIn = { preset: 'blurIn', duration: '1s', easing: 'linear' } as const;
const glow = { preset: 'glow', amount: 30, color: '#ffcc00', duration: '1s' } as const;
const shadow = { color: 'rgba(0,0,0,0.7)', blur: 30, x: 12, y: 20 };

const ELEMENTS: ModelElement[] = [
  {
    type: 'text',
    text: 'Sound, reshaped.',
    font: 'serif',
    italic: true,
    size: 58,
    x: 0.5,
    y: 0.08,
    animate: [blurIn],
  },
  {
    type: 'text',
    text: 'Outlined and shadowed',
    size: 44,
    x: 0.3,
    y: 0.2,
    rotation: 12,
    stroke: { color: '#ff0000', width: 4 },
    textShadow: { color: '#00ff00', blur: 10, x: 8, y: 6 },
    background: { color: '#223366', paddingX: 20, paddingY: 10, radius: 'pill' },
    shadow,
    animate: [blurIn, glow],
  },
  {
    // Glyphs alone, moving by fractions of a pixel and turned: bounded on every side (shiftable).
    type: 'text',
    text: 'Sliding, turned, soft',
    size: 41,
    x: 0.37,
    y: 0.93,
    rotation: 7.3,
    animate: [blurIn, { preset: 'slideFadeIn', duration: '1.2s', distance: 133.7 }],
  },
  {
    type: 'text',
    text: 'Grows past its box',
    size: 30,
    height: 20,
    x: 0.6,
    y: 0.3,
    keyframes: {
      size: [
        { at: 0, value: 30 },
        { at: 1, value: 80 },
      ],
      blur: [
        { at: 0, value: 8 },
        { at: 1, value: 3 },
      ],
    },
  },
  {
    type: 'rect',
    width: 160,
    height: 100,
    x: 0.25,
    y: 0.42,
    scale: 2,
    fill: '#ff4d2e',
    stroke: { color: '#ffffff', width: 10 },
    shadow,
    animate: [blurIn],
  },
  {
    type: 'ellipse',
    width: 200,
    height: 120,
    x: 0.75,
    y: 0.42,
    scale: 0.5,
    rotation: 30,
    fill: { type: 'radial', colors: ['#ffffff', '#3355ff'] },
    animate: [glow, blurIn],
  },
  {
    type: 'line',
    x: 0.9,
    y: 0.5,
    x2: 0.1,
    y2: 0.55,
    stroke: { color: '#818cf8', width: 12 },
    cap: 'square',
    animate: [blurIn],
  },
  {
    type: 'image',
    src: 'assets/photo-mountains.jpg',
    width: 300,
    height: 200,
    x: 0.3,
    y: 0.66,
    radius: 24,
    border: { color: '#ffffff', width: 8 },
    rotation: -8,
    shadow,
    animate: [{ preset: 'maskWipeIn', duration: '1s', easing: 'linear' }],
    keyframes: {
      blur: [
        { at: 0, value: 12 },
        { at: 1, value: 2 },
      ],
    },
  },
  {
    type: 'image',
    src: 'assets/logo.png',
    width: 160,
    height: 160,
    x: 0.75,
    y: 0.66,
    shadow,
  },
  {
    type: 'group',
    width: 400,
    height: 200,
    x: 0.5,
    y: 0.86,
    clip: true,
    animate: [{ preset: 'maskRevealIn', duration: '1s', easing: 'linear' }, blurIn],
    children: [
      { type: 'rect', width: 500, height: 80, x: 0.5, y: 0.3, fill: '#22cc88' },
      { type: 'text', text: 'Inside a clipped group', size: 36, x: 0.5, y: 0.7 },
    ],
  },
];

function video(): VideoModel {
  return {
    kinoSpec: 1,
    fps: 30,
    aspect: { width: 540, height: 960 },
    scenes: [
      { duration: '1.2s', background: '#0b0b10', elements: ELEMENTS },
      {
        duration: '1s',
        background: '#f4f1ea',
        transition: { type: 'zoom', duration: '0.6s' },
        elements: [ELEMENTS[1]!, ELEMENTS[2]!, ELEMENTS[4]!, ELEMENTS[7]!],
      },
    ],
  };
}

/** Frames mid-blur, mid-glow and mid-wipe, and inside the zoom transition (frames 18–35). */
const FRAMES = [3, 10, 16, 22, 28, 34];

let project: RenderProjectContext;
const open: DrawingSession[] = [];

beforeAll(async () => {
  project = await projectContext(await loadProject(EXAMPLES));
});

afterEach(() => {
  for (const session of open.splice(0)) session.close();
  bounds.on = true;
});

async function hashes(bounded: boolean): Promise<string[]> {
  bounds.on = bounded;
  const session = await DrawingSession.open({ model: video(), project });
  open.push(session);
  const out: string[] = [];
  for (const frame of FRAMES) {
    await session.draw(frame);
    out.push(createHash('sha256').update(session.rgba()).digest('hex'));
  }
  return out;
}

describe('filter layers bounded to the ink', () => {
  it('draw the same pixels as unbounded ones', async () => {
    bounds.clips = 0;
    bounds.tight = 0;
    const bounded = await hashes(true);
    expect(bounds.clips).toBeGreaterThan(FRAMES.length * 4);
    expect(bounds.tight).toBeGreaterThan(FRAMES.length);
    const unbounded = await hashes(false);
    expect(bounded).toEqual(unbounded);
    // The frames differ from one another: the test draws moving, blurred things, not blanks.
    expect(new Set(bounded).size).toBe(FRAMES.length);
  });
});
