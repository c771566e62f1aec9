import { describe, expect, it } from 'vitest';
import type { Animation } from '../spec/primitives.ts';
import { assertSpec } from '../spec/validate.ts';
import { resolveTimeline } from './resolve.ts';
import type { ResolvedElement } from './types.ts';
import { easingFunction } from '../animation/easing.ts';
import { animatedState } from './evaluate.ts';

// A 540×540 frame: design pixels are half size, so distances show whether they were scaled.
const SCALE = 0.5;

function resolveOne(element: Record<string, unknown>, sceneSeconds = 4): ResolvedElement {
  const spec = assertSpec({
    kinoSpec: 1,
    aspect: { width: 540, height: 540 },
    scenes: [{ duration: sceneSeconds, elements: [element] }],
  });
  return resolveTimeline(spec).scenes[0]!.elements[0]!;
}

function animated(animate: Animation[], extra: Record<string, unknown> = {}) {
  const element = resolveOne({ type: 'rect', animate, ...extra });
  const video = { scale: SCALE, size: { width: 540, height: 540 } };
  return { element, at: (seconds: number) => animatedState(element, seconds, video) };
}

describe('entrances', () => {
  it('fadeIn: invisible before, halfway-ish in the middle, opaque after', () => {
    const { at, element } = animated([{ preset: 'fadeIn', delay: 1 }]);
    expect(element.animations[0]).toMatchObject({ startSeconds: 1, durationSeconds: 0.6, endSeconds: 1.6 });
    expect(at(0.5).opacity).toBe(0);
    expect(at(1).opacity).toBe(0);
    expect(at(1.3).opacity).toBeCloseTo(easingFunction(element.animations[0]!.easing)(0.5), 9);
    expect(at(1.3).opacity).toBeGreaterThan(0.3);
    expect(at(1.3).opacity).toBeLessThan(0.9);
    expect(at(1.6).opacity).toBe(1);
    expect(at(3.9).opacity).toBe(1);
  });

  it('slideIn "up" starts below by the scaled distance and ends in place, without fading', () => {
    const { at } = animated([{ preset: 'slideIn' }]);
    expect(at(0)).toMatchObject({ dx: 0, dy: 120 * SCALE, opacity: 1 });
    expect(at(0.3).dy).toBeGreaterThan(0);
    expect(at(0.3).dy).toBeLessThan(120 * SCALE);
    expect(at(0.6)).toMatchObject({ dx: 0, dy: 0 });
  });

  it('slideIn "left" moves leftward into place, so it starts to the right', () => {
    const { at } = animated([{ preset: 'slideIn', direction: 'left', distance: 200 }]);
    expect(at(0)).toMatchObject({ dx: 200 * SCALE, dy: 0 });
  });

  it('a percentage distance is of the frame along the motion', () => {
    const { at } = animated([{ preset: 'slideIn', direction: 'down', distance: '10%' }]);
    expect(at(0).dy).toBeCloseTo(-54, 9);
  });

  it('slideFadeIn slides and fades together', () => {
    const { at } = animated([{ preset: 'slideFadeIn', direction: 'right' }]);
    expect(at(0)).toMatchObject({ dx: -120 * SCALE, opacity: 0 });
    expect(at(0.6)).toMatchObject({ dx: 0, opacity: 1 });
  });

  it('pop grows from half size through an overshoot and fades in quickly', () => {
    const { at } = animated([{ preset: 'pop' }]);
    expect(at(0)).toMatchObject({ scale: 0.5, opacity: 0 });
    const scales = Array.from({ length: 50 }, (_, i) => at((i / 50) * 0.5).scale);
    expect(Math.max(...scales)).toBeGreaterThan(1.02);
    expect(at(0.25).opacity).toBe(1);
    expect(at(0.5)).toMatchObject({ scale: 1, opacity: 1 });
  });

  it('scaleIn starts at `amount` (default 0)', () => {
    expect(animated([{ preset: 'scaleIn' }]).at(0).scale).toBe(0);
    const { at } = animated([{ preset: 'scaleIn', amount: 0.2 }]);
    expect(at(0).scale).toBeCloseTo(0.2, 12);
    expect(at(0.6).scale).toBe(1);
  });

  it('blurIn clears a scaled 30px blur while fading in', () => {
    const { at } = animated([{ preset: 'blurIn' }]);
    expect(at(0)).toMatchObject({ blur: 30 * SCALE, opacity: 0 });
    expect(at(0.6)).toMatchObject({ blur: 0, opacity: 1 });
  });

  it('maskRevealIn hides it behind the edge it moves away from, overshoots with the easing, and keeps no mask at rest', () => {
    const { at } = animated([{ preset: 'maskRevealIn', duration: 1, easing: 'back' }]);
    expect(at(0).reveal).toEqual({ hidden: 1, toward: 'down' });
    const hidden = Array.from({ length: 99 }, (_, i) => at((i + 1) / 100).reveal?.hidden ?? 0);
    expect(Math.min(...hidden)).toBeLessThan(-0.05); // carried past its place, away from the edge
    expect(at(1).reveal).toBeUndefined();
    expect(animated([{ preset: 'maskRevealOut', direction: 'left' }]).at(4).reveal).toEqual({
      hidden: 1,
      toward: 'left',
    });
  });

  it('maskWipeIn reveals from the left edge by default', () => {
    const { at } = animated([{ preset: 'maskWipeIn' }]);
    expect(at(0).wipe).toEqual({ visible: 0, from: 'left' });
    expect(at(0.3).wipe!.visible).toBeCloseTo(0.5, 9);
    expect(at(0.6).wipe).toEqual({ visible: 1, from: 'left' });
  });

  it('wordByWord reveals word i starting i × stagger later and ends with the last word', () => {
    const element = resolveOne({
      type: 'text',
      text: 'one  two\nthree four',
      animate: [{ preset: 'wordByWord', stagger: 0.1, delay: 0.5 }],
    });
    const animation = element.animations[0]!;
    expect(animation).toMatchObject({ startSeconds: 0.5, durationSeconds: 0.45, staggerSeconds: 0.1 });
    expect(animation.endSeconds).toBeCloseTo(0.5 + 3 * 0.1 + 0.45, 9);
    const context = { scale: 1, size: { width: 540, height: 540 } };
    const mid = animatedState(element, 0.65, context);
    expect(mid.opacity).toBe(1);
    const progress = [0, 1, 2, 3].map((i) => mid.wordProgress!(i));
    expect(progress[0]).toBeGreaterThan(progress[1]!);
    expect(progress[1]).toBeGreaterThan(0);
    expect(progress[2]).toBe(0);
    expect(progress[3]).toBe(0);
    const done = animatedState(element, animation.endSeconds, context);
    expect([0, 1, 2, 3].map((i) => done.wordProgress!(i))).toEqual([1, 1, 1, 1]);
    expect(animatedState(element, 0.2, context).wordProgress!(0)).toBe(0);
  });

  it('wordByWord staggers 0.08s by default', () => {
    const element = resolveOne({ type: 'text', text: 'a b c', animate: [{ preset: 'wordByWord' }] });
    expect(element.animations[0]!.staggerSeconds).toBe(0.08);
    expect(element.animations[0]!.endSeconds).toBeCloseTo(0.16 + 0.45, 9);
  });
});

