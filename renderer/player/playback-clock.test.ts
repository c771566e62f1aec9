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

  it('plays at its rate from the frame due when the rate changes', () => {
    const clock = new PlaybackClock(30, 300);
    clock.play(0);
    expect(clock.tick(1000)).toBe(30);
    clock.setRate(2, 1000);
    expect(clock.rate).toBe(2);
    expect(clock.tick(1500)).toBe(60);
    clock.setRate(0.5, 1500);
    expect(clock.tick(2500)).toBe(75);
    expect(() => clock.setRate(0, 0)).toThrow(/positive/);
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

  it('formats the time of a frame', () => {
    expect(formatTime(45, 300, 30)).toBe('1.50s / 10.00s');
  });
});
