// Per-aspect overrides in the spec: each patch is checked against the fields it patches, at its pointer.
import { describe, expect, it } from 'vitest';
import { parseSpec } from './validate.ts';

function spec(element: Record<string, unknown>, scene: Record<string, unknown> = {}) {
  return { kinoSpec: 1, scenes: [{ duration: 2, elements: [element], ...scene }] };
}

function issues(input: unknown) {
  const result = parseSpec(input);
  return result.ok ? [] : result.issues;
}

describe('aspects', () => {
  it('takes a patch of the element’s own fields, per aspect', () => {
    const text = {
      type: 'text',
      text: 'Hi',
      aspects: { reels: { x: 0.5, size: 64, width: 900 }, square: {}, landscape: { align: 'left' } },
    };
    expect(issues(spec(text))).toEqual([]);
    const group = {
      type: 'group',
      stagger: 0.1,
      aspects: { portrait45: { y: 0.3, clip: true } },
      children: [],
    };
    expect(issues(spec(group))).toEqual([]);
    expect(issues(spec(text, { aspects: { reels: { background: '#101010', hold: true } } }))).toEqual([]);
  });

  it('refuses a field the element does not have, at its pointer', () => {
    const text = { type: 'text', text: 'Hi', aspects: { reels: { fontSize: 64 } } };
    expect(issues(spec(text))).toEqual([
      { pointer: '/scenes/0/elements/0/aspects/reels/fontSize', message: 'unknown field' },
    ]);
    // A rect has no text size; a text has no fill.
    const rect = { type: 'rect', fill: '#fff', aspects: { square: { size: 40, radius: 'x' } } };
    expect(issues(spec(rect)).map((issue) => issue.pointer)).toEqual([
      '/scenes/0/elements/0/aspects/square/radius',
      '/scenes/0/elements/0/aspects/square/size',
    ]);
  });

  it('refuses an aspect that is not one, and a wrong value type', () => {
    const text = { type: 'text', text: 'Hi', aspects: { tiktok: { x: 1 }, reels: { x: 'left' } } };
    expect(issues(spec(text))).toEqual(
      expect.arrayContaining([
        {
          pointer: '/scenes/0/elements/0/aspects/tiktok',
          message: 'unknown aspect; use reels, square, landscape, portrait45',
        },
        expect.objectContaining({ pointer: '/scenes/0/elements/0/aspects/reels/x' }),
      ]),
    );
  });

  it('keeps what a video reads once the same in every aspect: ids, children, files, a scene’s timing', () => {
    const image = { type: 'image', src: 'asset:a.png', aspects: { reels: { src: 'asset:b.png', id: 'b' } } };
    expect(issues(spec(image))).toEqual([
      {
        pointer: '/scenes/0/elements/0/aspects/reels/src',
        message:
          '"src" is the same in every aspect: set it on the element itself, not in one aspect\'s overrides',
      },
      { pointer: '/scenes/0/elements/0/aspects/reels/id', message: 'unknown field' },
    ]);
    const group = { type: 'group', children: [], aspects: { reels: { children: [] } } };
    expect(issues(spec(group))).toEqual([
      { pointer: '/scenes/0/elements/0/aspects/reels/children', message: 'unknown field' },
    ]);
    const scene = { aspects: { square: { duration: 3 } } };
    expect(issues(spec({ type: 'text', text: 'Hi' }, scene))).toEqual([
      {
        pointer: '/scenes/0/aspects/square/duration',
        message:
          '"duration" is the same in every aspect: set it on the scene itself, not in one aspect\'s overrides',
      },
    ]);
  });

  it('holds the element’s checks across fields for it as each aspect patches it', () => {
    const chart = {
      type: 'chart',
      kind: 'bar',
      labels: ['A', 'B'],
      series: [
        { name: 'One', values: [1, 2] },
        { name: 'Two', values: [3, 4] },
      ],
      aspects: { square: { kind: 'pie' }, reels: { horizontal: true } },
    };
    // A pie shows one series: the patch breaks a field it did not write, so it is named in the message.
    expect(issues(spec(chart))).toEqual([
      {
        pointer: '/scenes/0/elements/0/aspects/square',
        message: 'series: a pie chart shows one series; give one, with a value per slice',
      },
    ]);
    const counter = { type: 'counter', to: 5, aspects: { reels: { locale: 'not a locale!' } } };
    expect(issues(spec(counter))).toEqual([
      expect.objectContaining({ pointer: '/scenes/0/elements/0/aspects/reels/locale' }),
    ]);
  });

  it('is allowed on overlays and on children in groups', () => {
    const input = {
      kinoSpec: 1,
      scenes: [
        {
          duration: 2,
          elements: [
            { type: 'group', children: [{ type: 'text', text: 'x', aspects: { reels: { y: 0.2 } } }] },
          ],
        },
      ],
      overlays: [{ type: 'progressBar', aspects: { reels: { y: 0.8 }, landscape: { fontSize: 1 } } }],
    };
    expect(issues(input)).toEqual([
      { pointer: '/overlays/0/aspects/landscape/fontSize', message: 'unknown field' },
    ]);
  });
});
