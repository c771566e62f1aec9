// Every schema Kino sends a provider, run through that provider's structured-output rules; and the
// rules themselves, shown to refuse what the providers refuse.
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { videoSpecJsonSchema } from '../../shared/spec/json-schema.ts';
import { parseSpec } from '../../shared/spec/validate.ts';
import { answerFormat } from './answer-format.ts';
import { EDIT_PATCH_SCHEMA, applyEdit, decodePatch } from './edit-patch.ts';
import { authoringSpecSchema, toOpenAiStrict, withoutNulls } from './model-schema.ts';
import { schemaViolations } from './provider-schema-rules.ts';
import type { SchemaRuleSet } from './provider-schema-rules.ts';
import { AI_PROVIDERS } from './providers.ts';
import type { AiProviderName } from './providers.ts';
import { TWO_SCENE_SPEC, withStrictNulls } from './provider-stand-in.fixture.ts';
import type { VideoSpec } from '../../shared/spec/schema.ts';

/** The rules a provider holds the schema of each kind of call to. */
const RULES: Record<AiProviderName, Record<'prompt' | 'edit', SchemaRuleSet | 'json-schema'>> = {
  openai: { prompt: 'openai-strict', edit: 'openai-strict' },
  // A recursive spec schema goes as the plain json tool; the small patch schema as output_config.
  anthropic: { prompt: 'anthropic-tool', edit: 'anthropic-output-format' },
  google: { prompt: 'google', edit: 'google' },
  // A local server compiles any valid JSON Schema to a grammar.
  'openai-compatible': { prompt: 'json-schema', edit: 'json-schema' },
};

const ajv = new Ajv2020({ strict: false });
const message = (violations: { at: string; message: string }[]) =>
  violations.map((violation) => `${violation.at}: ${violation.message}`).join('\n');

describe('the schemas Kino sends', () => {
  for (const provider of AI_PROVIDERS) {
    for (const kind of ['prompt', 'edit'] as const) {
      it(`${provider} ${kind}: within the provider's rules, and a valid JSON Schema`, () => {
        const { schema } = answerFormat(provider, kind);
        const rules = RULES[provider][kind];
        if (rules !== 'json-schema') expect(message(schemaViolations(schema, rules))).toBe('');
        expect(() => ajv.compile(schema)).not.toThrow();
      });
    }
  }

  it('the compact spec schema is a fraction of the validation schema, and a spec valid for one is valid for the other', () => {
    const compact = JSON.stringify(authoringSpecSchema());
    const full = JSON.stringify(videoSpecJsonSchema());
    expect(compact.length).toBeLessThan(40_000);
    expect(full.length / compact.length).toBeGreaterThan(5);
    const validate = ajv.compile(authoringSpecSchema());
    expect(validate(TWO_SCENE_SPEC), ajv.errorsText(validate.errors)).toBe(true);
    // Fields a model never writes are not offered.
    expect(validate({ ...TWO_SCENE_SPEC, variables: {} })).toBe(false);
  });

  it('a strict answer, nulls and all, reads back as the spec it stands for', () => {
    const strict = toOpenAiStrict(authoringSpecSchema());
    const spec = {
      kinoSpec: 1,
      aspect: 'square',
      scenes: [
        {
          duration: 2,
          elements: [
            {
              type: 'text',
              text: 'Hi',
              animate: [{ preset: 'pop' }],
              keyframes: { opacity: [{ at: 0, value: 0 }] },
            },
            { type: 'rect', fill: '#ff0000', width: 100, height: 100 },
          ],
        },
      ],
    };
    // What a strict model writes: every property present, null where not given.
    const answer = withStrictNulls(spec, strict, strict);
    const validate = ajv.compile(strict);
    expect(validate(answer), ajv.errorsText(validate.errors)).toBe(true);
    expect(JSON.stringify(answer)).toContain('"shadow":null');
    const read = withoutNulls(answer);
    expect(read).toEqual(spec);
    expect(parseSpec(read).ok).toBe(true);
  });
});