describe('exits', () => {
  it('fadeOut finishes exactly at the element end and stays gone', () => {
    const { at, element } = animated([{ preset: 'fadeOut' }], { duration: 3 });
    expect(element.endSeconds).toBe(3);
    expect(element.animations[0]!.startSeconds).toBeCloseTo(2.4, 9);
    expect(element.animations[0]!.endSeconds).toBeCloseTo(3, 9);
    expect(at(2).opacity).toBe(1);
    expect(at(2.7).opacity).toBeGreaterThan(0);
    expect(at(2.7).opacity).toBeLessThan(1);
    expect(at(2.999).opacity).toBeLessThan(0.01);
    expect(at(3.5).opacity).toBe(0);
  });

  it('slideOut "up" leaves upward; slideFadeOut also fades', () => {
    expect(animated([{ preset: 'slideOut' }]).at(4)).toMatchObject({ dy: -120 * SCALE, opacity: 1 });
    expect(animated([{ preset: 'slideFadeOut', direction: 'left' }]).at(4)).toMatchObject({
      dx: -120 * SCALE,
      opacity: 0,
    });
    expect(animated([{ preset: 'slideOut' }]).at(3.3).dy).toBe(0);
  });

  it('scaleOut shrinks to nothing, blurOut blurs away, maskWipeOut hides toward its edge', () => {
    expect(animated([{ preset: 'scaleOut' }]).at(4).scale).toBe(0);
    expect(animated([{ preset: 'blurOut' }]).at(4)).toMatchObject({ blur: 30 * SCALE, opacity: 0 });
    const wipe = animated([{ preset: 'maskWipeOut', direction: 'right' }]);
    expect(wipe.at(3.4).wipe).toEqual({ visible: 1, from: 'right' });
    expect(wipe.at(4).wipe).toEqual({ visible: 0, from: 'right' });
  });
});

