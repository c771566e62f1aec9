import { describe, expect, it } from 'vitest';
import { restingState } from '../../animation/state.ts';
import type { ArrowElement, SpotlightElement } from '../../spec/annotation-elements.ts';
import type { ProgressBarElement } from '../../spec/title-elements.ts';
import { arrowReveal } from './arrow-draw.ts';
import { buildPhase } from '../build-phase.ts';
import type { ElementTime } from '../definition.ts';
import { progressFill } from '../progress-bar-draw.ts';
import { spotlightAt } from './spotlight-draw.ts';

const FPS = 30;

function at(elementSeconds: number, elementDuration = 4, extra: Partial<ElementTime> = {}): ElementTime {
  return {
    frame: Math.round(elementSeconds * FPS),
    sceneSeconds: elementSeconds,
    elementSeconds,
    elementDuration,
    ...extra,
  };
}

describe('buildPhase', () => {
  const defaults = { enter: 1, exit: 0.5 };

  it('enters from the start and exits to be gone on the last frame', () => {
    expect(buildPhase({}, at(0), FPS, defaults)).toEqual({ enter: 0, exit: 0 });
    expect(buildPhase({}, at(0.5), FPS, defaults).enter).toBeCloseTo(0.5, 9);
    expect(buildPhase({}, at(2), FPS, defaults)).toEqual({ enter: 1, exit: 0 });
    const lastFrame = buildPhase({}, at(4 - 1 / FPS), FPS, defaults);
    expect(lastFrame.exit).toBeCloseTo(1, 9);
  });

  it('takes durations from the element and shrinks both to fit a short life', () => {
    expect(buildPhase({ enterDuration: '15f' }, at(0.25), FPS, defaults).enter).toBeCloseTo(0.5, 9);
    expect(buildPhase({ enterDuration: 0 }, at(0), FPS, defaults).enter).toBe(1);
    // 1s + 0.5s in a 0.75s life: halved, so the entrance ends at 0.5s.
    expect(buildPhase({}, at(0.5, 0.75), FPS, defaults).enter).toBeCloseTo(1, 9);
  });
});

describe('arrow draw-on', () => {
  const arrow: ArrowElement = { type: 'arrow', from: { x: 0, y: 0 }, to: { x: 1, y: 1 } };
  const reveal = (seconds: number, props = {}) =>
    arrowReveal(arrow, { state: { ...restingState(), props }, time: at(seconds) }, FPS);

  it('draws the line first, then pops the head, and is whole when the entrance ends', () => {
    const early = reveal(0.2);
    expect(early.to).toBeGreaterThan(0);
    expect(early.to).toBeLessThan(0.6);
    expect(early.endHead).toBe(0);
    expect(reveal(0.7)).toEqual({ from: 0, to: 1, startHead: 1, endHead: 1 });
  });

  it('retracts into its tip on the way out', () => {
    const leaving = reveal(3.8);
    expect(leaving.from).toBeGreaterThan(0);
    expect(leaving.to).toBe(1);
    expect(reveal(4 - 1 / FPS).from).toBeCloseTo(1, 9);
  });

  it('follows a keyframed progress instead', () => {
    expect(reveal(0.1, { progress: 0.5 })).toMatchObject({ from: 0, to: 0.5, endHead: 0 });
    expect(reveal(0.1, { progress: 1 }).endHead).toBe(1);
  });
});

describe('spotlight entrance', () => {
  const spotlight: SpotlightElement = { type: 'spotlight', dim: 0.8 };
  const hole = { x: 100, y: 100, width: 200, height: 100 };

  it('closes in from wide while the dim fades in, and rests on the hole', () => {
    const start = spotlightAt(spotlight, hole, { time: at(0) }, FPS);
    expect(start.dim).toBe(0);
    expect(start.hole.width).toBeCloseTo(440, 9);
    expect(start.hole.x + start.hole.width / 2).toBeCloseTo(200, 9);
    expect(spotlightAt(spotlight, hole, { time: at(0.8) }, FPS)).toEqual({ hole, dim: 0.8 });
    expect(spotlightAt(spotlight, hole, { time: at(4 - 1 / FPS) }, FPS).dim).toBeCloseTo(0, 9);
  });
});

describe('progress bar fill', () => {
  const bar = (fields: Partial<ProgressBarElement> = {}): ProgressBarElement => ({
    type: 'progressBar',
    ...fields,
  });

  it('fills with the video by default: empty on the first frame, full on the last', () => {
    const video = (frame: number) => at(frame / FPS, 4, { videoSeconds: frame / FPS, videoDuration: 10 });
    expect(progressFill(bar(), undefined, video(0), FPS)).toBe(0);
    expect(progressFill(bar(), undefined, video(149.5), FPS)).toBeCloseTo(0.5, 9);
    expect(progressFill(bar(), undefined, video(299), FPS)).toBe(1);
  });

  it('fills with the scene, the element, a value or a keyframed progress', () => {
    const time = at(1, 4, { sceneSeconds: 3, sceneDuration: 6 + 1 / FPS });
    expect(progressFill(bar({ of: 'scene' }), undefined, time, FPS)).toBeCloseTo(0.5, 9);
    expect(progressFill(bar({ of: 'element' }), undefined, at(2, 4 + 1 / FPS), FPS)).toBeCloseTo(0.5, 9);
    expect(progressFill(bar({ value: 0.3 }), undefined, time, FPS)).toBe(0.3);
    expect(progressFill(bar({ value: 0.3 }), 0.75, time, FPS)).toBe(0.75);
  });
});
