// Drops, bounces, springs, shakes, rocking, glows and blurs drawn whole on Skia: where the element
// is, how big, and what surrounds it on frames through the animation, against where it rests.
import { beforeAll, describe, expect, it } from 'vitest';
import { registerBundledFonts } from '../fonts/register.ts';
import type { Animation } from '../../shared/spec/primitives.ts';
import { CENTRE, FPS, centredRect, drawAt } from './preset-frames.fixture.ts';

beforeAll(() => registerBundledFonts());

/** The lit box of a 200 px white square with `animation`, `seconds` into the scene. */
function squareAt(animation: Animation, seconds: number) {
  return drawAt([centredRect(200, 200, [animation])], seconds).bounds();
}

describe('dropIn', () => {
  // Over 1 s with its bounce easing: it lands at 0.36 s, bounces up to a quarter of the fall at
  // 0.55 s, lands again at 0.73 s and settles.
  const drop: Animation = { preset: 'dropIn', duration: '1s' };

  it('falls from 240 px above, lands, bounces back up and settles in place', () => {
    const rest = CENTRE - 100;
    const tops = [0.1, 11 / FPS, 16 / FPS, 1].map((seconds) => squareAt(drop, seconds)!.top);
    expect(rest - tops[0]!).toBeGreaterThan(150); // still high in the fall
    expect(Math.abs(rest - tops[1]!)).toBeLessThan(8); // touching down
    expect(rest - tops[2]!).toBeGreaterThan(40); // bounced back up
    expect(rest - tops[2]!).toBeLessThan(80);
    expect(tops[3]).toBe(rest);
    // Straight down: it never moves sideways.
    expect(squareAt(drop, 0.1)!.left).toBe(CENTRE - 100);
  });
});

describe('bounceIn', () => {
  it('grows from 0.3 of its size, reaches full size, dips back and ends at full size', () => {
    const bounce: Animation = { preset: 'bounceIn', duration: '1s' };
    const widths = [0.1, 11 / FPS, 16 / FPS, 1].map((seconds) => squareAt(bounce, seconds)!.width);
    expect(widths[0]).toBeLessThan(90); // 0.3 + 0.7 × 0.076 ≈ 0.35 of 200
    expect(widths[1]).toBeGreaterThan(194);
    expect(widths[2]).toBeLessThan(180); // bounced back to ≈ 0.84
    expect(widths[3]).toBe(200);
    // A bounce never overshoots: it is never bigger than it rests.
    for (let frame = 0; frame <= FPS; frame += 2)
      expect(squareAt(bounce, frame / FPS)?.width ?? 0).toBeLessThanOrEqual(201);
  });
});

describe('elasticIn', () => {
  it('springs out past its full size, swings back under it, and rests at full size', () => {
    const elastic: Animation = { preset: 'elasticIn', duration: '1s' };
    expect(squareAt(elastic, 0.1)!.width).toBeGreaterThan(235); // elastic(0.1) ≈ 1.25
    expect(squareAt(elastic, 8 / FPS)!.width).toBeLessThan(185); // elastic(0.27) ≈ 0.88
    expect(squareAt(elastic, 1)!.width).toBe(200);
  });
});