describe('emphasis', () => {
  it('shake plays once from the element start, scaled, and ends exactly at rest', () => {
    const { at, element } = animated([{ preset: 'shake' }]);
    expect(element.animations[0]).toMatchObject({
      startSeconds: 0,
      durationSeconds: 0.6,
      repeat: 1,
      endSeconds: 0.6,
    });
    const offsets = Array.from({ length: 61 }, (_, i) => at(i / 100).dx);
    expect(Math.max(...offsets)).toBeLessThanOrEqual(16 * SCALE);
    expect(Math.max(...offsets)).toBeGreaterThan(10 * SCALE);
    expect(at(0.6)).toMatchObject({ dx: 0, dy: 0 });
    expect(at(3)).toMatchObject({ dx: 0, dy: 0 });
  });
});

describe('loops', () => {
  it('glow swells from nothing to `amount` scaled and back, and rock leans ±`amount` degrees', () => {
    const { at } = animated([
      { preset: 'glow', color: '#f00' },
      { preset: 'rock', amount: 10 },
    ]);
    expect(at(0)).toMatchObject({ glow: undefined, rotation: 0 });
    expect(at(0.5).rotation).toBeCloseTo(10, 9);
    expect(at(1).glow).toEqual({ radius: 24 * SCALE, color: '#f00' });
    expect(at(1.5).rotation).toBeCloseTo(-10, 9);
    expect(at(2).glow).toBeUndefined();
  });

  it('spin turns `amount` degrees per repetition, forever by default', () => {
    const { at, element } = animated([{ preset: 'spin', duration: 2 }]);
    expect(element.animations[0]).toMatchObject({ repeat: Infinity, endSeconds: Infinity });
    expect(at(0).rotation).toBe(0);
    expect(at(1).rotation).toBeCloseTo(180, 9);
    expect(at(2.5).rotation).toBeCloseTo(450, 9);
  });

  it('a finite spin holds its final turn', () => {
    const { at } = animated([{ preset: 'spin', duration: 1, amount: 90, repeat: 2 }]);
    expect(at(1.5).rotation).toBeCloseTo(135, 9);
    expect(at(3).rotation).toBe(180);
  });

  it('float bobs up and down by the scaled distance, periodically', () => {
    const { at } = animated([{ preset: 'float' }]);
    expect(at(0).dy).toBeCloseTo(0, 9);
    expect(at(0.75).dy).toBeCloseTo(-18 * SCALE, 9);
    expect(at(2.25).dy).toBeCloseTo(18 * SCALE, 9);
    for (const t of [0.2, 0.9, 1.7]) expect(at(t + 3).dy).toBeCloseTo(at(t).dy, 9);
    const range = Array.from({ length: 300 }, (_, i) => at(i / 100).dy);
    expect(Math.max(...range)).toBeLessThanOrEqual(18 * SCALE + 1e-9);
    expect(Math.min(...range)).toBeGreaterThanOrEqual(-18 * SCALE - 1e-9);
  });

  it('pulse breathes the scale by ±amount', () => {
    const { at } = animated([{ preset: 'pulse' }]);
    expect(at(0).scale).toBeCloseTo(1, 9);
    expect(at(0.3).scale).toBeCloseTo(1.05, 9);
    expect(at(0.9).scale).toBeCloseTo(0.95, 9);
    expect(at(1.5).scale).toBeCloseTo(at(0.3).scale, 9);
  });

  it('a loop that starts later leaves the element at rest until then', () => {
    const { at } = animated([{ preset: 'float', delay: 1 }]);
    expect(at(0.5).dy).toBe(0);
    expect(at(1.75).dy).toBeCloseTo(-18 * SCALE, 9);
  });
});

