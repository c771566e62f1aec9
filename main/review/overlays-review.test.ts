// Review and inspect of overlays: captions over the whole video read cleanly across a slide where
// the per-scene workaround is flagged, and findings and facts name overlays by key and pointer.
import { describe, expect, it } from 'vitest';
import type { ModelElement, VideoModel } from '../../shared/spec/model.ts';
import { elementPointer } from '../../shared/timeline/element-keys.ts';
import { projectContext } from '../engine/project-context.ts';
import { loadProject } from '../project/load.ts';
import { reviewComposition } from './review-composition.ts';

const EXAMPLES = new URL('../../examples/', import.meta.url).pathname;

const SRT = [
  '1\n00:00:00,000 --> 00:00:02,000\nThe first thing we say',
  '2\n00:00:02,000 --> 00:00:04,000\nruns across the cut',
  '3\n00:00:04,000 --> 00:00:05,400\nand ends here',
].join('\n\n');
const CAPTIONS: ModelElement = { type: 'captions', srt: SRT };

/** Two 3 s landscape scenes joined by a 0.6 s slide: 5.4 s, the second scene from 2.4 s. */
function video(scene: (index: number) => ModelElement[], overlays?: ModelElement[]): VideoModel {
  const title = (text: string): ModelElement => ({ type: 'text', text, size: 160, y: 0.35 });
  return {
    kinoSpec: 1,
    aspect: 'landscape',
    scenes: [
      { duration: '3s', background: '#1e3a8a', elements: [title('One'), ...scene(0)] },
      {
        duration: '3s',
        background: '#14532d',
        transition: { type: 'slide', direction: 'right' },
        elements: [title('Two'), ...scene(1)],
      },
    ],
    ...(overlays ? { overlays } : {}),
  };
}

async function review(model: VideoModel) {
  const project = await projectContext(await loadProject(EXAMPLES));
  return reviewComposition({ model, project, samples: 12 });
}

describe('review of overlays', () => {
  it('flags captions cut into one element per scene, which overlap and lose cues at the cut', async () => {
    const perScene = (index: number): ModelElement[] => [
      index === 0 ? CAPTIONS : { ...CAPTIONS, offset: '-2.4s' },
    ];
    const { drafts } = await review(video(perScene));
    const found = drafts.map((draft) => `${draft.code} ${draft.element}`);
    expect(found).toContain('caption_offscreen s0/e1');
    expect(found).toContain('caption_offscreen s1/e1');
    expect(found).toContain('caption_overlap s1/e1');
  });

  it('finds nothing wrong with the same captions as one overlay on the video clock', async () => {
    const { drafts } = await review(video(() => [], [CAPTIONS]));
    expect(drafts).toEqual([]);
  });

  it('names overlays by key and pointer in findings and facts', { timeout: 30_000 }, async () => {
    const overlays: ModelElement[] = [
      CAPTIONS,
      { type: 'text', text: 'terms and conditions apply', size: 12, y: 0.95 },
      { type: 'image', src: 'asset:no-such-logo.png', width: 80, height: 80, start: '1s' },
    ];
    const { drafts, facts } = await review(video(() => [], overlays));
    const small = drafts.find((draft) => draft.code === 'text_too_small');
    expect(small?.element).toBe('o/e1');
    expect(elementPointer(small!.element!)).toBe('/overlays/1');
    const missing = drafts.find((draft) => draft.code === 'missing_asset');
    expect(missing).toMatchObject({ element: 'o/e2', startFrame: 30, endFrame: 162 });

    expect(
      facts.timeline.overlays.map((fact) => [
        fact.key,
        fact.pointer,
        fact.type,
        fact.startFrame,
        fact.endFrame,
      ]),
    ).toEqual([
      ['o/e0', '/overlays/0', 'captions', 0, 162],
      ['o/e1', '/overlays/1', 'text', 0, 162],
      ['o/e2', '/overlays/2', 'image', 30, 162],
    ]);
    expect(facts.timeline.scenes[1]!.elements[0]!.pointer).toBe('/scenes/1/elements/0');
    const logo = facts.resources.assets.find((asset) => asset.src === 'asset:no-such-logo.png');
    expect(logo?.uses).toEqual([
      { key: 'o/e2', isElement: true, kind: 'image', startFrame: 30, endFrame: 162 },
    ]);
    const sans = facts.resources.fonts.flatMap((font) => font.usedBy).map((use) => use.key);
    expect(sans).toEqual(expect.arrayContaining(['o/e0', 'o/e1']));
  });
});
