import { describe, expect, it } from 'vitest';
import { easingFunction } from '../animation/easing.ts';
import type { VideoModel } from '../spec/model.ts';
import { assertSpec } from '../spec/validate.ts';
import { frameComposition, resolveTimeline } from './resolve.ts';
import type { ResolvedElement } from './types.ts';

const spec = (input: Record<string, unknown>): VideoModel => assertSpec({ kinoSpec: 1, ...input });

const rect = (extra: Record<string, unknown> = {}) => ({ type: 'rect', ...extra });

describe('scenes on the timeline', () => {
  const video = resolveTimeline(
    spec({
      scenes: [
        { duration: 2, transition: { type: 'crossFade' } },
        { id: 'middle', duration: 3, transition: { type: 'crossFade', duration: 0.5 } },
        { duration: 2, transition: { type: 'cut' } },
        { duration: '45f', transition: { type: 'wipe' }, background: '#123456' },
      ],
    }),
  );

  it('overlaps a scene with the one before by its transition; cuts butt up', () => {
    expect(video.scenes.map((s) => [s.startSeconds, s.startFrame, s.endFrame])).toEqual([
      [0, 0, 60],
      [1.5, 45, 135],
      [4.5, 135, 195],
      [5.9, 177, 222],
    ]);
    expect(video.durationFrames).toBe(222);
    expect(video.durationSeconds).toBeCloseTo(7.4, 9);
  });

  it('ignores the first scene’s transition and describes the others', () => {
    expect(video.scenes[0]!.transitionIn).toBeUndefined();
    expect(video.scenes[1]!.transitionIn).toEqual({
      type: 'crossFade',
      durationSeconds: 0.5,
      frames: 15,
      easing: 'smooth',
      direction: 'left',
    });
    expect(video.scenes[2]!.transitionIn).toBeUndefined();
    expect(video.scenes[3]!.transitionIn).toMatchObject({ type: 'wipe', durationSeconds: 0.6, frames: 18 });
  });

  it('names scenes and fills in defaults', () => {
    expect(video.scenes.map((s) => s.id)).toEqual(['scene-1', 'middle', 'scene-3', 'scene-4']);
    expect(video.scenes[0]!.background).toBe('#0b0d12');
    expect(video.scenes[3]!.background).toBe('#123456');
    expect(video).toMatchObject({ fps: 30, size: { width: 1080, height: 1920 }, scale: 1 });
  });

  it('clamps a transition to half of the shorter scene', () => {
    const clamped = resolveTimeline(
      spec({
        scenes: [
          { duration: 2 },
          { duration: 4, transition: { type: 'slide', duration: 3, direction: 'up' } },
        ],
      }),
    );
    expect(clamped.scenes[1]!.transitionIn).toMatchObject({
      durationSeconds: 1,
      frames: 30,
      direction: 'up',
    });
    expect(clamped.scenes[1]!.startSeconds).toBe(1);
    expect(clamped.durationFrames).toBe(150);
  });

  it('takes fps and aspect from the options first, then the spec', () => {
    const model = spec({ fps: 24, aspect: 'landscape', background: 'navy', scenes: [{ duration: 1 }] });
    expect(resolveTimeline(model)).toMatchObject({
      fps: 24,
      durationFrames: 24,
      size: { width: 1920, height: 1080 },
    });
    expect(resolveTimeline(model).scenes[0]!.background).toBe('navy');
    const custom = resolveTimeline(model, { fps: 60, aspect: { width: 720, height: 1280 } });
    expect(custom).toMatchObject({ fps: 60, durationFrames: 60, scale: 720 / 1080 });
  });
});