describe('lifetime presets', () => {
  it('drift moves linearly across its distance over the element lifetime, centred on its place', () => {
    const { at, element } = animated([{ preset: 'drift' }], { start: 1, duration: 2 });
    expect(element.animations[0]).toMatchObject({ startSeconds: 1, durationSeconds: 2, endSeconds: 3 });
    expect(at(1).dx).toBeCloseTo(-30 * SCALE, 9);
    expect(at(2).dx).toBeCloseTo(0, 9);
    expect(at(2.5).dx).toBeCloseTo(15 * SCALE, 9);
    expect(at(3).dx).toBeCloseTo(30 * SCALE, 9);
  });

  it('kenBurns on a shape zooms the whole element', () => {
    const { at } = animated([{ preset: 'kenBurns' }]);
    expect(at(0).scale).toBe(1);
    expect(at(2).scale).toBeCloseTo(1.075, 9);
    expect(at(4).kenBurns).toEqual({ progress: 1, amount: 0.15, direction: 'right' });
    expect(at(4).scale).toBeCloseTo(1.15, 9);
  });

  it('kenBurns on an image leaves the box alone and tells the drawer', () => {
    const element = resolveOne({
      type: 'image',
      src: 'asset:photo.jpg',
      animate: [{ preset: 'kenBurns', amount: 0.3, direction: 'up' }],
    });
    const state = animatedState(element, 2, { scale: 1, size: { width: 540, height: 540 } });
    expect(state.scale).toBe(1);
    expect(state.kenBurns).toEqual({ progress: 0.5, amount: 0.3, direction: 'up' });
  });
});

describe('combining animations', () => {
  it('opacity and scale multiply, offsets add, the smaller wipe wins', () => {
    const { at } = animated([
      { preset: 'fadeIn', easing: 'linear', duration: 1 },
      { preset: 'fadeIn', easing: 'linear', duration: 2 },
      { preset: 'slideIn', direction: 'up', easing: 'linear', duration: 1 },
      { preset: 'drift', direction: 'down', easing: 'linear' },
      { preset: 'scaleIn', amount: 0.5, easing: 'linear', duration: 1 },
      { preset: 'pulse', duration: 2 },
      { preset: 'maskWipeIn', easing: 'linear', duration: 1 },
      { preset: 'maskWipeIn', easing: 'linear', duration: 2, direction: 'up' },
    ]);
    const state = at(0.5);
    expect(state.opacity).toBeCloseTo(0.5 * 0.25, 9);
    expect(state.dy).toBeCloseTo(120 * SCALE * 0.5 + 60 * SCALE * (0.5 / 4 - 0.5), 9);
    expect(state.scale).toBeCloseTo(0.75 * 1.05, 9);
    expect(state.wipe).toEqual({ visible: 0.25, from: 'up' });
  });

  it('with no animations the element rests', () => {
    const { at } = animated([]);
    expect(at(1)).toMatchObject({
      opacity: 1,
      dx: 0,
      dy: 0,
      scale: 1,
      rotation: 0,
      blur: 0,
      wipe: undefined,
    });
  });
});