describe('shake', () => {
  it('moves both ways along its direction, dying away, and returns exactly to where it was', () => {
    const shake: Animation = { preset: 'shake', trigger: { at: '1s' } };
    const centres: number[] = [];
    for (let frame = 0; frame <= 0.6 * FPS; frame++) centres.push(squareAt(shake, 1 + frame / FPS)!.centreX);
    expect(Math.max(...centres) - CENTRE).toBeGreaterThan(6);
    expect(CENTRE - Math.min(...centres)).toBeGreaterThan(6);
    // The swings shrink: the first third moves further than the last.
    const reach = (part: number[]) => Math.max(...part.map((x) => Math.abs(x - CENTRE)));
    expect(reach(centres.slice(0, 6))).toBeGreaterThan(reach(centres.slice(12)) + 3);
    expect(centres.at(-1)).toBe(CENTRE);
    // Still until its trigger, level all along: a side-to-side shake never moves it up or down.
    expect(squareAt(shake, 0.5)!.centreX).toBe(CENTRE);
    expect(squareAt(shake, 1.1)!.centreY).toBe(CENTRE);
  });

  it('"up" shakes vertically (a nod)', () => {
    const nod: Animation = { preset: 'shake', direction: 'up', duration: '1s', distance: 30 };
    const ys = [0.05, 0.1, 0.15, 0.2].map((seconds) => squareAt(nod, seconds)!.centreY);
    expect(Math.max(...ys) - Math.min(...ys)).toBeGreaterThan(20);
    expect(squareAt(nod, 0.05)!.centreX).toBe(CENTRE);
  });
});

describe('rock', () => {
  it('leans clockwise, back level, anticlockwise and level again each 2 s cycle', () => {
    // A 400 × 100 bar leaning 6°: its right end's lower corner is about 70 px below the centre.
    const bar = centredRect(400, 100, [{ preset: 'rock' }]);
    const lower = (seconds: number) => drawAt([bar], seconds).lit(CENTRE + 190, CENTRE + 62);
    const upper = (seconds: number) => drawAt([bar], seconds).lit(CENTRE + 190, CENTRE - 62);
    expect([lower(0), upper(0)]).toEqual([false, false]);
    expect([lower(0.5), upper(0.5)]).toEqual([true, false]);
    expect([lower(1), upper(1)]).toEqual([false, false]);
    expect([lower(1.5), upper(1.5)]).toEqual([false, true]);
    expect(drawAt([bar], 2).bounds()).toMatchObject({ width: 400, height: 100 });
  });
});

describe('glow', () => {
  const glowing = centredRect(200, 200, [{ preset: 'glow', color: '#ff3300', amount: 30 }]);
  const outside = { x: CENTRE + 100 + 12, y: CENTRE };

  it('surrounds the element with a halo of its colour at the swell, none at the start of a cycle', () => {
    const peak = drawAt([glowing], 1);
    const [r, g, b] = peak.at(outside.x, outside.y);
    expect(r).toBeGreaterThan(80);
    expect(g).toBeLessThan(r / 2);
    expect(b).toBeLessThan(20);
    // The halo fades outward and the element itself is drawn as it is.
    expect(peak.at(outside.x + 40, outside.y)[0]).toBeLessThan(r);
    expect(peak.at(CENTRE, CENTRE)).toEqual([255, 255, 255]);
    expect(drawAt([glowing], 0).at(outside.x, outside.y)).toEqual([0, 0, 0]);
    expect(drawAt([glowing], 2).at(outside.x, outside.y)).toEqual([0, 0, 0]);
  });

  it('is white unless given a colour', () => {
    const [r, g, b] = drawAt([centredRect(200, 200, [{ preset: 'glow' }])], 1).at(outside.x, outside.y);
    expect(Math.min(r, g, b)).toBeGreaterThan(40);
    expect(Math.max(r, g, b) - Math.min(r, g, b)).toBeLessThan(4);
  });
});

describe('blurIn and blurOut', () => {
  it('blurIn softens the edges mid-way and ends sharp', () => {
    const blur = centredRect(200, 200, [{ preset: 'blurIn', duration: '1s', easing: 'linear' }]);
    const edge = CENTRE + 100;
    const mid = drawAt([blur], 0.5);
    // 15 px of blur: light spills past the edge and the inside of the edge is no longer full.
    expect(mid.at(edge + 6, CENTRE)[0]).toBeGreaterThan(5);
    expect(mid.at(edge - 3, CENTRE)[0]).toBeLessThan(0.5 * 255);
    const end = drawAt([blur], 1);
    expect(end.at(edge + 6, CENTRE)).toEqual([0, 0, 0]);
    expect(end.at(edge - 3, CENTRE)).toEqual([255, 255, 255]);
  });
});
