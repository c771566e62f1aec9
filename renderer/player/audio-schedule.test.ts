import { describe, expect, it } from 'vitest';
import type { ResolvedAudio } from '../../shared/timeline/types.ts';
import { soundSources, voicesFrom } from './audio-schedule.ts';

function sound(src: string, overrides: Partial<ResolvedAudio> = {}): ResolvedAudio {
  return {
    track: { src },
    startSeconds: 0,
    sourceStartSeconds: 0,
    durationSeconds: undefined,
    loop: false,
    volume: 1,
    fadeInSeconds: 0,
    fadeOutSeconds: 0,
    origin: 'sfx',
    rate: 1,
    ...overrides,
  };
}

/** A 6 s video: music looping an 8 s file with fades, a 0.6 s whoosh at 2 s, a clip at 1.5× rate. */
const audio: ResolvedAudio[] = [
  sound('music.m4a', {
    origin: 'music',
    loop: true,
    durationSeconds: 6,
    volume: 0.5,
    fadeInSeconds: 1,
    fadeOutSeconds: 2,
  }),
  sound('whoosh.wav', { startSeconds: 2, volume: 0.8 }),
  sound('clip.mp4', {
    origin: 'clip',
    startSeconds: 1,
    sourceStartSeconds: 2,
    durationSeconds: 2,
    rate: 1.5,
  }),
];
const lengths = new Map([
  ['music.m4a', 4],
  ['whoosh.wav', 0.6],
  ['clip.mp4', 10],
]);
const sources = soundSources(audio, 6, lengths);

describe('voicesFrom', () => {
  it('from the start: every sound, delayed to its start, with the fade ramps from 0', () => {
    const voices = voicesFrom(sources, 0);
    expect(voices.map((v) => [v.src, v.delay, v.offset, v.length])).toEqual([
      ['music.m4a', 0, 0, 6],
      ['whoosh.wav', 2, 0, 0.6],
      ['clip.mp4', 1, 2, 2],
    ]);
    const music = voices[0]!;
    expect(music.volume).toBe(0.5);
    expect(music.loop).toEqual({ start: 0, end: 4 });
    expect(music.fadeIn).toEqual([
      { at: 0, gain: 0 },
      { at: 1, gain: 1 },
    ]);
    expect(music.fadeOut).toEqual([
      { at: 4, gain: 1 },
      { at: 6, gain: 0 },
    ]);
    expect(voices[2]!.rate).toBe(1.5);
  });

  it('from the middle: what still sounds, part-way into its source and fades', () => {
    const voices = voicesFrom(sources, 5);
    expect(voices.map((v) => v.src)).toEqual(['music.m4a']);
    const music = voices[0]!;
    // 5 s into a 4 s loop: 1 s into the source; halfway through the fade-out.
    expect(music).toMatchObject({ delay: 0, offset: 1, length: 1, fadeIn: [] });
    expect(music.fadeOut).toEqual([
      { at: 0, gain: 0.5 },
      { at: 1, gain: 0 },
    ]);
  });

  it('inside the fade-in and a rate-changed clip: gain and source offset as of that moment', () => {
    const voices = voicesFrom(sources, 1.5);
    expect(voices[0]!.fadeIn).toEqual([]);
    const [music, whoosh, clip] = voicesFrom(sources, 0.25);
    expect(music!.fadeIn).toEqual([
      { at: 0, gain: 0.25 },
      { at: 0.75, gain: 1 },
    ]);
    expect(whoosh!.delay).toBe(1.75);
    const late = voicesFrom(sources, 2).find((v) => v.src === 'clip.mp4')!;
    // 1 s into the clip at 1.5×: 1.5 s past its trim start.
    expect(late).toMatchObject({ delay: 0, offset: 3.5, length: 1 });
    expect(clip!.delay).toBe(0.75);
  });

  it('leaves out sounds that are over, and sources that did not decode', () => {
    expect(voicesFrom(sources, 2.7).map((v) => v.src)).toEqual(['music.m4a', 'clip.mp4']);
    expect(voicesFrom(sources, 6)).toEqual([]);
    const withoutClip = soundSources(audio, 6, new Map([['music.m4a', 4]]));
    expect(withoutClip.map((s) => s.src)).toEqual(['music.m4a']);
  });
});
