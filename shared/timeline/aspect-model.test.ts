// Resolving the timeline for an aspect: its overrides apply there and nowhere else, and elements drawn
// in a shape their video was not laid out for are marked for reflow unless they have overrides for it.
import { describe, expect, it } from 'vitest';
import type { SpecElement } from '../spec/elements.ts';
import type { ModelElement, VideoModel } from '../spec/model.ts';
import { elementPointer } from './element-keys.ts';
import { resolveTimeline } from './resolve.ts';
import type { ResolvedElement, ResolvedVideo } from './types.ts';

const HEADLINE: ModelElement = {
  type: 'text',
  id: 'headline',
  text: 'Sound that fills the room',
  size: 120,
  width: 900,
  x: 0.28,
  aspects: { reels: { x: 0.5, y: 0.3, size: 96 } },
};
const CARD: SpecElement = {
  type: 'rect',
  fill: '#f472b6',
  width: 560,
  height: 560,
  x: 0.76,
  aspects: { reels: { x: 0.5, y: 0.85, width: 300, height: 300 }, square: {} },
};
const TAG: SpecElement = { type: 'text', text: 'New', x: 0.1 };

function landscape(): VideoModel {
  return {
    kinoSpec: 1,
    aspect: 'landscape',
    scenes: [
      {
        duration: 2,
        background: '#000000',
        aspects: { reels: { background: '#ffffff' } },
        elements: [HEADLINE, { type: 'group', children: [CARD, TAG] }],
      },
    ],
    overlays: [{ type: 'text', text: 'Logo', y: 0.05, aspects: { portrait45: { y: 0.1 } } }],
  };
}

function element(video: ResolvedVideo, key: string): ResolvedElement {
  const walk = (list: readonly ResolvedElement[]): ResolvedElement[] =>
    list.flatMap((resolved) => [resolved, ...walk(resolved.children)]);
  const found = walk([...video.scenes.flatMap((scene) => scene.elements), ...video.overlays.elements]).find(
    (resolved) => resolved.key === key,
  );
  if (!found) throw new Error(`no element ${key}`);
  return found;
}

const field = (video: ResolvedVideo, key: string, name: string) =>
  (element(video, key).element as unknown as Record<string, unknown>)[name];

describe('overrides for an aspect', () => {
  it('change their element, scene or overlay in that aspect only', () => {
    const model = landscape();
    const reels = resolveTimeline(model, { aspect: 'reels' });
    expect([field(reels, 's0/e0', 'x'), field(reels, 's0/e0', 'y'), field(reels, 's0/e0', 'size')]).toEqual([
      0.5, 0.3, 96,
    ]);
    // Fields the patch leaves alone keep their own values.
    expect(field(reels, 's0/e0', 'width')).toBe(900);
    expect(field(reels, 's0/e1/e0', 'width')).toBe(300);
    expect(reels.scenes[0]!.background).toBe('#ffffff');

    for (const aspect of ['landscape', 'square'] as const) {
      const other = resolveTimeline(model, { aspect });
      expect(field(other, 's0/e0', 'x')).toBe(0.28);
      expect(field(other, 's0/e0', 'size')).toBe(120);
      expect(field(other, 's0/e1/e0', 'width')).toBe(560);
      expect(other.scenes[0]!.background).toBe('#000000');
    }
    const portrait = resolveTimeline(model, { aspect: 'portrait45' });
    expect(field(portrait, 'o/e0', 'y')).toBe(0.1);
    expect(field(resolveTimeline(model, { aspect: 'reels' }), 'o/e0', 'y')).toBe(0.05);
    // The written model itself is untouched.
    expect(model.scenes[0]!.elements![0]).toBe(HEADLINE);
    expect(HEADLINE).toMatchObject({ x: 0.28, size: 120 });
  });

  it('apply by the frame’s shape, so a draft render at half size gets them too', () => {
    const draft = resolveTimeline(landscape(), { aspect: { width: 540, height: 960 } });
    expect(draft.aspect).toBe('reels');
    expect(field(draft, 's0/e0', 'x')).toBe(0.5);
    const odd = resolveTimeline(landscape(), { aspect: { width: 1000, height: 500 } });
    expect(odd.aspect).toBeUndefined();
    expect(field(odd, 's0/e0', 'x')).toBe(0.28);
  });

  it('keep every key and pointer: no patch adds or removes an element', () => {
    const keys = (video: ResolvedVideo) =>
      video.scenes[0]!.elements.flatMap((resolved) => [resolved.key, ...resolved.children.map((c) => c.key)]);
    const reels = resolveTimeline(landscape(), { aspect: 'reels' });
    expect(keys(reels)).toEqual(keys(resolveTimeline(landscape())));
    expect(elementPointer('s0/e1/e0')).toBe('/scenes/0/elements/1/children/0');
  });

  it('leave a video without overrides as it was written', () => {
    const plain: VideoModel = { kinoSpec: 1, scenes: [{ duration: 1, elements: [TAG] }] };
    expect(resolveTimeline(plain, { aspect: 'square' }).model).toBe(plain);
  });
});

describe('the reflow mark', () => {
  it('is on elements drawn in another shape than the video’s own, without overrides for it', () => {
    const reels = resolveTimeline(landscape(), { aspect: 'reels' });
    expect(reels.reflowed).toBe(true);
    // The headline and the card have reels overrides: drawn as they say. The group and the tag have none.
    expect(element(reels, 's0/e0').reflow).toBeUndefined();
    expect(element(reels, 's0/e1/e0').reflow).toBeUndefined();
    expect(element(reels, 's0/e1').reflow).toBe(true);
    expect(element(reels, 's0/e1/e1').reflow).toBe(true);
    // An empty patch counts as overrides: the card is drawn as written in square.
    const square = resolveTimeline(landscape(), { aspect: 'square' });
    expect(element(square, 's0/e1/e0').reflow).toBeUndefined();
    expect(element(square, 's0/e0').reflow).toBe(true);
  });

  it('is on nothing in the video’s own shape, draft sizes included', () => {
    for (const aspect of ['landscape', { width: 960, height: 540 }] as const) {
      const own = resolveTimeline(landscape(), { aspect });
      expect(own.reflowed).toBe(false);
      expect(element(own, 's0/e1/e1').reflow).toBeUndefined();
    }
    // A spec without an aspect is laid out for reels.
    const reelsSpec: VideoModel = { kinoSpec: 1, scenes: [{ duration: 1, elements: [TAG] }] };
    expect(resolveTimeline(reelsSpec, { aspect: 'reels' }).reflowed).toBe(false);
    expect(element(resolveTimeline(reelsSpec, { aspect: 'landscape' }), 's0/e0').reflow).toBe(true);
  });
});