describe('frameComposition', () => {
  const video = resolveTimeline(
    spec({
      scenes: [
        { duration: 2 },
        { duration: 3, transition: { type: 'crossFade', duration: 0.5, easing: 'linear' } },
        { duration: 2, transition: { type: 'zoom', duration: 1 } },
      ],
    }),
  );

  it('shows one scene outside transitions', () => {
    const frame = frameComposition(video, 30);
    expect(frame.current.scene.index).toBe(0);
    expect(frame.current.seconds).toBe(1);
    expect(frame).toMatchObject({ outgoing: undefined, transition: undefined, progress: 0 });
  });

  it('during a crossFade shows the incoming scene over the outgoing one with rising progress', () => {
    const first = frameComposition(video, 45);
    expect(first.current.scene.index).toBe(1);
    expect(first.outgoing!.scene.index).toBe(0);
    expect(first.current.seconds).toBe(0);
    expect(first.outgoing!.seconds).toBe(1.5);
    expect(first.transition!.type).toBe('crossFade');
    expect(first.progress).toBe(0);
    expect(frameComposition(video, 50).progress).toBeCloseTo(5 / 15, 9);
    const lastOverlap = frameComposition(video, 59);
    expect(lastOverlap.progress).toBeCloseTo(14 / 15, 9);
    expect(lastOverlap.progress).toBeLessThan(1);
    expect(frameComposition(video, 60).outgoing).toBeUndefined();
  });

  it('eases the progress with the transition easing', () => {
    // Scene 2 starts at 4.5 - 1 = 3.5s, frame 105; the overlap is 30 frames, eased "smooth".
    const frame = frameComposition(video, 105 + 10);
    expect(frame.current.scene.index).toBe(2);
    expect(frame.progress).toBeCloseTo(easingFunction('smooth')(10 / 30), 9);
  });

  it('clamps frames outside the video to its ends', () => {
    const late = frameComposition(video, 10_000);
    expect(late.current.scene.index).toBe(2);
    expect(late.current.seconds).toBeCloseTo((video.durationFrames - 1 - 105) / 30, 9);
    expect(frameComposition(video, -5).current).toMatchObject({ seconds: 0, scene: { index: 0 } });
  });
});

describe('elements', () => {
  const video = resolveTimeline(
    spec({
      fps: 60,
      scenes: [
        {
          duration: 5,
          elements: [
            rect({ start: 1, duration: 2 }),
            rect({ start: '30f' }),
            {
              type: 'group',
              start: 1,
              duration: 3,
              children: [
                rect({ start: 0.5 }),
                rect({ start: 1, duration: 10 }),
                { type: 'group', children: [rect()] },
              ],
            },
          ],
        },
      ],
    }),
  );
  const [a, b, group] = video.scenes[0]!.elements as [ResolvedElement, ResolvedElement, ResolvedElement];

  it('times elements from the scene start, until the scene ends by default', () => {
    expect(a).toMatchObject({ key: 's0/e0', startSeconds: 1, endSeconds: 3 });
    expect(b).toMatchObject({ key: 's0/e1', startSeconds: 0.5, endSeconds: 5 });
  });

  it('times group children from the group start, bounded by the group', () => {
    expect(group).toMatchObject({ startSeconds: 1, endSeconds: 4 });
    expect(group.children.map((c) => [c.key, c.startSeconds, c.endSeconds])).toEqual([
      ['s0/e2/e0', 1.5, 4],
      ['s0/e2/e1', 2, 4],
      ['s0/e2/e2', 1, 4],
    ]);
    expect(group.children[2]!.children[0]!.key).toBe('s0/e2/e2/e0');
  });
});

