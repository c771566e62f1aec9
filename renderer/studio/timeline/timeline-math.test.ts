import { describe, expect, it } from 'vitest';
import {
  clampZoom,
  formatRate,
  frameAtX,
  markIn,
  markOut,
  maxZoom,
  pixelsPerFrame,
  playbackOf,
  scrollKeeping,
  shuttleRate,
} from './timeline-math.ts';

describe('timeline zoom', () => {
  it('fits the video at zoom 1 and shows 1/n of it at zoom n', () => {
    expect(pixelsPerFrame(600, 300, 1)).toBe(2);
    expect(pixelsPerFrame(600, 300, 4)).toBe(8);
  });

  it('zooms no further than 24 px a frame, nor out past fitting', () => {
    expect(maxZoom(600, 300)).toBe(12);
    expect(clampZoom(50, 600, 300)).toBe(12);
    expect(clampZoom(0.2, 600, 300)).toBe(1);
    // A video shorter than the view is already past 24 px a frame: zoom stays 1.
    expect(maxZoom(600, 10)).toBe(1);
  });

  it('maps pixels to frames, clamped to the video', () => {
    expect(frameAtX(0, 2, 300)).toBe(0);
    expect(frameAtX(41, 2, 300)).toBe(20);
    expect(frameAtX(-5, 2, 300)).toBe(0);
    expect(frameAtX(10_000, 2, 300)).toBe(299);
  });

  it('keeps the frame under the pointer in place across a zoom', () => {
    // Frame 100 under the pointer 150 px from the view's left, at 8 px a frame after the zoom.
    const scroll = scrollKeeping(100, 150, 8);
    expect(scroll).toBe(650);
    expect(frameAtX(scroll + 150, 8, 300)).toBe(100);
    expect(scrollKeeping(5, 150, 8)).toBe(0);
  });
});

describe('in and out points', () => {
  it('sets each, dropping the other when it would end before it starts', () => {
    let marks = markIn({ inPoint: undefined, outPoint: undefined }, 30);
    marks = markOut(marks, 60);
    expect(marks).toEqual({ inPoint: 30, outPoint: 60 });
    expect(markIn(marks, 70)).toEqual({ inPoint: 70, outPoint: undefined });
    expect(markOut(marks, 10)).toEqual({ inPoint: undefined, outPoint: 10 });
    expect(markIn(marks, 60)).toEqual({ inPoint: 60, outPoint: 60 });
  });

  it('turns marks into the range playback loops in (out is inclusive), or none', () => {
    expect(playbackOf({ inPoint: 30, outPoint: 60 }, true, 2, 300)).toEqual({
      rate: 2,
      range: { start: 30, end: 61 },
      loop: true,
    });
    expect(playbackOf({ inPoint: 30, outPoint: undefined }, false, 1, 300).range).toEqual({
      start: 30,
      end: 300,
    });
    expect(playbackOf({ inPoint: undefined, outPoint: 9 }, true, 1, 300).range).toEqual({
      start: 0,
      end: 10,
    });
    expect(playbackOf({ inPoint: undefined, outPoint: undefined }, true, 1, 300).range).toBeUndefined();
  });
});

describe('J/K/L shuttle', () => {
  it('starts at 1× forward (L) or back (J) from a pause', () => {
    expect(shuttleRate(2, false, 'forward')).toBe(1);
    expect(shuttleRate(1, false, 'back')).toBe(-1);
  });

  it('L speeds up forward, J slows it down and then plays back, and the other way round', () => {
    expect(shuttleRate(1, true, 'forward')).toBe(2);
    expect(shuttleRate(2, true, 'forward')).toBe(4);
    expect(shuttleRate(8, true, 'forward')).toBe(8);
    expect(shuttleRate(4, true, 'back')).toBe(2);
    expect(shuttleRate(1, true, 'back')).toBe(-1);
    expect(shuttleRate(-1, true, 'back')).toBe(-2);
    expect(shuttleRate(-8, true, 'back')).toBe(-8);
    expect(shuttleRate(-2, true, 'forward')).toBe(-1);
    expect(shuttleRate(-1, true, 'forward')).toBe(1);
    // From a chosen speed off the ladder, the next step each way.
    expect(shuttleRate(0.5, true, 'forward')).toBe(1);
    expect(shuttleRate(0.5, true, 'back')).toBe(-1);
  });

  it('writes rates for people', () => {
    expect(formatRate(2)).toBe('2×');
    expect(formatRate(0.25)).toBe('0.25×');
    expect(formatRate(-4)).toBe('◀ 4×');
  });
});
