import { describe, expect, it } from 'vitest';
import type { VideoModel } from '../spec/model.ts';
import { assertSpec } from '../spec/validate.ts';
import { semanticIssues } from './check.ts';
import { resolveTimeline } from './resolve.ts';

const spec = (scenes: unknown[], extra: Record<string, unknown> = {}): VideoModel =>
  assertSpec({ kinoSpec: 1, ...extra, scenes });

const pointers = (model: VideoModel) => semanticIssues(model).map((issue) => issue.pointer);

describe('semanticIssues', () => {
  it('refuses a video longer than an hour, at the scene that crosses the limit', () => {
    const scene = (duration: number) => ({ duration, elements: [{ type: 'text' as const, text: 'x' }] });
    expect(semanticIssues({ kinoSpec: 1, scenes: [scene(1800), scene(1800)] } as VideoModel)).toEqual([]);
    const issues = semanticIssues({
      kinoSpec: 1,
      scenes: [scene(1800), scene(1800), scene(1e308)],
    } as VideoModel);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.pointer).toBe('/scenes/2/duration');
    expect(issues[0]!.message).toMatch(/longer than 60 minutes/);
  });

  it('finds nothing wrong in a sound spec', () => {
    const model = spec([
      {
        duration: 3,
        elements: [
          { type: 'text', id: 'title', text: 'Hello', animate: [{ preset: 'fadeIn' }] },
          { type: 'rect', id: 'bar', animate: [{ preset: 'slideIn', trigger: { after: 'title' } }] },
        ],
      },
      {
        duration: 2,
        transition: { type: 'crossFade', duration: 0.5 },
        elements: [{ type: 'text', id: 'title', text: 'Same id, other scene' }],
      },
    ]);
    expect(semanticIssues(model)).toEqual([]);
    expect(() => resolveTimeline(model)).not.toThrow();
  });

  it('reports duplicate ids within a scene, nested ones too', () => {
    const model = spec([
      {
        duration: 3,
        elements: [
          { type: 'rect', id: 'box' },
          { type: 'group', children: [{ type: 'ellipse', id: 'box' }] },
        ],
      },
    ]);
    const issues = semanticIssues(model);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.pointer).toBe('/scenes/0/elements/1/children/0/id');
    expect(issues[0]!.message).toMatch(/"box" is already used in this scene \(at \/scenes\/0\/elements\/0\)/);
  });

  it('reports an {after} naming an unknown id at its trigger', () => {
    const model = spec([
      { duration: 2, elements: [{ type: 'rect', id: 'logo' }] },
      {
        duration: 2,
        elements: [
          { type: 'rect', animate: [{ preset: 'fadeIn' }, { preset: 'pop', trigger: { after: 'logo' } }] },
        ],
      },
    ]);
    const issues = semanticIssues(model);
    expect(issues).toEqual([
      {
        pointer: '/scenes/1/elements/0/animate/1/trigger',
        message: expect.stringMatching(/\{after: "logo"\} names no element in scene "scene-2"/),
      },
    ]);
  });

  it('reports an {after} cycle once, where it closes', () => {
    const model = spec([
      {
        duration: 3,
        elements: [
          { type: 'rect', id: 'a', animate: [{ preset: 'fadeIn', trigger: { after: 'b' } }] },
          {
            type: 'group',
            children: [{ type: 'rect', id: 'b', animate: [{ preset: 'fadeIn', trigger: { after: 'a' } }] }],
          },
          { type: 'rect', id: 'c', animate: [{ preset: 'fadeIn', trigger: { after: 'c' } }] },
        ],
      },
    ]);
    const issues = semanticIssues(model);
    expect(issues.map((i) => i.pointer)).toEqual([
      '/scenes/0/elements/1/children/0/animate/0/trigger',
      '/scenes/0/elements/2/animate/0/trigger',
    ]);
    expect(issues[0]!.message).toMatch(/cycle \(a → b → a\)/);
    expect(issues[1]!.message).toMatch(/cycle \(c → c\)/);
    expect(() => resolveTimeline(model)).toThrow(/cycle/);
  });

  // Issue 12: one longer than half a scene used to be shortened to half without a word.
  it('refuses a transition longer than half of a scene it joins', () => {
    const model = spec([
      { duration: 2 },
      { duration: 0.5, transition: { type: 'wipe' } },
      { duration: 3, transition: { type: 'slide', duration: '2500ms' } },
      { duration: 1, transition: { type: 'cut', duration: 5 } },
      { duration: 1, transition: { type: 'crossFade', duration: 0.6 } },
      { duration: 2, transition: { type: 'crossFade', duration: 0.5 } },
    ]);
    const issues = semanticIssues(model);
    expect(issues.map((i) => i.pointer)).toEqual([
      '/scenes/1/transition',
      '/scenes/2/transition/duration',
      '/scenes/4/transition/duration',
    ]);
    expect(issues[0]!.message).toMatch(
      /the 600ms transition is longer than half of a scene it joins \(500ms\): it may take at most 250ms/,
    );
    expect(issues[1]!.message).toMatch(/2\.5s transition .* \(500ms\)/);
    expect(issues[2]!.message).toMatch(/600ms transition .* \(1s\): it may take at most 500ms/);
  });

  it('reports an element that starts after its scene or group has ended', () => {
    const model = spec([
      {
        duration: 2,
        elements: [
          { type: 'rect', start: 2 },
          { type: 'rect', start: '59f' },
          {
            type: 'group',
            start: 0.5,
            duration: 1,
            children: [
              { type: 'rect', start: 1.2 },
              { type: 'rect', start: 0.8 },
            ],
          },
        ],
      },
    ]);
    const issues = semanticIssues(model);
    expect(issues.map((i) => i.pointer)).toEqual([
      '/scenes/0/elements/0/start',
      '/scenes/0/elements/2/children/0/start',
    ]);
    expect(issues[0]!.message).toMatch(/starts at 2s, when its scene has already ended \(2s\)/);
    expect(issues[1]!.message).toMatch(/its group has already ended \(1s\)/);
  });

  it('reports keyframes out of time order', () => {
    const model = spec(
      [
        {
          duration: 4,
          elements: [
            {
              type: 'rect',
              keyframes: {
                x: [
                  { at: 0, value: 0 },
                  { at: 1, value: 1 },
                  { at: 1, value: 0.5 },
                ],
                opacity: [
                  { at: '30f', value: 0 },
                  { at: '20f', value: 1 },
                ],
              },
            },
          ],
        },
      ],
      { fps: 60 },
    );
    expect(pointers(model)).toEqual(['/scenes/0/elements/0/keyframes/opacity/1/at']);
    expect(semanticIssues(model)[0]!.message).toMatch(
      /keyframe at 0\.333s comes before the previous one \(500ms\)/,
    );
  });

  it("reports a callout's or spotlight's target that names no element of its scene", () => {
    const model = spec([
      {
        duration: 3,
        elements: [
          { type: 'group', children: [{ type: 'rect', id: 'chart' }] },
          { type: 'callout', text: 'Here', target: 'chart' },
          { type: 'callout', id: 'note', text: 'Lost', target: 'chrat' },
          { type: 'spotlight', target: 'note' },
          { type: 'spotlight', id: 'self', target: 'self' },
        ],
      },
      { duration: 2, elements: [{ type: 'callout', text: 'Other scene', target: 'chart' }] },
    ]);
    const issues = semanticIssues(model);
    expect(issues.map((issue) => issue.pointer)).toEqual([
      '/scenes/0/elements/2/target',
      '/scenes/0/elements/4/target',
      '/scenes/1/elements/0/target',
    ]);
    expect(issues[0]!.message).toBe(
      'target "chrat" names no element in scene "scene-1"; use the id of an element in the same scene',
    );
    expect(issues[1]!.message).toMatch(/targets itself/);
  });
});
