import { describe, expect, it } from 'vitest';
import { withDefaults } from './save-defaults.ts';

const SPEC = `{
  "kinoSpec": 1,
  "variables": {
    "author": {
      "type": "string",
      "default": "Edsger W. Dijkstra",
      "maxLength": 60
    },
    "size": {
      "type": "number"
    },
    "sale": { "type": "boolean" },
    "empty": {}
  },
  "scenes": [{ "duration": 1, "elements": [{ "type": "text", "text": "{{author}}" }] }]
}
`;

describe('withDefaults', () => {
  it('replaces a default where it stands and adds one where there is none, the rest untouched', () => {
    const text = withDefaults(SPEC, { author: 'Grace "Amazing" Hopper', size: 72, sale: true });
    expect(text).toBeDefined();
    const spec = JSON.parse(text!) as { variables: Record<string, { default?: unknown }> };
    expect(spec.variables.author!.default).toBe('Grace "Amazing" Hopper');
    expect(spec.variables.size!.default).toBe(72);
    expect(spec.variables.sale!.default).toBe(true);
    // In place: the author's line changed, the size got a line of its own, the rest is as it was.
    expect(text).toContain('      "default": "Grace \\"Amazing\\" Hopper",\n      "maxLength": 60');
    expect(text).toContain('"size": {\n      "default": 72,\n      "type": "number"\n    }');
    expect(text).toContain('"sale": { "default": true, "type": "boolean" }');
    expect(text!.split('\n').slice(-4)).toEqual(SPEC.split('\n').slice(-4));
  });

  it('writes into an empty declaration without a trailing comma', () => {
    const text = withDefaults(SPEC, { empty: 'x' });
    expect((JSON.parse(text!) as { variables: { empty: unknown } }).variables.empty).toEqual({
      default: 'x',
    });
  });

  it('gives up on a variable that is not written as an object', () => {
    expect(withDefaults(SPEC, { missing: 1 })).toBeUndefined();
    expect(withDefaults('{"variables": {"a": 3}}', { a: 1 })).toBeUndefined();
  });
});
