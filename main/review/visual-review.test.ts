import { fileURLToPath } from 'node:url';
import { loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { loadComposition } from '../composition/load.ts';
import { projectContext } from '../engine/project-context.ts';
import { projectForFile } from '../project/load.ts';
import { indexElements } from './element-timing.ts';
import { visualReview } from './visual-review.ts';
import { expectWellFormed } from './visual/review.fixture.ts';

const travelReel = fileURLToPath(new URL('../../examples/compositions/travel-reel.ts', import.meta.url));

describe('visualReview', () => {
  it('reviews a full example: 24 PNG samples over the timeline and well-formed findings', async () => {
    const model = await loadComposition(travelReel);
    const project = await projectContext(await projectForFile(travelReel));
    const result = await visualReview({ model, project, png: true });
    expect(result.unavailable).toEqual([]);
    expect(result.samples).toHaveLength(24);
    expect(result.samples[0]!.frame).toBe(0);
    expect(result.samples.at(-1)!.frame).toBe(result.video.durationFrames - 1);
    for (const sample of result.samples) {
      const image = await loadImage(sample.png!);
      expect([image.width, image.height]).toEqual([1080, 1920]);
      expect(sample.seconds).toBeCloseTo(sample.frame / 30);
    }
    const keys = indexElements(result.video);
    for (const draft of result.drafts) {
      expectWellFormed(result, draft);
      if (draft.element !== undefined) expect(keys.has(draft.element)).toBe(true);
      expect(draft.message.length).toBeGreaterThan(20);
      expect(draft.remedy.length).toBeGreaterThan(20);
    }
    // Ordered along the timeline.
    const starts = result.drafts.map((draft) => draft.startFrame);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
  });
});
