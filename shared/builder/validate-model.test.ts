import { describe, expect, it } from 'vitest';
import { SpecValidationError } from '../spec/validate.ts';
import { custom, group, rect, scene, text, video } from './index.ts';
import { assertModel, parseModel } from './validate-model.ts';

const draw = () => {};

describe('parseModel', () => {
  it('accepts custom elements anywhere and puts them back where they were, draw included', () => {
    const model = video({ fps: 30 }, [
      scene({ duration: 2 }, [
        text('a'),
        custom({ x: 0.2, opacity: 0.5 }, draw),
        group({ x: 0.5 }, [rect(), custom(draw).animate({ preset: 'fadeIn' })]),
      ]),
    ]);
    const result = parseModel(model);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const elements = result.model.scenes[0]!.elements!;
    expect(elements.map((e) => e.type)).toEqual(['text', 'custom', 'group']);
    expect(elements[1]).toEqual({ type: 'custom', x: 0.2, opacity: 0.5, draw });
    const children = (elements[2] as { children: { type: string; draw?: unknown }[] }).children;
    expect(children.map((c) => c.type)).toEqual(['rect', 'custom']);
    expect(children[1]!.draw).toBe(draw);
  });

  it('accepts custom elements in the overlays, and points at their issues there', () => {
    const model = video({}, [scene({ duration: 2 })], {
      overlays: [custom(draw), text('a', { opacity: 3 })],
    });
    const result = parseModel(model);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => i.pointer)).toEqual(['/overlays/1/opacity']);
    const fixed = parseModel(video({}, [scene({ duration: 2 })], { overlays: [custom(draw), text('a')] }));
    if (!fixed.ok) throw new Error(JSON.stringify(fixed.issues));
    expect(fixed.model.overlays![0]).toEqual({ type: 'custom', draw });
  });

  it('reports a bad field of an element after a custom one at its real position', () => {
    const model = video({}, [scene({ duration: 2 }, [custom(draw), text('a', { opacity: 3 })])]);
    const result = parseModel(model);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => i.pointer)).toEqual(['/scenes/0/elements/1/opacity']);
  });

  it("checks a custom element's own fields and its draw function, with pointers", () => {
    const bad = {
      kinoSpec: 1,
      scenes: [
        {
          duration: 1,
          elements: [
            {
              type: 'group',
              children: [{ type: 'custom', opacity: 2, draw: 'not a function', colour: 'red' }],
            },
          ],
        },
      ],
    };
    const result = parseModel(bad);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const pointers = result.issues.map((i) => i.pointer).sort();
    expect(pointers).toEqual([
      '/scenes/0/elements/0/children/0/colour',
      '/scenes/0/elements/0/children/0/draw',
      '/scenes/0/elements/0/children/0/opacity',
    ]);
    expect(result.issues.find((i) => i.pointer.endsWith('/draw'))!.message).toContain('draw function');
  });

  it('rejects something that is not a video at all', () => {
    expect(parseModel(text('hi'))).toEqual({
      ok: false,
      issues: [{ pointer: '', message: 'expected a video made with video(props, [scene(...)])' }],
    });
    expect(() => assertModel(42)).toThrow(SpecValidationError);
  });

  it('returns the same data for a spec without custom elements', () => {
    const model = video({ aspect: 'square' }, [scene({ duration: '1s' }, [rect({ fill: '#123' })])]);
    expect(assertModel(model)).toEqual(model);
  });
});

describe('parseModel: nesting', () => {
  it('refuses groups nested thousands deep with one issue, without overflowing the stack', () => {
    let element: Record<string, unknown> = { type: 'rect', width: 10, height: 10 };
    for (let i = 0; i < 20_000; i++) element = { type: 'group', children: [element] };
    const result = parseModel({
      aspect: 'square',
      fps: 30,
      scenes: [{ duration: '1s', elements: [element] }],
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.issues).toHaveLength(1);
      expect(result.issues[0]!.message).toMatch(/at most 32 deep/);
    }
  });
});
