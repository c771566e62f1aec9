// Mask reveals, flips and turns drawn whole on Skia: mid-animation frames against the resting frame,
// measured as a viewer sees them (which part shows, how wide, which way it leans).
import { beforeAll, describe, expect, it } from 'vitest';
import { registerBundledFonts } from '../fonts/register.ts';
import type { Animation, Direction, Paint } from '../../shared/spec/primitives.ts';
import { REVEAL_EDGE_MARGIN } from '../../shared/draw/element-effects.ts';
import { CENTRE, centredRect, drawAt } from './preset-frames.fixture.ts';

beforeAll(() => registerBundledFonts());

/** Red at the start of the axis (left or top), blue at its end, so a viewer can tell which part shows. */
function gradientAlong(axis: 'x' | 'y'): Paint {
  return { type: 'linear', colors: ['#ff0000', '#0000ff'], angle: axis === 'x' ? 0 : 90 };
}

const isRed = ([r, , b]: [number, number, number]) => r > 180 && b < 80;
const isBlue = ([r, , b]: [number, number, number]) => b > 180 && r < 80;

describe('maskRevealIn', () => {
  // A 400 × 200 box, its content halfway (linear, at 0.5 s) from behind a mask edge that lies
  // REVEAL_EDGE_MARGIN of the box past the side it comes from: so it has moved 0.6 of the box.
  const W = 400;
  const H = 200;
  const box = { left: CENTRE - W / 2, right: CENTRE + W / 2, top: CENTRE - H / 2, bottom: CENTRE + H / 2 };
  const shift = { x: 0.5 * (1 + REVEAL_EDGE_MARGIN) * W, y: 0.5 * (1 + REVEAL_EDGE_MARGIN) * H };
  const margin = { x: REVEAL_EDGE_MARGIN * W, y: REVEAL_EDGE_MARGIN * H };
  const reveal = (direction: Direction, axis: 'x' | 'y') =>
    centredRect(
      W,
      H,
      [{ preset: 'maskRevealIn', direction, duration: '1s', easing: 'linear' }],
      gradientAlong(axis),
    );

  it.each([
    // Moving up into place, it rises from behind the edge below its box: its top (red) leads.
    {
      direction: 'up',
      axis: 'y',
      shown: { top: box.top + shift.y, bottom: box.bottom + margin.y },
      colour: isRed,
    },
    {
      direction: 'down',
      axis: 'y',
      shown: { top: box.top - margin.y, bottom: box.bottom - shift.y },
      colour: isBlue,
    },
    {
      direction: 'left',
      axis: 'x',
      shown: { left: box.left + shift.x, right: box.right + margin.x },
      colour: isRed,
    },
    {
      direction: 'right',
      axis: 'x',
      shown: { left: box.left - margin.x, right: box.right - shift.x },
      colour: isBlue,
    },
  ] as const)('$direction: halfway, only its leading part shows, cut off at the mask edge', (c) => {
    const element = reveal(c.direction, c.axis);
    const frame = drawAt([element], 0.5);
    const mid = frame.bounds();
    expect(mid).toBeDefined();
    const expected = { ...box, ...c.shown };
    for (const side of ['left', 'right', 'top', 'bottom'] as const) {
      // Inclusive pixel edges: a right or bottom edge is the last lit pixel, one short of the box edge.
      const edge = side === 'right' || side === 'bottom' ? expected[side] - 1 : expected[side];
      expect(Math.abs(mid![side] - edge), `${side}: ${mid![side]} vs ${edge}`).toBeLessThanOrEqual(1);
    }
    // Not a wipe: the content moved, so what shows first past its leading edge is its leading end.
    const lead = {
      up: [CENTRE, expected.top + 3],
      down: [CENTRE, expected.bottom - 4],
      left: [expected.left + 3, CENTRE],
      right: [expected.right - 4, CENTRE],
    }[c.direction];
    expect(c.colour(frame.at(lead[0]!, lead[1]!)), String(frame.at(lead[0]!, lead[1]!))).toBe(true);
    // Before it starts nothing shows; once done the whole box does, unclipped.
    expect(drawAt([element], 0).bounds()).toBeUndefined();
    expect(drawAt([element], 1).bounds()).toMatchObject({
      left: box.left,
      top: box.top,
      width: W,
      height: H,
    });
  });

  it('moves a stroke that reaches past its box whole, so nothing appears as it comes to rest', () => {
    // A 20 px stroke is centred on the box's edge: 10 px of it lie outside the box.
    const stroked = (animate: Animation[]) => ({
      ...centredRect(W, H, animate),
      stroke: { color: '#ffffff', width: 20 },
    });
    const still = drawAt([stroked([])], 1).bounds()!;
    expect(still.bottom).toBe(box.bottom + 10 - 1);
    // Near the end (hidden 0.1: 24 px below its place), the stroke's outer edge still shows in full.
    const late = drawAt(
      [stroked([{ preset: 'maskRevealIn', duration: '1s', easing: 'linear' }])],
      0.9,
    ).bounds()!;
    expect(late.bottom).toBe(still.bottom + 0.1 * (1 + REVEAL_EDGE_MARGIN) * H);
  });
});

