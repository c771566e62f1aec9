import { describe, expect, it } from 'vitest';
import { parseSpec } from './validate.ts';
import { MAX_BOUND_GROWTH } from './variable-schema.ts';
import { bindVariables, variableFromText } from './variables.ts';

function card(extra: Record<string, unknown> = {}) {
  return {
    kinoSpec: 1,
    variables: {
      name: { type: 'string', description: 'Whose card' },
      price: { type: 'number', default: 19.5, min: 0, max: 1000 },
      accent: { type: 'color', default: '#22c55e' },
      photo: { type: 'image', default: 'asset:photo-city.jpg' },
      sale: { type: 'boolean', default: false },
    },
    scenes: [
      {
        duration: '2s',
        elements: [
          { type: 'image', src: { var: 'photo' } },
          {
            type: 'group',
            children: [
              {
                type: 'group',
                children: [
                  {
                    type: 'text',
                    text: 'Hi {{name}}: {{ price }} € (sale {{sale}})',
                    color: { var: 'accent' },
                  },
                ],
              },
            ],
          },
          { type: 'rect', width: { var: 'price' }, fill: { var: 'accent' } },
        ],
      },
    ],
    ...extra,
  };
}

const nestedText = (spec: unknown) =>
  (spec as { scenes: { elements: { children: { children: { text: string; color: string }[] }[] }[] }[] })
    .scenes[0]!.elements[1]!.children[0]!.children[0]!;

