import { describe, expect, it } from 'vitest';
import { resolveTimeline } from '../../../shared/timeline/resolve.ts';
import type { VideoModel } from '../../../shared/spec/model.ts';
import { sceneKeyAt, trackKeyOf, tracksOf } from './timeline-tracks.ts';

const MODEL = {
  fps: 30,
  scenes: [
    {
      id: 'intro',
      duration: 2,
      elements: [
        { type: 'text', id: 'title', text: 'Hello' },
        { type: 'text', text: 'A line of text that is rather longer than any label should be shown' },
        { type: 'group', children: [{ type: 'rect', fill: '#fff' }] },
      ],
    },
    { duration: 1, elements: [{ type: 'image', src: 'asset:photo.jpg', start: 0.5 }] },
  ],
  overlays: [{ type: 'rect', fill: '#f00', start: 1 }],
} as unknown as VideoModel;

describe('timeline tracks', () => {
  const tracks = tracksOf(resolveTimeline(MODEL));

  it('has a row per scene, then its elements, then one per overlay', () => {
    expect(tracks.map((t) => `${t.kind} ${t.key}`)).toEqual([
      'scene s0',
      'element s0/e0',
      'element s0/e1',
      'element s0/e2',
      'scene s1',
      'element s1/e0',
      'overlay o/e0',
    ]);
  });

  it('names rows by id, text, source, else type, and knows their pointers', () => {
    expect(tracks.map((t) => t.label)).toEqual([
      'intro',
      'title',
      'A line of text that is rather longer th…',
      'group',
      tracks[4]!.label,
      'asset:photo.jpg',
      'rect',
    ]);
    expect(tracks[1]).toMatchObject({ pointer: '/scenes/0/elements/0', needles: ['title', 'Hello'] });
    expect(tracks[6]!.pointer).toBe('/overlays/0');
    expect(tracks[0]!.pointer).toBe('/scenes/0');
  });

  it('places bars at their frames: scene-relative elements, video-timed overlays', () => {
    expect(tracks[0]).toMatchObject({ startFrame: 0, endFrame: 60 });
    expect(tracks[4]).toMatchObject({ startFrame: 60, endFrame: 90 });
    expect(tracks[5]).toMatchObject({ startFrame: 75, endFrame: 90 });
    expect(tracks[6]).toMatchObject({ startFrame: 30, endFrame: 90 });
  });

  it('puts a finding on its element row (a child on its group), else on the scene at its frame', () => {
    expect(trackKeyOf('s0/e2/e0', tracks)).toBe('s0/e2');
    expect(trackKeyOf('o/e0', tracks)).toBe('o/e0');
    expect(trackKeyOf('s9/e0', tracks)).toBeUndefined();
    expect(sceneKeyAt(70, tracks)).toBe('s1');
    expect(sceneKeyAt(500, tracks)).toBeUndefined();
  });
});
