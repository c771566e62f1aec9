import { describe, expect, it } from 'vitest';
import { parseColor } from '../spec/color.ts';
import type { Keyframe } from '../spec/primitives.ts';
import { assertSpec } from '../spec/validate.ts';
import { resolveTimeline } from './resolve.ts';
import { easingFunction } from '../animation/easing.ts';
import { animatedState } from './evaluate.ts';
import { keyframeValue } from '../animation/keyframes.ts';

describe('keyframeValue', () => {
  const track: Keyframe[] = [
    { at: 1, value: 100 },
    { at: 2, value: 300, easing: 'linear' },
    { at: 4, value: 200 },
  ];

  it('holds the first value before and the last after', () => {
    expect(keyframeValue(track, 0, 30)).toBe(100);
    expect(keyframeValue(track, 1, 30)).toBe(100);
    expect(keyframeValue(track, 4, 30)).toBe(200);
    expect(keyframeValue(track, 10, 30)).toBe(200);
  });

  it("eases each segment with the later keyframe's easing, smooth by default", () => {
    expect(keyframeValue(track, 1.25, 30)).toBeCloseTo(150, 9);
    expect(keyframeValue(track, 2.5, 30)).toBeCloseTo(300 - 100 * easingFunction('smooth')(0.25), 9);
    expect(keyframeValue(track, 3, 30)).toBeCloseTo(250, 9);
  });

  it('reads times in frames at the given fps', () => {
    const frames: Keyframe[] = [
      { at: '0f', value: 0 },
      { at: '60f', value: 1, easing: 'linear' },
    ];
    expect(keyframeValue(frames, 0.5, 60)).toBeCloseTo(0.5, 9);
    expect(keyframeValue(frames, 0.5, 30)).toBeCloseTo(0.25, 9);
  });

  it('blends colors through their channels', () => {
    const colors: Keyframe[] = [
      { at: 0, value: '#ff0000' },
      { at: 1, value: 'rgba(0, 0, 255, 0.5)', easing: 'linear' },
    ];
    const mid = parseColor(keyframeValue(colors, 0.5, 30) as string)!;
    expect(mid.r).toBe(128);
    expect(mid.g).toBe(0);
    expect(mid.b).toBe(128);
    expect(mid.a).toBeCloseTo(0.75, 3);
    expect(keyframeValue(colors, 2, 30)).toBe('rgba(0, 0, 255, 0.5)');
  });

  it('two keyframes at the same time make a jump', () => {
    const jump: Keyframe[] = [
      { at: 0, value: 0 },
      { at: 1, value: 1, easing: 'linear' },
      { at: 1, value: 5 },
      { at: 2, value: 6, easing: 'linear' },
    ];
    expect(keyframeValue(jump, 0.999, 30)).toBeCloseTo(0.999, 9);
    expect(keyframeValue(jump, 1, 30)).toBe(5);
    expect(keyframeValue(jump, 1.5, 30)).toBeCloseTo(5.5, 9);
  });

  it('a number next to a color holds until the next keyframe', () => {
    const mixed: Keyframe[] = [
      { at: 0, value: 1 },
      { at: 1, value: 'white' },
    ];
    expect(keyframeValue(mixed, 0.9, 30)).toBe(1);
    expect(keyframeValue(mixed, 1, 30)).toBe('white');
  });
});

describe('keyframes in the animated state', () => {
  it('land in state.props, timed from the element start', () => {
    const spec = assertSpec({
      kinoSpec: 1,
      fps: 60,
      scenes: [
        {
          duration: 5,
          elements: [
            {
              type: 'rect',
              start: 1,
              keyframes: {
                x: [
                  { at: 0, value: 0.2 },
                  { at: '120f', value: 0.8, easing: 'linear' },
                ],
                fill: [
                  { at: 0, value: '#000000' },
                  { at: 2, value: '#ffffff', easing: 'linear' },
                ],
                opacity: [{ at: 0, value: 0.4 }],
              },
              animate: [{ preset: 'fadeIn', duration: 1, easing: 'linear' }],
            },
          ],
        },
      ],
    });
    const video = resolveTimeline(spec);
    const element = video.scenes[0]!.elements[0]!;
    const state = animatedState(element, 2, { scale: video.scale, size: video.size, fps: video.fps });
    expect(state.props.x).toBeCloseTo(0.5, 9);
    expect(state.props.fill).toBe('rgba(128, 128, 128, 1)');
    expect(state.props.opacity).toBe(0.4);
    // Keyframes override properties; the preset still drives the animated multiplier.
    expect(state.opacity).toBe(1);
  });
});
