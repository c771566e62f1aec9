import { describe, expect, it } from 'vitest';
import { fadeGainAt, placeAudio } from './audio-placement.ts';
import type { AudioTiming } from './audio-placement.ts';

const timing = (overrides: Partial<AudioTiming> = {}): AudioTiming => ({
  startSeconds: 0,
  sourceStartSeconds: 0,
  loop: false,
  volume: 1,
  fadeInSeconds: 0,
  fadeOutSeconds: 0,
  rate: 1,
  ...overrides,
});

describe('placeAudio', () => {
  it('plays a source to its end, cut at the video end', () => {
    expect(placeAudio(timing({ startSeconds: 1, sourceDurationSeconds: 2 }), 10)).toMatchObject({
      start: 1,
      sourceStart: 0,
      played: 2,
    });
    expect(placeAudio(timing({ startSeconds: 9, sourceDurationSeconds: 2 }), 10)?.played).toBe(1);
  });

  it('starts a sound that began before the video part-way into its source, at its rate', () => {
    const placed = placeAudio(
      timing({ startSeconds: -1, sourceStartSeconds: 0.5, rate: 2, durationSeconds: 4 }),
      10,
    );
    expect(placed).toMatchObject({ start: 0, sourceStart: 2.5, played: 3 });
  });

  it('leaves out what never sounds: after the video, silent, or already over', () => {
    expect(placeAudio(timing({ startSeconds: 10 }), 10)).toBeUndefined();
    expect(placeAudio(timing({ volume: 0 }), 10)).toBeUndefined();
    expect(placeAudio(timing({ startSeconds: -3, durationSeconds: 2 }), 10)).toBeUndefined();
  });

  it('ends the fade-out where the sound ends, or at the video end when only the source knows', () => {
    expect(placeAudio(timing({ durationSeconds: 3, fadeOutSeconds: 1 }), 10)?.fadeOut).toEqual({
      from: 2,
      to: 3,
    });
    expect(placeAudio(timing({ startSeconds: 4, fadeOutSeconds: 1 }), 10)?.fadeOut).toEqual({
      from: 5,
      to: 6,
    });
    // A fade longer than the sound fades over all of it.
    expect(placeAudio(timing({ durationSeconds: 0.5, fadeOutSeconds: 2 }), 10)?.fadeOut).toEqual({
      from: 0,
      to: 0.5,
    });
  });
});

describe('fadeGainAt', () => {
  it('multiplies a linear fade-in and fade-out, as two chained afades do', () => {
    const placed = placeAudio(timing({ durationSeconds: 4, fadeInSeconds: 2, fadeOutSeconds: 2 }), 10)!;
    expect(fadeGainAt(placed, 0)).toBe(0);
    expect(fadeGainAt(placed, 1)).toBe(0.5);
    expect(fadeGainAt(placed, 2)).toBe(1);
    expect(fadeGainAt(placed, 3)).toBe(0.5);
    expect(fadeGainAt(placed, 4)).toBe(0);
    const overlapping = placeAudio(timing({ durationSeconds: 2, fadeInSeconds: 2, fadeOutSeconds: 2 }), 10)!;
    expect(fadeGainAt(overlapping, 1)).toBe(0.25);
  });
});