describe('maskRevealOut', () => {
  it('up: slides up behind its top edge, nothing showing above it, and is gone at the end', () => {
    const element = centredRect(
      400,
      200,
      [{ preset: 'maskRevealOut', direction: 'up', duration: '1s', easing: 'linear', trigger: { at: '1s' } }],
      gradientAlong('y'),
    );
    expect(drawAt([element], 0.5).bounds()).toMatchObject({ top: CENTRE - 100, height: 200 });
    // Halfway, it has moved 0.6 of its height (120 px) up, cut at the mask edge 40 px above its box.
    const frame = drawAt([element], 1.5);
    expect(frame.bounds()).toMatchObject({ top: CENTRE - 140, height: 120 });
    // What shows is its lower part: blue (its bottom) at the bottom of what shows.
    expect(isBlue(frame.at(CENTRE, CENTRE - 20 - 4))).toBe(true);
    expect(drawAt([element], 2).bounds()).toBeUndefined();
  });
});

describe('flipIn and flipOut', () => {
  const flip = (preset: 'flipIn' | 'flipOut', direction?: Direction): Animation[] => [
    { preset, duration: '1s', easing: 'linear', ...(direction ? { direction } : {}), trigger: { at: 0 } },
  ];

  it('flipIn narrows the element across the turning axis by the cosine of the angle, then stands face on', () => {
    // Halfway through a quarter turn: 45°, so cos 45° ≈ 0.707 of its 400 px width shows, all its height.
    const mid = drawAt([centredRect(400, 200, flip('flipIn'))], 0.5).bounds()!;
    expect(mid.width).toBeGreaterThanOrEqual(280);
    expect(mid.width).toBeLessThanOrEqual(286);
    expect(mid.height).toBe(200);
    expect(mid.centreX).toBeCloseTo(CENTRE, 0);
    const early = drawAt([centredRect(400, 200, flip('flipIn'))], 0.1).bounds()!;
    expect(early.width).toBeLessThan(70); // cos 81° ≈ 0.156: nearly edge-on
    expect(drawAt([centredRect(400, 200, flip('flipIn'))], 1).bounds()).toMatchObject({
      width: 400,
      height: 200,
    });
  });

  it('flipIn "up" turns about the horizontal axis: the height narrows, not the width', () => {
    const mid = drawAt([centredRect(400, 200, flip('flipIn', 'up'))], 0.5).bounds()!;
    expect(mid.width).toBe(400);
    expect(mid.height).toBeGreaterThanOrEqual(140);
    expect(mid.height).toBeLessThanOrEqual(143);
  });

  it('flipOut narrows to edge-on and is gone', () => {
    const element = centredRect(400, 200, flip('flipOut'));
    expect(drawAt([element], 0).bounds()).toMatchObject({ width: 400 });
    expect(drawAt([element], 0.5).bounds()!.width).toBeLessThanOrEqual(286);
    expect(drawAt([element], 0.9).bounds()!.width).toBeLessThan(70);
    expect(drawAt([element], 1).bounds()).toBeUndefined();
  });
});

describe('rotateIn and rotateOut', () => {
  // A 400 × 100 bar: halfway through, rotateIn (90° back, turning clockwise) leans 45° anticlockwise,
  // its right end up, at half opacity.
  const bar = (animation: Animation) => centredRect(400, 100, [animation]);

  it('rotateIn turns clockwise into place from 90° back while fading in', () => {
    const element = bar({ preset: 'rotateIn', duration: '1s', easing: 'linear' });
    const mid = drawAt([element], 0.5);
    expect(mid.lit(CENTRE + 100, CENTRE - 100)).toBe(true); // the right end is raised
    expect(mid.lit(CENTRE + 100, CENTRE + 100)).toBe(false);
    expect(mid.lit(CENTRE - 100, CENTRE + 100)).toBe(true); // and the left end lowered
    const [grey] = mid.at(CENTRE, CENTRE);
    expect(grey).toBeGreaterThan(110); // half faded in
    expect(grey).toBeLessThan(145);
    const end = drawAt([element], 1);
    expect(end.bounds()).toMatchObject({ width: 400, height: 100 });
    expect(end.at(CENTRE, CENTRE)).toEqual([255, 255, 255]);
  });

  it('rotateOut turns on clockwise by `amount` while fading out, then is gone', () => {
    const element = bar({
      preset: 'rotateOut',
      duration: '1s',
      easing: 'linear',
      amount: 90,
      trigger: { at: 0 },
    });
    const mid = drawAt([element], 0.5);
    expect(mid.lit(CENTRE + 100, CENTRE + 100)).toBe(true); // the right end has dropped
    expect(mid.lit(CENTRE + 100, CENTRE - 100)).toBe(false);
    expect(drawAt([element], 1).bounds()).toBeUndefined();
  });
});
