import { describe, expect, it } from 'vitest';
import { ELEMENT_KINDS } from '../spec/elements.ts';
import type { SpecElement } from '../spec/elements.ts';
import { ANIMATION_PRESETS } from '../spec/primitives.ts';
import { TRANSITION_TYPES } from '../spec/schema.ts';
import type { VideoSpec } from '../spec/schema.ts';
import { parseSpec } from '../spec/validate.ts';
import * as kino from './index.ts';
import { specToCode } from './print.ts';
import { SAMPLE_SPECS, TEMPLATE_SPEC } from './sample-specs.fixture.ts';
import { buildTemplate, isKinoTemplate, templateSpec } from './template.ts';
import type { KinoTemplate } from './template.ts';
import { bindVariables } from '../spec/variables.ts';

const IMPORT = /^import \{([^}]*)\} from 'kino';\n\n/;

/** Runs printed code against the real builder API: the imports become parameters. */
function runPrinted(code: string): unknown {
  const match = IMPORT.exec(code);
  if (!match) throw new Error(`no kino import in:\n${code}`);
  const names = match[1]!
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const body = code.slice(match[0].length).replace(/^export default /, 'return ');
  const api = kino as unknown as Record<string, unknown>;
  return new Function(...names, body)(...names.map((name) => api[name]));
}

