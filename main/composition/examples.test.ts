// The example code compositions: each loads, validates, fits its length, and uses only assets that
// exist; together they show every element, transition and animation preset.
import { access } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ELEMENT_KINDS } from '../../shared/spec/elements.ts';
import type { ModelElement, VideoModel } from '../../shared/spec/model.ts';
import { ANIMATION_PRESETS } from '../../shared/spec/primitives.ts';
import { TRANSITION_TYPES } from '../../shared/spec/schema.ts';
import { ASPECT_NAMES } from '../../shared/spec/sizes.ts';
import { semanticIssues } from '../../shared/timeline/check.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import { loadComposition } from './load.ts';

const examplesDir = fileURLToPath(new URL('../../examples/', import.meta.url));
const NAMES = [
  'product-launch',
  'travel-reel',
  'data-story',
  'brand-intro',
  'interview-clip',
  'release-notes',
];
const models = new Map<string, VideoModel>();

beforeAll(async () => {
  for (const name of NAMES) {
    models.set(name, await loadComposition(path.join(examplesDir, 'compositions', `${name}.ts`)));
  }
});

function elementsOf(model: VideoModel): ModelElement[] {
  const walk = (list: ModelElement[]): ModelElement[] =>
    list.flatMap((element) => [
      element,
      ...(element.type === 'group' ? walk(element.children as ModelElement[]) : []),
    ]);
  return walk(model.scenes.flatMap((scene) => scene.elements ?? []));
}

/** Every media source in the model: element sources, backgrounds and audio. */
function sourcesOf(model: VideoModel): string[] {
  const found: string[] = [];
  JSON.stringify(model, (key, value: unknown) => {
    if (key === 'src' && typeof value === 'string') found.push(value);
    return value;
  });
  return found;
}

describe.each(NAMES)('%s', (name) => {
  it('lasts 6 to 12 seconds in every aspect, with no timing problems', () => {
    const model = models.get(name)!;
    expect(semanticIssues(model)).toEqual([]);
    for (const aspect of ASPECT_NAMES) {
      const { durationSeconds } = resolveTimeline(model, { aspect });
      expect(durationSeconds).toBeGreaterThanOrEqual(6);
      expect(durationSeconds).toBeLessThanOrEqual(12);
    }
  });

  it('uses only assets that exist, with music and sound effects', async () => {
    const model = models.get(name)!;
    const sources = sourcesOf(model);
    for (const src of sources) {
      expect(src).toMatch(/^asset:/);
      await access(path.join(examplesDir, 'assets', src.slice('asset:'.length)));
    }
    expect(model.audio?.length).toBeGreaterThan(0);
    expect(model.scenes.some((scene) => (scene.audio?.length ?? 0) > 0)).toBe(true);
  });

  it('uses a display face for headlines', () => {
    const texts = elementsOf(models.get(name)!).filter((e) => e.type === 'text');
    expect(texts.some((e) => 'font' in e && e.font === 'display')).toBe(true);
  });
});

describe('the examples together', () => {
  const all = () => [...models.values()];

  it('show every element type, custom included', () => {
    const types = new Set(
      all()
        .flatMap(elementsOf)
        .map((e) => e.type),
    );
    expect(types).toEqual(new Set([...ELEMENT_KINDS.map((d) => d.type), 'custom']));
  });

  it('show every transition and every animation preset', () => {
    const transitions = new Set(all().flatMap((m) => m.scenes.map((s) => s.transition?.type)));
    for (const type of TRANSITION_TYPES) expect(transitions, type).toContain(type);
    const presets = new Set(
      all()
        .flatMap(elementsOf)
        .flatMap((e) => (e.animate ?? []).map((a) => a.preset)),
    );
    expect([...presets].sort()).toEqual([...ANIMATION_PRESETS].sort());
  });

  it('show keyframes, springs and group stagger', () => {
    const elements = all().flatMap(elementsOf);
    expect(elements.some((e) => e.keyframes && Object.keys(e.keyframes).length > 0)).toBe(true);
    expect(
      elements.some((e) =>
        (e.animate ?? []).some((a) => typeof a.easing === 'object' && 'spring' in a.easing),
      ),
    ).toBe(true);
    expect(elements.some((e) => e.type === 'group' && e.stagger !== undefined)).toBe(true);
  });
});