describe('animation triggers', () => {
  function animationsOf(elements: unknown[], sceneDuration = 6) {
    const video = resolveTimeline(spec({ scenes: [{ duration: sceneDuration, elements }] }));
    return video.scenes[0]!.elements;
  }

  it('sceneStart, sceneEnd, {at} and delays', () => {
    const [element] = animationsOf([
      rect({
        start: 1,
        duration: 3,
        animate: [
          { preset: 'fadeIn', trigger: 'sceneStart' },
          { preset: 'fadeOut', trigger: 'sceneEnd', duration: 0.5 },
          { preset: 'pop', trigger: { at: '1500ms' }, delay: 0.2 },
          { preset: 'slideIn', delay: '15f' },
          { preset: 'slideOut', trigger: 'elementEnd', duration: 1 },
        ],
      }),
    ]);
    const rounded = (x: number) => Math.round(x * 1e9) / 1e9;
    expect(element!.animations.map((a) => [rounded(a.startSeconds), rounded(a.endSeconds)])).toEqual([
      [0, 0.6],
      [5.5, 6],
      [1.7, 2.2],
      [1.5, 2.1],
      [3, 4],
    ]);
  });

  it('{after} waits for every finite animation of the named element, even a chain', () => {
    const [, second, third] = animationsOf([
      rect({
        id: 'first',
        animate: [{ preset: 'fadeIn', delay: 0.2 }, { preset: 'pop', delay: 0.5 }, { preset: 'pulse' }],
      }),
      rect({ id: 'second', animate: [{ preset: 'slideIn', trigger: { after: 'first' }, delay: 0.1 }] }),
      rect({ animate: [{ preset: 'fadeIn', trigger: { after: 'second' } }] }),
    ]);
    expect(second!.animations[0]!.startSeconds).toBeCloseTo(1.1, 9);
    expect(third!.animations[0]!.startSeconds).toBeCloseTo(1.7, 9);
  });

  it('{after} an element without finite animations starts when it appears', () => {
    const [, waiting] = animationsOf([
      rect({ id: 'still', start: 2 }),
      rect({ animate: [{ preset: 'fadeIn', trigger: { after: 'still' } }] }),
    ]);
    expect(waiting!.animations[0]!.startSeconds).toBe(2);
  });

  it('{after} reaches into and out of groups, whatever the order of the elements', () => {
    const [group, later] = animationsOf([
      {
        type: 'group',
        children: [rect({ animate: [{ preset: 'fadeIn', trigger: { after: 'outside' } }] })],
      },
      rect({ id: 'outside', animate: [{ preset: 'fadeIn', duration: 2 }] }),
    ]);
    expect(group!.children[0]!.animations[0]!.startSeconds).toBe(2);
    expect(later!.animations[0]!.endSeconds).toBe(2);
  });

  it('throws a clear error for an {after} naming no element in the scene', () => {
    expect(() =>
      animationsOf([rect({ id: 'a', animate: [{ preset: 'fadeIn', trigger: { after: 'ghost' } }] })]),
    ).toThrow(
      /scene "scene-1".*"a" waits for \{after: "ghost"\}.*no element in that scene has the id "ghost"/,
    );
  });

  it('throws a clear error for a cycle of {after} triggers', () => {
    expect(() =>
      animationsOf([
        rect({ id: 'a', animate: [{ preset: 'fadeIn', trigger: { after: 'c' } }] }),
        rect({ id: 'b', animate: [{ preset: 'fadeIn', trigger: { after: 'a' } }] }),
        rect({ id: 'c', animate: [{ preset: 'fadeIn', trigger: { after: 'b' } }] }),
      ]),
    ).toThrow(/cycle \(a → c → b → a\)/);
    expect(() =>
      animationsOf([rect({ id: 'me', animate: [{ preset: 'fadeIn', trigger: { after: 'me' } }] })]),
    ).toThrow(/cycle \(me → me\)/);
  });

  it('fills in defaults: repeat, easing, stagger', () => {
    const [element] = animationsOf([
      rect({
        animate: [
          { preset: 'spin' },
          { preset: 'float', repeat: 2 },
          { preset: 'fadeIn', repeat: 3, easing: { spring: { damping: 10 } } },
          { preset: 'fadeOut' },
        ],
      }),
    ]);
    expect(
      element!.animations.map((a) => [a.repeat, a.durationSeconds, a.endSeconds, a.staggerSeconds]),
    ).toEqual([
      [Infinity, 4, Infinity, 0],
      [2, 3, 6, 0],
      [3, 0.6, expect.closeTo(1.8, 9), 0],
      [1, 0.6, expect.closeTo(6, 9), 0],
    ]);
    expect(element!.animations.map((a) => a.easing)).toEqual([
      'linear',
      'gentle',
      { spring: { damping: 10 } },
      'in',
    ]);
  });
});

