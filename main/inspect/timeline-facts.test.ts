import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { VideoModel } from '../../shared/spec/model.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import { loadComposition } from '../composition/load.ts';
import { timelineFacts } from './timeline-facts.ts';
import type { ElementFact, TimelineFacts } from '../../shared/protocol/inspect.ts';

const travelReel = fileURLToPath(new URL('../../examples/compositions/travel-reel.ts', import.meta.url));

function allElements(elements: ElementFact[]): ElementFact[] {
  return elements.flatMap((element) => [element, ...allElements(element.children ?? [])]);
}

describe('timelineFacts on the travel reel', () => {
  let facts: TimelineFacts;
  beforeAll(async () => {
    facts = timelineFacts(resolveTimeline(await loadComposition(travelReel)));
  });

  it('gives the video size, rate and length', () => {
    expect(facts).toMatchObject({
      fps: 30,
      width: 1080,
      height: 1920,
      durationFrames: 285,
      durationSeconds: 9.5,
    });
  });

  it('places scenes in frames, with their transitions', () => {
    expect(facts.scenes.map((s) => [s.id, s.startFrame, s.endFrame, s.transitionIn])).toEqual([
      ['scene-1', 0, 108, undefined],
      ['scene-2', 84, 192, { type: 'crossFade', frames: 24, seconds: 0.8 }],
      ['scene-3', 171, 285, { type: 'wipe', frames: 21, seconds: 0.7 }],
    ]);
    expect(facts.scenes[2]!.background).toBe('linear background');
  });

  it('lists elements with video-frame intervals, labels and nested group children', () => {
    const coast = facts.scenes[1]!;
    expect(coast.elements.map((e) => [e.key, e.type, e.label])).toEqual([
      ['s1/e0', 'clip', 'asset:clip-waves.mp4'],
      ['s1/e1', 'rect', 'rect linear gradient'],
      ['s1/e2', 'text', 'Where the sea begins'],
      ['s1/e3', 'text', '34.05° N · 8.93° W'],
    ]);
    expect(coast.elements[2]).toMatchObject({ startFrame: 84, endFrame: 192 });
    const caption = facts.scenes[0]!.elements[2]!;
    expect(caption.children?.map((c) => [c.key, c.label])).toEqual([
      ['s0/e2/e0', 'Chapter 01 — The Highlands'],
      ['s0/e2/e1', 'Into the Quiet'],
    ]);
  });

  it('gives animations in video frames; endless loops last as long as their element', () => {
    const sea = facts.scenes[1]!.elements[2]!;
    expect(sea.animations).toEqual([
      // fadeIn: 0.6 s delay, 1 s long, from the scene start at 2.8 s.
      { preset: 'fadeIn', kind: 'entrance', startFrame: 102, endFrame: 132, repeat: 1 },
      { preset: 'float', kind: 'loop', startFrame: 84, endFrame: 192, repeat: 'forever' },
    ]);
    // The exit fade is anchored to the element's end.
    const coordinates = facts.scenes[1]!.elements[3]!;
    expect(coordinates.animations[1]).toMatchObject({ preset: 'fadeOut', kind: 'exit', endFrame: 192 });
  });

  it('lists the soundtrack with origins and frame intervals', () => {
    expect(facts.audio).toEqual([
      {
        src: 'asset:music-loop.m4a',
        origin: 'music',
        startFrame: 0,
        endFrame: 285,
        volume: 0.45,
        loop: true,
      },
      { src: 'asset:whoosh.wav', origin: 'sfx', startFrame: 171, volume: 0.4, loop: false },
      {
        src: 'asset:clip-waves.mp4',
        origin: 'clip',
        startFrame: 84,
        endFrame: 192,
        volume: 0.35,
        loop: false,
      },
    ]);
  });

  it('survives a JSON round trip unchanged', () => {
    expect(JSON.parse(JSON.stringify(facts))).toEqual(facts);
  });
});

describe('timelineFacts on code-only elements', () => {
  const model: VideoModel = {
    kinoSpec: 1,
    scenes: [
      {
        duration: 2,
        hold: true,
        elements: [
          { type: 'custom', draw: () => {} },
          {
            type: 'text',
            text: `${'word '.repeat(400)}end`,
            animate: [{ preset: 'spin', repeat: 'forever' }],
          },
        ],
      },
    ],
  };
  const facts = timelineFacts(resolveTimeline(model));

  it('carries no functions, no Infinity and no long strings', () => {
    const json = JSON.stringify(facts);
    expect(JSON.parse(json)).toEqual(facts);
    expect(json).not.toContain('"draw"');
    expect(json.length).toBeLessThan(2000);
    const [custom, text] = allElements(facts.scenes[0]!.elements);
    expect(custom!.label).toBe('custom drawing');
    expect(text!.label.length).toBeLessThanOrEqual(60);
    expect(text!.animations[0]).toMatchObject({ repeat: 'forever', startFrame: 0, endFrame: 60 });
    expect(facts.scenes[0]!.hold).toBe(true);
  });
});
