import { describe, expect, it } from 'vitest';
import { MAX_GROUP_DEPTH } from './nesting.ts';
import { parseSpec } from './validate.ts';

/** A spec whose first element is `depth` groups, one inside the other, around a rect. */
function nestedSpec(depth: number) {
  let element: Record<string, unknown> = { type: 'rect', width: 10, height: 10, fill: '#fff' };
  for (let i = 0; i < depth; i++) element = { type: 'group', children: [element] };
  return { kinoSpec: 1, aspect: 'square', fps: 30, scenes: [{ duration: '1s', elements: [element] }] };
}

const pointerAt = (depth: number) => `/scenes/0/elements/0${'/children/0'.repeat(depth - 1)}`;

describe('group nesting limit', () => {
  it(`accepts groups nested ${MAX_GROUP_DEPTH} deep`, () => {
    expect(parseSpec(nestedSpec(MAX_GROUP_DEPTH)).ok).toBe(true);
  });

  it('refuses one level more, at the pointer of the group too deep', () => {
    const result = parseSpec(nestedSpec(MAX_GROUP_DEPTH + 1));
    expect(result).toEqual({
      ok: false,
      issues: [
        { pointer: pointerAt(MAX_GROUP_DEPTH + 1), message: expect.stringMatching(/at most 32 deep/) },
      ],
    });
  });

  it('answers a hostile depth with the same issue instead of overflowing the stack', () => {
    for (const depth of [300, 500, 20_000]) {
      const result = parseSpec(nestedSpec(depth));
      expect(result.ok, String(depth)).toBe(false);
      if (!result.ok) expect(result.issues[0]!.pointer).toBe(pointerAt(MAX_GROUP_DEPTH + 1));
    }
  });
});
