import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { VideoModel } from '../../shared/spec/model.ts';
import { loadComposition } from '../composition/load.ts';
import { projectContext } from '../engine/project-context.ts';
import { projectForFile } from '../project/load.ts';
import { inspectComposition } from './inspect.ts';

const fixtures = fileURLToPath(new URL('../../e2e/fixtures/findings', import.meta.url));
const travelReel = fileURLToPath(new URL('../../examples/compositions/travel-reel.ts', import.meta.url));

describe('inspectComposition', () => {
  it('gives the timeline and resources of a composition that is fine, without warnings', async () => {
    const model = await loadComposition(travelReel);
    const project = await projectContext(await projectForFile(travelReel));
    const result = await inspectComposition({ model, project, aspect: 'square' });
    expect(result.warnings).toEqual([]);
    expect(result.timeline).toMatchObject({ width: 1080, height: 1080, durationFrames: 285 });
    expect(result.resources.assets).toHaveLength(5);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('warns about spec issues, sources that cannot be had and undeclared fonts', async () => {
    const project = await projectContext(await projectForFile(join(fixtures, 'kino.json')));
    const model: VideoModel = {
      kinoSpec: 1,
      scenes: [
        {
          duration: 1,
          elements: [
            { type: 'image', src: 'asset:crad.png' },
            { type: 'text', text: 'Hi', font: 'Brand', start: 2 },
          ],
        },
      ],
    };
    const { warnings } = await inspectComposition({ model, project });
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/^\/scenes\/0\/elements\/1\/start: starts at/);
    expect(warnings[1]).toMatch(/^image "asset:crad.png" cannot be used: missing_asset: /);
    expect(warnings[2]).toContain('font "Brand" is neither bundled nor declared');
  });
});
