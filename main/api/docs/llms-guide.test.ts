import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ELEMENT_KINDS } from '../../../shared/spec/elements.ts';
import { ANIMATION_PRESETS, EASING_NAMES } from '../../../shared/spec/primitives.ts';
import { TRANSITION_TYPES } from '../../../shared/spec/schema.ts';
import { ASPECT_NAMES } from '../../../shared/spec/sizes.ts';
import { parseSpec } from '../../../shared/spec/validate.ts';
import { BUNDLED_FAMILIES } from '../../../shared/fonts/fonts.ts';
import { semanticIssues } from '../../../shared/timeline/check.ts';
import type { ResolvedElement } from '../../../shared/timeline/types.ts';
import { resolveTimeline } from '../../../shared/timeline/resolve.ts';
import { OUTPUT_FORMATS, QUALITIES } from '../../../shared/output/formats.ts';
import { compactJson } from '../../authoring/spec-guide.ts';
import { llmsGuide } from './llms-guide.ts';

const BASE = 'http://127.0.0.1:8080';
const guide = llmsGuide(BASE);
const exampleAssets = fileURLToPath(new URL('../../../examples/assets/', import.meta.url));

function fences(text: string, language: string): string[] {
  const pattern = new RegExp('```' + language + '\\n([\\s\\S]*?)\\n```', 'g');
  return [...text.matchAll(pattern)].map((match) => match[1]!);
}

const jsonBlocks = fences(guide, 'json').map((block) => JSON.parse(block) as unknown);
const specBlocks = jsonBlocks.filter(
  (block): block is Record<string, unknown> =>
    typeof block === 'object' && block !== null && 'kinoSpec' in block,
);

/** Every string under `value` that starts with "asset:". */
function assetSources(value: unknown): string[] {
  if (typeof value === 'string') return value.startsWith('asset:') ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(assetSources);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(assetSources);
  return [];
}

function flatten(elements: readonly ResolvedElement[]): ResolvedElement[] {
  return elements.flatMap((element) => [element, ...flatten(element.children)]);
}

/** A spec must validate, pass the semantic checks, and every animation must start within its scene. */
function expectSound(input: unknown): void {
  const parsed = parseSpec(input);
  if (!parsed.ok) expect(parsed.issues).toEqual([]);
  if (!parsed.ok) return;
  expect(semanticIssues(parsed.spec)).toEqual([]);
  const timeline = resolveTimeline(parsed.spec);
  for (const scene of timeline.scenes) {
    for (const element of flatten(scene.elements)) {
      for (const animation of element.animations) {
        expect(animation.startSeconds).toBeLessThan(scene.durationSeconds);
      }
    }
  }
}

describe('llmsGuide', () => {
  it('embeds at least two complete example specs', () => {
    expect(jsonBlocks.length).toBeGreaterThanOrEqual(2);
    expect(specBlocks.length).toBeGreaterThanOrEqual(2);
    expect(specBlocks.map((spec) => spec['aspect'])).toEqual(expect.arrayContaining(['reels', 'square']));
  });

  it.each(specBlocks.map((spec, i) => [i, spec] as const))(
    'example spec %i validates and passes the semantic checks',
    (_i, spec) => {
      expectSound(spec);
    },
  );

  it("uses only assets that Kino's example project ships", () => {
    const sources = specBlocks.flatMap(assetSources);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources)
      expect(existsSync(exampleAssets + source.slice('asset:'.length))).toBe(true);
  });

  it('names every element type, preset, aspect, transition, easing, font, format and quality', () => {
    const named = [
      ...ELEMENT_KINDS.map((definition) => definition.type),
      ...ANIMATION_PRESETS,
      ...ASPECT_NAMES,
      ...TRANSITION_TYPES,
      ...EASING_NAMES,
      ...Object.keys(BUNDLED_FAMILIES),
    ];
    for (const name of named) expect(guide, name).toContain(`\`${name}\``);
    for (const definition of ELEMENT_KINDS) expect(guide).toContain(`- \`${definition.type}\`:`);
    expect(guide).toContain(`format: ${OUTPUT_FORMATS.join('|')}`);
    expect(guide).toContain(`quality: ${QUALITIES.join('|')}`);
    expect(guide).toContain(`aspect: ${ASPECT_NAMES.join('|')}`);
  });

  it('gives the base URL in the curl examples, with a valid request body', () => {
    const [script] = fences(guide, 'sh');
    expect(script).toBeDefined();
    expect(script).toContain(`curl -sS -X POST ${BASE}/v1/renders`);
    expect(script).toContain(`${BASE}/v1/renders/$ID`);
    expect(script).toContain('Authorization: Bearer $API_TOKEN');
    const body = /-d '([^']*)'/.exec(script!)?.[1];
    expect(body).toBeDefined();
    const request = JSON.parse(body!) as { spec: unknown };
    expectSound(request.spec);
  });

  it('documents the API endpoints and a trailing slash in the base URL does not double up', () => {
    for (const path of ['/v1/renders', '/v1/schema/video-spec', '/v1/docs/openapi.json']) {
      expect(guide).toContain(BASE + path);
    }
    expect(llmsGuide(`${BASE}/`)).toBe(guide);
    expect(guide).toContain('kinoSpec');
    expect(guide).toMatch(/^# Kino render API\n/);
  });

  it('stays concise and leaves no placeholders unfilled', () => {
    expect(guide.split('\n').length).toBeLessThan(300);
    expect(guide).not.toMatch(/undefined|\[object Object\]|\$\{/);
  });
});

describe('compactJson', () => {
  it('prints JSON that parses back to the same value', () => {
    const value = {
      a: 1,
      list: [
        { long: 'x'.repeat(80), n: [1, 2, 3] },
        { b: null, c: true },
      ],
      nested: { deep: { deeper: { text: 'y'.repeat(120) } } },
      empty: {},
    };
    for (const width of [20, 60, 120]) expect(JSON.parse(compactJson(value, '', 0, width))).toEqual(value);
    expect(compactJson({ a: 1, b: [1, 2] })).toBe('{ "a": 1, "b": [1, 2] }');
  });
});
