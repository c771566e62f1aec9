import { describe, expect, it } from 'vitest';
import type { ModelElement } from '../../shared/spec/model.ts';
import type { ResolvedElement } from '../../shared/timeline/types.ts';
import { isAnimatingAt } from './element-timing.ts';

function resolved(element: ModelElement, startSeconds: number, endSeconds: number): ResolvedElement {
  return { key: 's0/e0', element, startSeconds, endSeconds, animations: [], children: [] };
}

describe('isAnimatingAt', () => {
  it('counts a callout as moving through its built-in entrance and exit (0.8 s and 0.4 s)', () => {
    const callout = resolved({ type: 'callout', text: 'Here', target: { x: 0.5, y: 0.5 } }, 1, 4);
    expect(isAnimatingAt(callout, 1.5, 30)).toBe(true);
    expect(isAnimatingAt(callout, 1.85, 30)).toBe(false);
    expect(isAnimatingAt(callout, 3.5, 30)).toBe(false);
    expect(isAnimatingAt(callout, 3.7, 30)).toBe(true);
  });

  it('reads the element’s own durations, and none when they are 0', () => {
    const quick = resolved({ type: 'lowerThird', name: 'Ada', enterDuration: '0.2s', exitDuration: 0 }, 0, 3);
    expect(isAnimatingAt(quick, 0.1, 30)).toBe(true);
    expect(isAnimatingAt(quick, 0.3, 30)).toBe(false);
    expect(isAnimatingAt(quick, 2.95, 30)).toBe(false);
  });

  it('shrinks the built-in spans in proportion when the element is shorter than both', () => {
    // A 0.6 s spotlight: its 0.8 s + 0.5 s build is scaled to 0.37 s + 0.23 s, so it never rests.
    const brief = resolved({ type: 'spotlight' }, 0, 0.6);
    expect(isAnimatingAt(brief, 0.3, 30)).toBe(true);
    expect(isAnimatingAt(brief, 0.4, 30)).toBe(true);
  });

  it('counts a shake (an emphasis) only while it plays, and a loop never', () => {
    const shaken = resolved({ type: 'rect' }, 0, 4);
    const play = { startSeconds: 1, durationSeconds: 0.6, repeat: 1, endSeconds: 1.6, staggerSeconds: 0 };
    shaken.animations = [
      { animation: { preset: 'shake' }, easing: 'linear', ...play },
      { animation: { preset: 'rock' }, easing: 'gentle', ...play, startSeconds: 0, endSeconds: Infinity },
    ];
    expect(isAnimatingAt(shaken, 0.9, 30)).toBe(false);
    expect(isAnimatingAt(shaken, 1.3, 30)).toBe(true);
    expect(isAnimatingAt(shaken, 1.6, 30)).toBe(false);
  });

  it('leaves a plain rect at rest', () => {
    expect(isAnimatingAt(resolved({ type: 'rect' }, 0, 2), 0.1, 30)).toBe(false);
  });
});