describe('group stagger', () => {
  const video = resolveTimeline(
    spec({
      scenes: [
        {
          duration: 4,
          elements: [
            {
              type: 'group',
              stagger: 0.1,
              animate: [{ preset: 'fadeIn' }],
              children: [
                rect({ animate: [{ preset: 'slideIn' }, { preset: 'fadeOut' }] }),
                rect({ animate: [{ preset: 'slideIn' }, { preset: 'fadeOut' }] }),
                {
                  type: 'group',
                  animate: [{ preset: 'slideIn' }, { preset: 'fadeOut' }],
                  children: [rect({ animate: [{ preset: 'pop', trigger: { at: 1 } }] })],
                },
              ],
            },
            {
              type: 'group',
              animate: [{ preset: 'slideFadeIn', stagger: '250ms', delay: 0.5 }],
              children: [rect(), rect(), rect()],
            },
          ],
        },
      ],
    }),
  );
  const [staggered, distributing] = video.scenes[0]!.elements as [ResolvedElement, ResolvedElement];

  it('offsets child j’s animations by j × stagger, and its whole subtree’s', () => {
    expect(staggered.animations[0]!.startSeconds).toBe(0);
    expect(staggered.children.map((c) => c.animations[0]!.startSeconds)).toEqual([0, 0.1, 0.2]);
    expect(staggered.children[2]!.children[0]!.animations[0]!.startSeconds).toBeCloseTo(1.2, 9);
  });

  it('staggers exits so the last child still finishes as the group ends', () => {
    const exits = staggered.children.map((c) => c.animations[1]!);
    expect(exits.map((e) => e.endSeconds)).toEqual([expect.closeTo(3.8, 9), expect.closeTo(3.9, 9), 4]);
  });

  it('an animation with its own stagger on a group plays on each child in turn', () => {
    expect(distributing.animations).toEqual([]);
    const starts = distributing.children.map((c) => c.animations[0]!.startSeconds);
    expect(starts).toEqual([0.5, 0.75, 1]);
    expect(distributing.children[0]!.animations[0]!.staggerSeconds).toBe(0.25);
  });
});

describe('audio', () => {
  const video = resolveTimeline(
    spec({
      audio: [
        { src: 'asset:music.mp3', loop: true, volume: 0.6, fadeOut: 1 },
        { src: 'asset:sting.mp3', start: 1, trim: { start: 2, end: 3.5 } },
      ],
      scenes: [
        { duration: 3, audio: [{ src: 'asset:whoosh.wav', start: 0.5, duration: 0.4 }] },
        {
          duration: 4,
          transition: { type: 'crossFade', duration: 1 },
          audio: [{ src: 'asset:click.wav', start: '250ms' }],
          elements: [
            { type: 'clip', src: 'asset:a.mp4', start: 1, trim: { start: 4 }, rate: 2, volume: 0.5 },
            { type: 'clip', src: 'asset:b.mp4', muted: true },
            {
              type: 'group',
              start: 0.5,
              children: [
                { type: 'clip', src: 'asset:c.mp4', start: 0.5, trim: { start: 1, end: 2 }, rate: 0.5 },
              ],
            },
          ],
        },
      ],
    }),
  );

  it('places music from the video start, a looped track until the video end', () => {
    expect(video.durationSeconds).toBe(6);
    expect(video.audio[0]).toMatchObject({
      origin: 'music',
      startSeconds: 0,
      durationSeconds: 6,
      loop: true,
      volume: 0.6,
      fadeInSeconds: 0,
      fadeOutSeconds: 1,
      rate: 1,
    });
    expect(video.audio[1]).toMatchObject({
      startSeconds: 1,
      sourceStartSeconds: 2,
      durationSeconds: 1.5,
      loop: false,
    });
  });

  it('places scene sounds from their scene start', () => {
    expect(
      video.audio
        .filter((a) => a.origin === 'sfx')
        .map((a) => [a.track.src, a.startSeconds, a.durationSeconds]),
    ).toEqual([
      ['asset:whoosh.wav', 0.5, 0.4],
      ['asset:click.wav', 2.25, undefined],
    ]);
  });

  it('mixes in the sound of unmuted clips while they show, not past their trimmed part', () => {
    const clips = video.audio.filter((a) => a.origin === 'clip');
    expect(clips.map((a) => a.track.src)).toEqual(['asset:a.mp4', 'asset:c.mp4']);
    expect(clips[0]).toMatchObject({
      startSeconds: 3,
      sourceStartSeconds: 4,
      durationSeconds: 3,
      rate: 2,
      volume: 0.5,
      loop: false,
    });
    // The nested clip starts 0.5s into a group that starts 0.5s into scene 2 (at 2s); 1s of source at half speed.
    expect(clips[1]).toMatchObject({ startSeconds: 3, sourceStartSeconds: 1, durationSeconds: 2, rate: 0.5 });
  });
});
