// Overlays on the timeline: elements timed against the whole video, with keys and pointers of
// their own, checked for what the schema cannot see, and planned for media like any element.
import { describe, expect, it } from 'vitest';
import type { VideoModel } from '../spec/model.ts';
import { assertSpec } from '../spec/validate.ts';
import { tooDeepGroup } from '../spec/nesting.ts';
import { semanticIssues } from './check.ts';
import { elementPointer } from './element-keys.ts';
import { planMedia } from './media-plan.ts';
import { resolveTimeline } from './resolve.ts';

/** Two 3 s scenes joined by a 1 s crossfade: a 5 s video. */
const spec = (overlays: unknown[]): VideoModel =>
  assertSpec({
    kinoSpec: 1,
    fps: 30,
    scenes: [
      { duration: 3, elements: [{ type: 'text', id: 'title', text: 'One' }] },
      {
        duration: 3,
        transition: { type: 'crossFade', duration: 1 },
        elements: [{ type: 'text', text: 'Two' }],
      },
    ],
    overlays,
  });

describe('resolved overlays', () => {
  it('last the whole video by default, and count start and duration from its start', () => {
    const video = resolveTimeline(
      spec([
        { type: 'rect', id: 'logo' },
        { type: 'text', text: 'Later', start: 2.5, duration: 1 },
        { type: 'text', text: 'To the end', start: 4 },
      ]),
    );
    expect(video.durationSeconds).toBe(5);
    expect(video.overlays).toMatchObject({
      kind: 'overlays',
      startFrame: 0,
      endFrame: 150,
      durationSeconds: 5,
    });
    expect(video.overlays.elements.map((e) => [e.key, e.startSeconds, e.endSeconds])).toEqual([
      ['o/e0', 0, 5],
      ['o/e1', 2.5, 3.5],
      ['o/e2', 4, 5],
    ]);
  });

  it('settle scene triggers against the video, and {after} among the overlays', () => {
    const video = resolveTimeline(
      spec([
        { type: 'rect', id: 'bar', animate: [{ preset: 'fadeIn', duration: 1, delay: 2 }] },
        {
          type: 'text',
          text: 'Bye',
          animate: [
            { preset: 'fadeIn', trigger: { after: 'bar' }, duration: 0.5 },
            { preset: 'fadeOut', trigger: 'sceneEnd', duration: 0.5 },
          ],
        },
      ]),
    );
    const [enter, leave] = video.overlays.elements[1]!.animations;
    expect(enter).toMatchObject({ startSeconds: 3, endSeconds: 3.5 });
    expect(leave).toMatchObject({ startSeconds: 4.5, endSeconds: 5 });
  });

  it('refuses an {after} naming a scene element, saying where the id must be', () => {
    const model = spec([{ type: 'rect', animate: [{ preset: 'fadeIn', trigger: { after: 'title' } }] }]);
    expect(semanticIssues(model)).toEqual([
      {
        pointer: '/overlays/0/animate/0/trigger',
        message:
          '{after: "title"} names no element among the overlays; use the id of an element among the overlays',
      },
    ]);
    expect(() => resolveTimeline(model)).toThrow(
      /the overlays: .*no element in the overlays has the id "title"/,
    );
  });

  it('give group children keys under the overlay, and their own sound on the video clock', () => {
    const video = resolveTimeline(
      spec([{ type: 'group', start: 1, children: [{ type: 'clip', src: 'asset:waves.mp4', start: 0.5 }] }]),
    );
    const clip = video.overlays.elements[0]!.children[0]!;
    expect(clip).toMatchObject({ key: 'o/e0/e0', startSeconds: 1.5, endSeconds: 5 });
    expect(video.audio).toEqual([
      expect.objectContaining({ origin: 'clip', startSeconds: 1.5, durationSeconds: 3.5 }),
    ]);
    expect(planMedia(video).videos).toEqual([
      expect.objectContaining({ key: 'o/e0/e0', src: 'asset:waves.mp4', startFrame: 45, frameCount: 105 }),
    ]);
  });

  it('are planned for media like scene elements', () => {
    const plan = planMedia(resolveTimeline(spec([{ type: 'image', src: 'asset:logo.png' }])));
    expect([...plan.images]).toEqual(['asset:logo.png']);
    expect(plan.sources.has('asset:logo.png')).toBe(true);
  });
});

describe('semantic checks of overlays', () => {
  it('find nothing wrong in sound overlays, ids shared with a scene included', () => {
    expect(semanticIssues(spec([{ type: 'text', id: 'title', text: 'Over', start: 4.9 }]))).toEqual([]);
  });

  it('report an overlay that starts after the video ends, and duplicate ids among the overlays', () => {
    const issues = semanticIssues(
      spec([
        { type: 'rect', id: 'a' },
        { type: 'rect', id: 'a', start: 5 },
      ]),
    );
    expect(issues).toEqual([
      {
        pointer: '/overlays/1/start',
        message: 'starts at 5s, when the video has already ended (5s), so it never shows; start it earlier',
      },
      {
        pointer: '/overlays/1/id',
        message:
          'the id "a" is already used among the overlays (at /overlays/0); give each element its own id',
      },
    ]);
  });

  it('report a callout whose target is no overlay', () => {
    const issues = semanticIssues(spec([{ type: 'callout', text: 'Look', target: 'title' }]));
    expect(issues.map((issue) => issue.pointer)).toEqual(['/overlays/0/target']);
  });

  it('refuse groups nested too deep in the overlays, at their path', () => {
    let element: Record<string, unknown> = { type: 'rect' };
    for (let depth = 0; depth < 40; depth++) element = { type: 'group', children: [element] };
    const path = tooDeepGroup({ kinoSpec: 1, scenes: [{ duration: 1 }], overlays: [element] });
    expect(path?.slice(0, 2)).toEqual(['overlays', 0]);
  });
});

describe('element keys and pointers', () => {
  it('point scene elements and overlays at where the spec writes them', () => {
    expect(elementPointer('s0/e2/e1')).toBe('/scenes/0/elements/2/children/1');
    expect(elementPointer('o/e1')).toBe('/overlays/1');
    expect(elementPointer('o/e1/e0/e3')).toBe('/overlays/1/children/0/children/3');
    expect(elementPointer('s1/background')).toBeUndefined();
    expect(elementPointer('o')).toBeUndefined();
  });
});