describe('schemaViolations', () => {
  it('refuses the validation schema for OpenAI strict mode, as OpenAI does', () => {
    const violations = message(schemaViolations(videoSpecJsonSchema(), 'openai-strict'));
    expect(violations).toContain(
      "'required' is required to be supplied and to be an array including every key in properties",
    );
    expect(violations).toContain("'$schema' is not permitted");
    expect(violations).toContain("'propertyNames' is not permitted");
  });

  it('holds OpenAI to its limits: properties, nesting, enum values', () => {
    const object = (properties: Record<string, unknown>) => ({
      type: 'object',
      properties,
      required: Object.keys(properties),
      additionalProperties: false,
    });
    let deep: Record<string, unknown> = object({ leaf: { type: 'string' } });
    for (let level = 0; level < 10; level++) deep = object({ inner: deep });
    expect(message(schemaViolations(deep, 'openai-strict'))).toMatch(
      /levels of object nesting: 11, over the limit of 10/,
    );
    const wide = object(
      Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`p${i}`, { type: 'number' }])),
    );
    expect(message(schemaViolations(wide, 'openai-strict'))).toMatch(/object properties in total: 5001/);
    const enums = object({ e: { type: 'string', enum: Array.from({ length: 1001 }, (_, i) => `v${i}`) } });
    expect(message(schemaViolations(enums, 'openai-strict'))).toMatch(/enum values in total: 1001/);
    const optional = { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false };
    expect(message(schemaViolations(optional, 'openai-strict'))).toMatch(/Missing 'a'/);
    expect(message(schemaViolations({ anyOf: [optional] }, 'openai-strict'))).toMatch(/type: "object"/);
  });

  it("refuses for Anthropic's output_config what Anthropic refuses: recursion, bounds, too many optional fields", () => {
    const compact = authoringSpecSchema();
    const violations = message(schemaViolations(compact, 'anthropic-output-format'));
    expect(violations).toContain('recursive schemas are not supported');
    expect(violations).toContain("'minimum' is not supported");
    expect(violations).toMatch(/too many optional parameters/);
    expect(message(schemaViolations(EDIT_PATCH_SCHEMA, 'anthropic-output-format'))).toBe('');
  });

  it('refuses keywords Gemini does not know', () => {
    expect(message(schemaViolations(authoringSpecSchema(), 'google'))).toContain('Unknown name "pattern"');
  });
});

describe('edit patches', () => {
  const base = TWO_SCENE_SPEC as unknown as VideoSpec;

  it('reads values from JSON text and applies them', () => {
    const answer = {
      patch: [
        { op: 'replace', path: '/scenes/1/background', from: null, value: '"#1e3a8a"' },
        {
          op: 'add',
          path: '/scenes/0/elements/-',
          from: null,
          value: '{"type":"text","text":"New","size":80}',
        },
        { op: 'remove', path: '/fps', from: null, value: null },
      ],
    };
    const result = applyEdit(base, answer);
    expect(result).toMatchObject({
      value: {
        scenes: [{ elements: [{}, { type: 'text', text: 'New', size: 80 }] }, { background: '#1e3a8a' }],
      },
    });
    expect((result as { value: { fps?: number } }).value.fps).toBeUndefined();
  });

  it('says which operation is wrong and why, at its pointer', () => {
    expect(decodePatch({ patch: [{ op: 'replace', path: '/x', from: null, value: '#1e3a8a' }] })).toEqual({
      errors: [{ pointer: '/patch/0/value', message: '"value" is not JSON text: #1e3a8a' }],
    });
    expect(decodePatch({ patch: [{ op: 'move', path: '/x', from: null, value: null }] })).toMatchObject({
      errors: [{ pointer: '/patch/0/from' }],
    });
    expect(decodePatch(TWO_SCENE_SPEC)).toMatchObject({ errors: [{ pointer: '/patch' }] });
    expect(
      applyEdit(base, {
        patch: [{ op: 'replace', path: '/scenes/9/background', from: null, value: '"red"' }],
      }),
    ).toMatchObject({ errors: [{ pointer: '/patch/0', message: expect.stringMatching(/cannot apply/) }] });
  });
});
