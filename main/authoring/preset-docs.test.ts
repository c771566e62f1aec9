// Every place that describes the animation presets says what the code does: the README's table, the
// spec guide a model writes from, and the schema's description of the preset field.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../shared/animation/presets.ts';
import type { PresetKind } from '../../shared/animation/presets.ts';
import { ANIMATION_PRESETS, AnimationPresetSchema } from '../../shared/spec/primitives.ts';
import { specGuide } from './spec-guide.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('the preset reference', () => {
  it('has at least 30 presets', () => {
    expect(ANIMATION_PRESETS.length).toBeGreaterThanOrEqual(30);
  });

  it("README: one row per preset, with the code's kind, length and summary", () => {
    const rows = readme
      .split('\n')
      .filter((line) => /^\| `[a-zA-Z]+` \| (entrance|exit|emphasis|loop|lifetime) \|/.test(line));
    expect(rows.map((row) => /`(\w+)`/.exec(row)![1])).toEqual([...ANIMATION_PRESETS]);
    for (const [i, preset] of ANIMATION_PRESETS.entries()) {
      const { kind, durationSeconds, summary } = PRESETS[preset];
      const length = durationSeconds === 'lifetime' ? 'its life' : `${durationSeconds} s`;
      expect(rows[i]).toBe(`| \`${preset}\` | ${kind} | ${length} | ${summary} |`);
    }
  });

  it('the spec guide gives each preset its summary', () => {
    const guide = specGuide();
    for (const preset of ANIMATION_PRESETS) {
      expect(guide).toContain(`\`${preset}\` (${PRESETS[preset].summary})`);
    }
  });

  it("the schema's description lists each preset once, under its kind", () => {
    const description = AnimationPresetSchema.description!;
    const headings: Record<PresetKind, string> = {
      entrance: 'Entrances',
      exit: 'Exits',
      emphasis: 'Emphasis',
      loop: 'Loops',
      lifetime: 'Lifetime',
    };
    const listed = new Map<string, PresetKind>();
    for (const [kind, heading] of Object.entries(headings) as [PresetKind, string][]) {
      const group = new RegExp(`${heading}[^:]*: ([^.]+)\\.`).exec(description);
      expect(group, heading).not.toBeNull();
      for (const name of group![1]!.split(', ')) {
        expect(listed.has(name), name).toBe(false);
        listed.set(name, kind);
      }
    }
    expect(Object.fromEntries(listed)).toEqual(
      Object.fromEntries(ANIMATION_PRESETS.map((preset) => [preset, PRESETS[preset].kind])),
    );
  });
});