describe('bindVariables', () => {
  it('puts values into nested strings and whole values, defaults where none is given', () => {
    const bound = bindVariables(card(), { name: 'Ada' });
    expect(bound.ok).toBe(true);
    if (!bound.ok) return;
    expect(nestedText(bound.spec)).toEqual({
      type: 'text',
      text: 'Hi Ada: 19.5 € (sale false)',
      color: '#22c55e',
    });
    const [image, , rect] = (bound.spec as { scenes: { elements: unknown[] }[] }).scenes[0]!.elements;
    expect(image).toEqual({ type: 'image', src: 'asset:photo-city.jpg' });
    expect(rect).toEqual({ type: 'rect', width: 19.5, fill: '#22c55e' });
    expect(bound.values).toEqual({
      name: 'Ada',
      price: 19.5,
      accent: '#22c55e',
      photo: 'asset:photo-city.jpg',
      sale: false,
    });
    // The bound spec is an ordinary spec: no declarations left, and it validates.
    expect(bound.spec).not.toHaveProperty('variables');
    expect(parseSpec(bound.spec)).toMatchObject({ ok: true });
  });

  it('is the only way to render a template: validation refuses one left unbound', () => {
    expect(parseSpec(card())).toMatchObject({
      ok: false,
      issues: [{ pointer: '/variables', message: expect.stringContaining('bind its variables first') }],
    });
  });

  it('takes given values over defaults, typed as declared', () => {
    const bound = bindVariables(card(), { name: 'Bo', price: 0, accent: 'rebeccapurple', sale: true });
    if (!bound.ok) throw new Error('expected ok');
    expect(nestedText(bound.spec).text).toBe('Hi Bo: 0 € (sale true)');
    expect(nestedText(bound.spec).color).toBe('rebeccapurple');
  });

  it('names a missing required variable', () => {
    expect(bindVariables(card(), {})).toEqual({
      ok: false,
      issues: [
        {
          in: 'variables',
          pointer: '/name',
          message: 'variable "name" (string) is required: the template gives it no default',
        },
      ],
    });
  });

  it('names an unknown variable and lists the declared ones', () => {
    const bound = bindVariables(card(), { name: 'Ada', colour: 'red' });
    expect(bound).toEqual({
      ok: false,
      issues: [
        {
          in: 'variables',
          pointer: '/colour',
          message: 'unknown variable "colour": this template declares accent, name, photo, price, sale',
        },
      ],
    });
  });

  it('refuses values of the wrong type, each at its name', () => {
    const bound = bindVariables(card(), {
      name: 42,
      price: '12',
      accent: 'blurple',
      photo: '',
      sale: 'yes',
    });
    expect(bound.ok).toBe(false);
    if (bound.ok) return;
    expect(bound.issues.map((issue) => [issue.pointer, issue.message])).toEqual([
      ['/name', 'variable "name" (string): expected a string, got 42'],
      ['/price', 'variable "price" (number): expected a number, got "12"'],
      ['/accent', 'variable "accent" (color): expected a CSS colour, got "blurple"'],
      [
        '/photo',
        'variable "photo" (image): expected an image source ("asset:<path>" or an allowed URL), got ""',
      ],
      ['/sale', 'variable "sale" (boolean): expected true or false, got "yes"'],
    ]);
  });

  it('keeps numbers inside min and max, strings inside maxLength', () => {
    const price = bindVariables(card(), { name: 'Ada', price: 1001 });
    expect(price).toMatchObject({
      ok: false,
      issues: [{ pointer: '/price', message: expect.stringContaining('at most 1000') }],
    });
    const short = {
      kinoSpec: 1,
      variables: { name: { type: 'string', maxLength: 3 } },
      scenes: [{ duration: 1, elements: [{ type: 'text', text: '{{name}}' }] }],
    };
    expect(bindVariables(short, { name: 'Ada' }).ok).toBe(true);
    expect(bindVariables(short, { name: 'Adam' })).toMatchObject({
      ok: false,
      issues: [{ pointer: '/name', message: 'variable "name" (string): must be at most 3 characters' }],
    });
  });

  it('binds values inside overlays, and points at an undeclared name there', () => {
    const overlays = [
      { type: 'text', text: '{{name}} · {{price}} €', color: { var: 'accent' } },
      { type: 'image', src: { var: 'photo' }, width: 80, height: 80 },
    ];
    const bound = bindVariables(card({ overlays }), { name: 'Ada' });
    if (!bound.ok) throw new Error(JSON.stringify(bound.issues));
    expect((bound.spec as { overlays: unknown[] }).overlays).toEqual([
      { type: 'text', text: 'Ada · 19.5 €', color: '#22c55e' },
      { type: 'image', src: 'asset:photo-city.jpg', width: 80, height: 80 },
    ]);
    expect(parseSpec(bound.spec)).toMatchObject({ ok: true });
    const unknown = bindVariables(card({ overlays: [{ type: 'text', text: '{{nickname}}' }] }), {
      name: 'Ada',
    });
    expect(unknown).toMatchObject({ ok: false, issues: [{ in: 'spec', pointer: '/overlays/0/text' }] });
  });

  it('reports a use of an undeclared name where it stands', () => {
    const spec = card();
    (spec.scenes[0]!.elements[2] as Record<string, unknown>).height = { var: 'tall' };
    nestedText(spec).text = '{{nickname}}';
    const bound = bindVariables(spec, { name: 'Ada' });
    expect(bound).toMatchObject({
      ok: false,
      issues: [
        {
          in: 'spec',
          pointer: '/scenes/0/elements/1/children/0/children/0/text',
          message: 'unknown variable "nickname": declare it under "variables"',
        },
        { in: 'spec', pointer: '/scenes/0/elements/2/height', message: expect.stringContaining('"tall"') },
      ],
    });
  });

  it('checks the declarations: types, names and defaults', () => {
    const bad = card({
      variables: {
        'bad-name': { type: 'string' },
        size: { type: 'number', default: 'big' },
        x: { type: 'font' },
      },
    });
    const bound = bindVariables(bad, {});
    expect(bound.ok).toBe(false);
    if (bound.ok) return;
    const pointers = bound.issues.map((issue) => issue.pointer);
    expect(pointers).toContain('/variables/bad-name');
    expect(pointers).toContain('/variables/x/type');
    expect(bound.issues.every((issue) => issue.in === 'spec')).toBe(true);
  });

  it('leaves a spec without variables as it is, {{ text included, and takes no values', () => {
    const plain = { kinoSpec: 1, scenes: [{ duration: 1, elements: [{ type: 'text', text: 'Use {{x}}' }] }] };
    expect(bindVariables(plain)).toEqual({ ok: true, spec: plain, variables: undefined, values: {} });
    expect(bindVariables(plain, { x: 1 })).toMatchObject({
      ok: false,
      issues: [
        { in: 'variables', pointer: '/x', message: 'unknown variable "x": this video declares no variables' },
      ],
    });
  });

  it('bounds what repeated long values can cost', () => {
    const many = Array.from({ length: 300 }, () => ({ type: 'text', text: '{{name}}' }));
    const spec = card({ scenes: [{ duration: 1, elements: many }] });
    const long = 'x'.repeat(9_000);
    expect(300 * long.length).toBeGreaterThan(MAX_BOUND_GROWTH);
    expect(bindVariables(spec, { name: long })).toMatchObject({
      ok: false,
      issues: [{ in: 'spec', pointer: '', message: expect.stringContaining('over the limit') }],
    });
  });

  it('counts whole-value references of long strings against the same bound', () => {
    const many = Array.from({ length: 300 }, () => ({ type: 'text', text: { var: 'name' } }));
    const spec = card({ scenes: [{ duration: 1, elements: many }] });
    expect(bindVariables(spec, { name: 'x'.repeat(9_000) })).toMatchObject({
      ok: false,
      issues: [{ in: 'spec', pointer: '', message: expect.stringContaining('over the limit') }],
    });
  });

  it('keeps a "__proto__" key as data and refuses it as a variable name', () => {
    const spec = JSON.parse(
      '{"kinoSpec":1,"variables":{"name":{"type":"string","default":"A"}},"scenes":[{"duration":1,"elements":[{"type":"text","text":"{{name}}","__proto__":{"size":9}}]}]}',
    ) as unknown;
    const bound = bindVariables(spec);
    if (!bound.ok) throw new Error('expected ok');
    const element = (bound.spec as { scenes: { elements: Record<string, unknown>[] }[] }).scenes[0]!
      .elements[0]!;
    expect(Object.hasOwn(element, '__proto__')).toBe(true);
    expect(element.size).toBeUndefined();
    // Strict validation still sees the unknown field.
    expect(parseSpec(bound.spec)).toMatchObject({ ok: false });
    const named = JSON.parse(
      '{"kinoSpec":1,"variables":{"__proto__":{"type":"string"}},"scenes":[{"duration":1}]}',
    ) as unknown;
    expect(bindVariables(named)).toMatchObject({ ok: false, issues: [{ pointer: '/variables/__proto__' }] });
  });

  it('refuses limits that do not fit the type, and a range that is empty', () => {
    const bound = bindVariables(
      card({
        variables: {
          name: { type: 'string', min: 1 },
          price: { type: 'number', min: 10, max: 5, maxLength: 3 },
        },
      }),
      {},
    );
    expect(bound.ok).toBe(false);
    if (bound.ok) return;
    expect(bound.issues.map((issue) => [issue.pointer, issue.message])).toEqual([
      ['/variables/name/min', 'min applies to number variables only'],
      ['/variables/price/max', 'max (5) is below min (10)'],
      ['/variables/price/maxLength', 'maxLength applies to string variables only'],
    ]);
  });

  it('takes a choice only from its options, and checks the options themselves', () => {
    const choice = {
      kinoSpec: 1,
      variables: {
        layout: { type: 'string', options: ['left', 'right'], default: 'left' },
        columns: { type: 'number', options: [1, 2, 3] },
      },
      scenes: [{ duration: 1, elements: [{ type: 'text', text: '{{layout}} {{columns}}' }] }],
    };
    expect(bindVariables(choice, { layout: 'right', columns: 2 }).ok).toBe(true);
    expect(bindVariables(choice, { layout: 'middle', columns: 4 })).toMatchObject({
      ok: false,
      issues: [
        { pointer: '/layout', message: 'variable "layout" (string): must be one of "left", "right"' },
        { pointer: '/columns', message: 'variable "columns" (number): must be one of 1, 2, 3' },
      ],
    });
    const wrong = bindVariables(
      {
        ...choice,
        variables: {
          layout: { type: 'string', options: ['left', 'far too long'], maxLength: 5, default: 'up' },
          on: { type: 'boolean', options: ['yes'] },
        },
      },
      {},
    );
    expect(wrong.ok).toBe(false);
    if (wrong.ok) return;
    expect(wrong.issues.map((issue) => [issue.pointer, issue.message])).toEqual([
      ['/variables/layout/options/1', 'must be at most 5 characters'],
      ['/variables/layout/default', 'must be one of "left", "far too long"'],
      ['/variables/on/options', 'options apply to string and number variables only'],
    ]);
  });

  it('refuses a spec nested too deep to walk safely', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200; i += 1) deep = [deep];
    const spec = card({ title: deep });
    expect(bindVariables(spec, { name: 'Ada' })).toMatchObject({
      ok: false,
      issues: [{ in: 'spec', message: 'nested deeper than 100 levels' }],
    });
  });
});

describe('variableFromText', () => {
  it('reads numbers and booleans by the declared type and keeps other text', () => {
    expect(variableFromText({ type: 'number' }, ' 12.5 ')).toBe(12.5);
    expect(variableFromText({ type: 'number' }, 'twelve')).toBe('twelve');
    expect(variableFromText({ type: 'number' }, '')).toBe('');
    expect(variableFromText({ type: 'number' }, '-1.5e3')).toBe(-1500);
    for (const text of ['0x10', '0b101', 'Infinity', '1_000', '12px']) {
      expect(variableFromText({ type: 'number' }, text)).toBe(text);
    }
    expect(variableFromText({ type: 'boolean' }, 'Yes')).toBe(true);
    expect(variableFromText({ type: 'boolean' }, 'off')).toBe(false);
    expect(variableFromText({ type: 'string' }, '42')).toBe('42');
    expect(variableFromText(undefined, '42')).toBe('42');
  });
});
