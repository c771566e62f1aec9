import { describe, expect, it } from 'vitest';
import {
  SourceLayout,
  arrayCode,
  callCode,
  chainCode,
  numberLiteral,
  objectCode,
  propertyKey,
  quote,
  raw,
  valueCode,
} from './source-layout.ts';

// Reads a printed literal back the way a JavaScript engine would.
const evaluate = (source: string): unknown => new Function(`return (${source});`)();

describe('literals', () => {
  it('quotes strings with single quotes so they read back unchanged', () => {
    const tricky = [
      "it's",
      'back\\slash',
      'line\nbreak\r\ttab',
      '\u0000\u0007\u001b\u007f',
      'sep\u2028\u2029',
      'emoji 🎬 and ünïcödé',
      '\ud800 lone surrogate',
      '"double"',
      '${not a template}',
    ];
    for (const value of tricky) {
      const literal = quote(value);
      expect(literal.startsWith("'") && literal.endsWith("'")).toBe(true);
      expect(literal).not.toMatch(/[\n\r\u2028\u2029]/);
      expect(evaluate(literal)).toBe(value);
    }
    expect(quote("it's")).toBe("'it\\'s'");
  });

  it('writes numbers so they read back as the same number', () => {
    for (const n of [0, -0, 1.5, -2, 0.1, 1e-7, 1e21, 123456789.125, Number.MAX_SAFE_INTEGER]) {
      expect(Object.is(evaluate(numberLiteral(n)), n)).toBe(true);
    }
    expect(numberLiteral(0.25)).toBe('0.25');
  });

  it('quotes only property names that are not identifiers', () => {
    expect(propertyKey('fill')).toBe('fill');
    expect(propertyKey('$schema')).toBe('$schema');
    expect(propertyKey('data-x')).toBe("'data-x'");
    expect(propertyKey('1st')).toBe("'1st'");
  });

  it('prints JSON data as code that evaluates to equal data', () => {
    const data = { a: [1, 'two', { 'b-c': null, d: true }], e: {}, f: [] };
    expect(evaluate(new SourceLayout(20).print(valueCode(data), 0, 0, 0))).toEqual(data);
    expect(evaluate(new SourceLayout().print(valueCode(data), 0, 0, 0))).toEqual(data);
  });
});

describe('SourceLayout', () => {
  const layout = new SourceLayout(40);

  it('keeps what fits on one line', () => {
    const code = callCode('rect', [objectCode([['fill', raw("'#fff'")]])]);
    expect(layout.print(code, 0, 0, 0)).toBe("rect({ fill: '#fff' })");
  });

  it('counts the text before and after on the line when deciding to break', () => {
    const code = arrayCode([raw('1'), raw('2'), raw('3')]);
    expect(layout.print(code, 0, 30, 0)).toBe('[1, 2, 3]');
    expect(layout.print(code, 0, 32, 0)).toBe('[\n  1,\n  2,\n  3,\n]');
    expect(layout.print(code, 0, 30, 2)).toBe('[\n  1,\n  2,\n  3,\n]');
  });

  it('hugs a trailing object or array argument', () => {
    const code = callCode('scene', [
      objectCode([['duration', raw("'2s'")]]),
      arrayCode([callCode('text', [raw("'A first line of text'")]), callCode('text', [raw("'B'")])]),
    ]);
    expect(layout.print(code, 0, 0, 0)).toBe(
      ["scene({ duration: '2s' }, [", "  text('A first line of text'),", "  text('B'),", '])'].join('\n'),
    );
  });

  it('puts every argument on its own line when the leading ones do not fit beside the call', () => {
    const long = objectCode([
      ['duration', raw("'2s'")],
      ['background', raw("'#123456'")],
    ]);
    const code = callCode('scene', [long, arrayCode([raw('x')])]);
    expect(layout.print(code, 0, 0, 0)).toBe(
      ['scene(', '  {', "    duration: '2s',", "    background: '#123456',", '  },', '  [x],', ')'].join(
        '\n',
      ),
    );
  });

  it('does not hug a trailing argument of the same kind as the one before it', () => {
    const code = callCode('f', [
      arrayCode([raw('aaaaaaaaaaaa')]),
      arrayCode([raw('bbbbbbbbbbbbbbbbbbbbbbb')]),
    ]);
    expect(layout.print(code, 0, 0, 0)).toBe('f(\n  [aaaaaaaaaaaa],\n  [bbbbbbbbbbbbbbbbbbbbbbb],\n)');
  });

  it('puts method calls on their own lines under an element that fits', () => {
    const code = chainCode(callCode('text', [raw("'Hello'")]), [
      { name: 'animate', args: [callCode('fadeIn', []), callCode('float', [])] },
      { name: 'keyframes', args: [objectCode([['x', raw('1')]])] },
    ]);
    expect(layout.print(code, 0, 0, 0)).toBe(
      ["text('Hello')", '  .animate(fadeIn(), float())', '  .keyframes({ x: 1 })'].join('\n'),
    );
  });

  it('continues method calls after a broken element', () => {
    const code = chainCode(
      callCode('text', [
        raw("'Hello there'"),
        objectCode([
          ['size', raw('120')],
          ['y', raw('0.4')],
        ]),
      ]),
      [{ name: 'animate', args: [callCode('fadeIn', [])] }],
    );
    expect(new SourceLayout(30).print(code, 0, 0, 0)).toBe(
      ["text('Hello there', {", '  size: 120,', '  y: 0.4,', '}).animate(fadeIn())'].join('\n'),
    );
  });

  it('keeps every line within the width when the parts can break', () => {
    const many = arrayCode(
      Array.from({ length: 12 }, (_, i) =>
        callCode('text', [raw(`'item ${i}'`), objectCode([['size', raw(String(10 * i))]])]),
      ),
    );
    const printed = layout.print(callCode('group', [objectCode([['x', raw('0.5')]]), many]), 0, 0, 0);
    for (const lineText of printed.split('\n')) expect(lineText.length).toBeLessThanOrEqual(40);
    expect(printed.split('\n').length).toBe(14);
  });
});
