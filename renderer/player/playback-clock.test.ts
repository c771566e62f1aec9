import { describe, expect, it } from 'vitest';
import { PlaybackClock, formatTime } from './playback-clock.ts';

describe('PlaybackClock', () => {
  it('advances with the real clock at the composition fps and loops at the end', () => {
    const clock = new PlaybackClock(30, 60);
    clock.play(1000);
    expect(clock.tick(1000)).toBe(0);
    expect(clock.tick(1500)).toBe(15);
    // A slow animation frame skips ahead instead of slowing the video down.
    expect(clock.tick(2900)).toBe(57);
    expect(clock.tick(3000)).toBe(0);
    expect(clock.tick(3100)).toBe(3);
  });

  it('holds still while paused and carries on from there', () => {
    const clock = new PlaybackClock(30, 100);
    clock.play(0);
    clock.pause(1000);
    expect(clock.frame).toBe(30);
    expect(clock.tick(5000)).toBe(30);
    clock.play(5000);
    expect(clock.tick(5100)).toBe(33);
  });

  it('seeks within the timeline, playing or not', () => {
    const clock = new PlaybackClock(25, 50);
    clock.seek(80, 0);
    expect(clock.frame).toBe(49);
    clock.seek(-3, 0);
    expect(clock.frame).toBe(0);
    clock.play(0);
    clock.seek(10, 400);
    expect(clock.tick(600)).toBe(15);
  });

  it('keeps the frame across a rebuild, clamped to the new length', () => {
    const clock = new PlaybackClock(30, 300);
    clock.seek(120, 0);
    clock.retime(30, 200, 0);
    expect(clock.frame).toBe(120);
    clock.retime(60, 90, 0);
    expect(clock.frame).toBe(89);
    expect(clock.fps).toBe(60);
  });

  it('plays at a rate: twice as fast, a quarter as fast, backwards', () => {
    const clock = new PlaybackClock(30, 300);
    clock.configure({ rate: 2, range: undefined, loop: true }, 0);
    clock.play(0);
    expect(clock.tick(500)).toBe(30);
    clock.configure({ rate: 0.25, range: undefined, loop: true }, 500);
    expect(clock.tick(1500)).toBe(37);
    clock.configure({ rate: -1, range: undefined, loop: true }, 1500);
    expect(clock.tick(2000)).toBe(22);
    // Backwards past the start wraps to the end.
    expect(clock.tick(2800)).toBe(298);
  });

  it('loops inside a range, and starts there from outside it', () => {
    const clock = new PlaybackClock(30, 300);
    clock.seek(10, 0);
    clock.configure({ rate: 1, range: { start: 60, end: 90 }, loop: true }, 0);
    clock.play(0);
    expect(clock.frame).toBe(60);
    expect(clock.tick(900)).toBe(87);
    expect(clock.tick(1000)).toBe(60);
    expect(clock.tick(1100)).toBe(63);
    // A seek out of the range while playing goes on inside it.
    clock.seek(200, 1100);
    expect(clock.tick(1200)).toBe(60);
    expect(clock.playing).toBe(true);
  });

  it('stops at the end of the range when not looping, and plays it again from its start', () => {
    const clock = new PlaybackClock(30, 300);
    clock.configure({ rate: 1, range: { start: 0, end: 30 }, loop: false }, 0);
    clock.play(0);
    expect(clock.tick(2000)).toBe(29);
    expect(clock.playing).toBe(false);
    clock.play(2000);
    expect(clock.frame).toBe(0);
    clock.configure({ rate: -2, range: undefined, loop: false }, 2000);
    clock.seek(20, 2000);
    expect(clock.tick(3000)).toBe(0);
    expect(clock.playing).toBe(false);
  });

  it('clamps a range to the video and never plays at rate 0', () => {
    const clock = new PlaybackClock(30, 100);
    clock.configure({ rate: 0, range: { start: 90, end: 400 }, loop: true }, 0);
    expect(clock.range).toEqual({ start: 90, end: 100 });
    expect(clock.rate).toBe(1);
    clock.configure({ rate: 1, range: { start: 50, end: 50 }, loop: true }, 0);
    expect(clock.range).toEqual({ start: 50, end: 51 });
  });

  it('formats the time of a frame', () => {
    expect(formatTime(45, 300, 30)).toBe('1.50s / 10.00s');
  });
});
