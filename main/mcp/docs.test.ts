import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { KinoDocs } from './docs.ts';

const EXAMPLES = fileURLToPath(new URL('../../examples', import.meta.url));

describe('KinoDocs', () => {
  const docs = new KinoDocs(EXAMPLES);

  it('has the workflow, the whole guide, each of its sections, the examples, code and the project', async () => {
    const names = (await docs.all()).map((doc) => doc.name);
    expect(names.slice(0, 2)).toEqual(['mcp/workflow', 'spec']);
    expect(names).toEqual(
      expect.arrayContaining([
        'spec/units',
        'spec/backgrounds',
        'spec/elements',
        'spec/animation',
        'spec/transitions',
        'spec/audio-and-media',
        'spec/rules-agents-often-get-wrong',
        'example/reels-text-image-transition',
        'example/square-shapes',
        'code',
        'project/product-launch',
        'project/stats',
      ]),
    );
    expect(new Set(names).size).toBe(names.length);
    for (const doc of await docs.all()) expect(doc.summary.length, doc.name).toBeGreaterThan(10);
  });

  it('serves a composition of the project as its source', async () => {
    const doc = await docs.get('project/product-launch');
    expect(doc?.text).toMatch(/^```ts\n/);
    expect(doc?.text).toContain("from 'kino'");
    expect(await docs.get('project/nope')).toBeUndefined();
  });

  it('finds the section a question is about, with the passage that matched', async () => {
    const [first] = await docs.search('transitions');
    expect(first?.name).toBe('spec/transitions');
    expect(first?.excerpt.toLowerCase()).toContain('transition');
    // Markdown around a term does not hide it (`keyframes` in backticks), and the guide outranks code.
    const keyframes = (await docs.search('keyframes opacity')).map((hit) => hit.name);
    expect(keyframes.slice(0, 2)).toEqual(expect.arrayContaining(['spec/animation']));
    expect((await docs.search('font weight'))[0]?.name).toBe('spec/elements');
    const [code] = await docs.search('builder typescript composition');
    expect(code?.name).toBe('code');
    expect(await docs.search('zzzzqqqq')).toEqual([]);
  });
});