function importedNames(code: string): string[] {
  return IMPORT.exec(code)![1]!
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

function elementsOf(spec: VideoSpec): SpecElement[] {
  const walk = (list: SpecElement[]): SpecElement[] =>
    list.flatMap((element) => [element, ...(element.type === 'group' ? walk(element.children) : [])]);
  return walk(spec.scenes.flatMap((scene) => scene.elements ?? []));
}

describe('specToCode', () => {
  it('covers every element type, preset and transition in the sample specs', () => {
    const all = Object.values(SAMPLE_SPECS);
    const elements = all.flatMap(elementsOf);
    expect(new Set(elements.map((e) => e.type))).toEqual(new Set(ELEMENT_KINDS.map((d) => d.type)));
    expect(new Set(elements.flatMap((e) => e.animate ?? []).map((a) => a.preset))).toEqual(
      new Set(ANIMATION_PRESETS),
    );
    const transitions = all.flatMap((spec) => spec.scenes.map((scene) => scene.transition?.type));
    expect(new Set(transitions.filter(Boolean))).toEqual(new Set(TRANSITION_TYPES));
  });

  for (const [name, spec] of Object.entries(SAMPLE_SPECS)) {
    describe(name, () => {
      const code = specToCode(spec);

      it('is a valid spec to begin with', () => {
        expect(parseSpec(spec)).toMatchObject({ ok: true });
      });

      it('prints code that builds the same model', () => {
        expect(runPrinted(code)).toEqual(JSON.parse(JSON.stringify(spec)));
      });

      it('imports exactly the helpers it calls, sorted', () => {
        const names = importedNames(code);
        expect(names).toEqual([...names].sort());
        const body = code.slice(IMPORT.exec(code)![0].length);
        const called = new Set([...body.matchAll(/(?<![.\w'])([A-Za-z]\w*)\(/g)].map((m) => m[1]!));
        expect(new Set(names)).toEqual(called);
      });

      it('fits lines in 100 columns with 2-space indents and no undefined', () => {
        for (const line of code.split('\n')) {
          const indent = /^ */.exec(line)![0].length;
          expect(indent % 2, line).toBe(0);
          // Only a single unbreakable literal may run past the width.
          if (line.length > 100) expect(line.trim()).toMatch(/^'[^']*',?$/);
        }
        expect(code).not.toContain('undefined');
        expect(code.endsWith(');\n')).toBe(true);
      });

      it('prints the same code every time', () => {
        expect(specToCode(structuredClone(spec))).toBe(code);
      });
    });
  }

  it('prints elements as builder calls with positional args and animate chains', () => {
    const code = specToCode({
      kinoSpec: 1,
      aspect: 'reels',
      scenes: [
        {
          duration: '3s',
          elements: [
            {
              type: 'text',
              text: 'Hello',
              size: 120,
              y: 0.4,
              animate: [{ preset: 'fadeIn', duration: '0.8s' }],
            },
            { type: 'path', d: 'M0 0 L10 10', fill: '#fff' },
          ],
        },
      ],
    });
    expect(code).toBe(
      [
        "import { fadeIn, path, scene, text, video } from 'kino';",
        '',
        "export default video({ aspect: 'reels' }, [",
        "  scene({ duration: '3s' }, [",
        "    text('Hello', { y: 0.4, size: 120 }).animate(fadeIn({ duration: '0.8s' })),",
        "    path('M0 0 L10 10', { fill: '#fff' }),",
        '  ]),',
        ']);',
        '',
      ].join('\n'),
    );
  });

  it('prints aspect overrides as .aspect() calls in aspect order, scenes’ as a field, and round-trips', () => {
    const spec: VideoSpec = {
      kinoSpec: 1,
      aspect: 'landscape',
      scenes: [
        {
          duration: 2,
          aspects: { reels: { background: '#000000' } },
          elements: [
            { type: 'text', text: 'Hi', x: 0.3, aspects: { square: {}, reels: { x: 0.5, size: 64 } } },
            {
              type: 'group',
              aspects: {},
              children: [{ type: 'rect', aspects: { portrait45: { width: 90 } } }],
            },
          ],
        },
      ],
    };
    const code = specToCode(spec);
    expect(code).toContain(
      "text('Hi', { x: 0.3 }).aspect('reels', { x: 0.5, size: 64 }).aspect('square', {})",
    );
    expect(code).toContain("rect().aspect('portrait45', { width: 90 })");
    expect(code).toContain("aspects: { reels: { background: '#000000' } }");
    expect(runPrinted(code)).toEqual(spec);
  });

  it('prints fields in schema order whatever order the spec wrote them in', () => {
    const written: VideoSpec = {
      scenes: [{ elements: [{ y: 0.2, size: 40, text: 'A', type: 'text' }], duration: 1 }],
      fps: 24,
      kinoSpec: 1,
      aspect: 'square',
    };
    const code = specToCode(written);
    expect(code).toContain("video({ fps: 24, aspect: 'square' }, [");
    expect(code).toContain("scene({ duration: 1 }, [text('A', { y: 0.2, size: 40 })])");
  });

  it('prints the soundtrack after the scenes and scene audio as sfx', () => {
    const code = specToCode({
      kinoSpec: 1,
      audio: [{ src: 'asset:music.m4a', volume: 0.6 }],
      scenes: [{ duration: 2, audio: [{ src: 'asset:click.wav' }] }],
    });
    expect(code).toContain("scene({ duration: 2, audio: [sfx('asset:click.wav')] })");
    expect(code.replace(/\s+/g, ' ')).toContain("{ audio: [music('asset:music.m4a', { volume: 0.6 })], }");
    expect(code.indexOf('sfx(')).toBeLessThan(code.indexOf('music('));
  });

  it('names an element type it does not know', () => {
    const spec = {
      kinoSpec: 1,
      scenes: [{ duration: 1, elements: [{ type: 'hologram' }] }],
    } as unknown as VideoSpec;
    expect(() => specToCode(spec)).toThrow('unknown element type "hologram"');
  });
});

describe('specToCode of a template', () => {
  const code = specToCode(TEMPLATE_SPEC);

  it('prints template(variables, (v) => video(...)) with v.name for each use', () => {
    expect(code).toContain('export default template(');
    expect(code).toContain('(v) =>');
    expect(code).toContain("text(`“${v.quote}”`, { y: 0.42, size: v.size, color: '#ffffff' })");
    expect(code).toContain('text(v.author, { y: 0.7, size: 40, color: v.accent })');
    expect(code).toContain('src: v.photo');
    expect(code).toContain('\\`\\${not a variable}\\`');
  });

  it('leaves an undeclared name as text, so the printed code fails to bind as the spec does', () => {
    const spec = structuredClone(TEMPLATE_SPEC);
    (spec.scenes[0]!.elements![1] as { text: string }).text = '{{author}} and {{other}}';
    expect(specToCode(spec)).toContain('`${v.author} and {{other}}`');
  });

  it('refuses a variable that would pick an element type, which code cannot print', () => {
    const spec = structuredClone(TEMPLATE_SPEC);
    (spec.scenes[0]!.elements![2] as { type: string }).type = '{{quote}}';
    expect(() => specToCode(spec)).toThrow(
      "a variable cannot choose an element's, animation's or transition's type",
    );
  });

  it('gives back the same template spec', async () => {
    const printed = runPrinted(code);
    expect(isKinoTemplate(printed)).toBe(true);
    const spec = await templateSpec(printed as KinoTemplate);
    // {{ size }} is read back without its spaces: the same placeholder.
    const expected = JSON.parse(JSON.stringify(TEMPLATE_SPEC).replace('{{ size }}', '{{size}}'));
    expect(spec).toEqual(expected);
  });

  it('builds the same video from values as binding the spec does', async () => {
    const values = { author: 'Grace Hopper', size: 96, loud: true };
    const template = runPrinted(code) as KinoTemplate;
    const bound = bindVariables(TEMPLATE_SPEC, values);
    if (!bound.ok) throw new Error(JSON.stringify(bound.issues));
    const fromCode = await buildTemplate(template, bound.values);
    expect(JSON.parse(JSON.stringify(fromCode))).toEqual(bound.spec);
    expect(parseSpec(bound.spec)).toMatchObject({ ok: true });
  });
});
