import { describe, expect, it } from 'vitest';
import { callout, image, rect, scene, text, video } from '../../../shared/builder/index.ts';
import type { ModelElement, VideoModel } from '../../../shared/spec/model.ts';
import { ReviewSession } from '../review-session.ts';
import type { FrameRect } from '../../../shared/canvas/device-rect.ts';
import { visualReview } from '../visual-review.ts';
import { draftsWithCode, expectWellFormed, loadFixture, reviewFixture } from './review.fixture.ts';

/** The trigger with its lower third (s0/e1) or captions (s0/e2) changed. */
function withElement(model: VideoModel, index: 1 | 2, change: Partial<ModelElement>): VideoModel {
  const scene0 = model.scenes[0]!;
  const elements = (scene0.elements ?? []).map((element, at) =>
    at === index ? ({ ...element, ...change } as ModelElement) : element,
  );
  return { ...model, scenes: [{ ...scene0, elements }, ...model.scenes.slice(1)] };
}

function withoutLowerThird(model: VideoModel): VideoModel {
  const scene0 = model.scenes[0]!;
  return { ...model, scenes: [{ ...scene0, elements: (scene0.elements ?? []).filter((_, at) => at !== 1) }] };
}

function intersect(a: FrameRect, b: FrameRect): FrameRect | undefined {
  const rect = {
    x0: Math.max(a.x0, b.x0),
    y0: Math.max(a.y0, b.y0),
    x1: Math.min(a.x1, b.x1),
    y1: Math.min(a.y1, b.y1),
  };
  return rect.x1 > rect.x0 && rect.y1 > rect.y0 ? rect : undefined;
}

/** Pixels of a frame region, drawn as rendered. */
async function drawnRegion(model: VideoModel, frame: number, area: FrameRect): Promise<Uint8Array> {
  const { project } = await loadFixture('element_overlap', 'trigger');
  const session = await ReviewSession.open({ model, project });
  try {
    await session.drawObserved(frame);
    const pixels = {
      x0: Math.floor(area.x0),
      y0: Math.floor(area.y0),
      x1: Math.ceil(area.x1),
      y1: Math.ceil(area.y1),
    };
    return Uint8Array.from(session.region(pixels));
  } finally {
    session.close();
  }
}

describe('element_overlap', () => {
  it('flags the subtitles drawn over the lower third, naming both, with the stretch they share', async () => {
    const result = await reviewFixture('element_overlap', 'trigger');
    const found = draftsWithCode(result, 'element_overlap');
    expect(found).toHaveLength(1);
    const draft = found[0]!;
    expectWellFormed(result, draft);
    // The captions are drawn last, over the lower third: the finding is theirs.
    expect(draft).toMatchObject({ element: 's0/e2', severity: 'warning' });
    expect(draft.message).toMatch(
      /^captions \(id "subtitles", s0\/e2\) is drawn over lowerThird \(id "host", s0\/e1\) from 0\.5 s to 4 s: at [\d.]+ s its "[^"]+" crosses "(Ada Lovelace|Founder, Analytical Engines)", so neither reads$/,
    );
    // From the lower third's start (0.5 s) to the end of the scene: both caption pages cross it.
    expect([draft.startFrame, draft.endFrame]).toEqual([15, 120]);
    expect(draft.remedy).toMatch(
      /^move one off the other: s0\/e2 \d+ px down or \d+ px up \(position: 'top'\), or s0\/e1 as far the other way \(its y\); or let them take turns \(start, duration\).*; or give s0\/e2 an opaque box \(background: \{ color: '#0a0c10' \}\)$/,
    );
    expect(result.drafts.filter((d) => d.code !== 'element_overlap')).toEqual([]);
  });

  it("shows the lower third's text through the subtitles on the frame to inspect", async () => {
    const result = await reviewFixture('element_overlap', 'trigger');
    const draft = draftsWithCode(result, 'element_overlap')[0]!;
    const sample = result.samples.find((candidate) => candidate.frame === draft.focusFrame)!;
    const bands = (key: string) =>
      sample.texts.filter((text) => text.drawn.key === key).flatMap((text) => text.geometry.glyphBands);
    const crossings = bands('s0/e2').flatMap((caption) =>
      bands('s0/e1').flatMap((name) => intersect(caption, name) ?? []),
    );
    expect(crossings.length).toBeGreaterThan(0);
    // What the viewer sees there changes when the lower third is taken away: its glyphs show through.
    const { model } = await loadFixture('element_overlap', 'trigger');
    const area = crossings[0]!;
    const [drawn, alone] = await Promise.all([
      drawnRegion(model, draft.focusFrame!, area),
      drawnRegion(withoutLowerThird(model), draft.focusFrame!, area),
    ]);
    let differing = 0;
    for (let i = 0; i < drawn.length; i += 4) {
      if (Math.abs(drawn[i]! - alone[i]!) + Math.abs(drawn[i + 1]! - alone[i + 1]!) > 24) differing++;
    }
    expect(differing / (drawn.length / 4)).toBeGreaterThan(0.05);
  });

  it('passes the fixed composition, with the subtitles at the top', async () => {
    const result = await reviewFixture('element_overlap', 'clean');
    expect(result.drafts).toEqual([]);
  });

  it('passes once the lower third moves up instead', async () => {
    const { model, project } = await loadFixture('element_overlap', 'trigger');
    const moved = withElement(model, 1, { y: 0.7 });
    const result = await visualReview({ model: moved, project, samples: 8 });
    expect(draftsWithCode(result, 'element_overlap')).toEqual([]);
  });

  it('passes once the subtitles sit on an opaque box of their own', async () => {
    const { model, project } = await loadFixture('element_overlap', 'trigger');
    const boxed = withElement(model, 2, { background: { color: '#0a0c10' } } as Partial<ModelElement>);
    const result = await visualReview({ model: boxed, project, samples: 8 });
    expect(draftsWithCode(result, 'element_overlap')).toEqual([]);
  });
});

/**
 * Texts layered on purpose, each over another text, a shape or a photo. `plain` takes away what
 * makes each layering intended (the badge's and callout's opaque boxes, the watermark's faintness),
 * so the same places are flagged: the exemptions, not the layout, keep them quiet.
 */
function layered(plain: boolean): VideoModel {
  return video({ title: 'layered on purpose', fps: 30, aspect: 'landscape', background: '#0f172a' }, [
    scene({ duration: '2s' }, [
      image('asset:card.png', { id: 'photo', x: 0.25, y: 0.3, width: 600, height: 400 }),
      text('On a photo', { id: 'caption', x: 0.25, y: 0.3, size: 64 }),
      rect({ id: 'panel', x: 0.75, y: 0.3, width: 600, height: 200, fill: '#334155' }),
      text('On a shape', { id: 'label', x: 0.75, y: 0.3, size: 64 }),
      text('2024', { id: 'watermark', x: 0.75, y: 0.75, size: 300, opacity: plain ? 1 : 0.12 }),
      text('Year in review', { id: 'year', x: 0.75, y: 0.75, size: 72, color: '#fbbf24' }),
      text('Chapter one begins', { id: 'chapter', x: 0.25, y: 0.75, size: 64 }),
      text('Now playing', {
        id: 'badge',
        x: 0.25,
        y: 0.75,
        size: 48,
        background: { color: plain ? 'rgba(15, 23, 42, 0.5)' : '#0f172a', paddingX: 40, paddingY: 24 },
      }),
      text('Quarterly results', { id: 'headline', x: 0.5, y: 0.1, size: 64 }),
      callout('Revenue up', {
        id: 'note',
        target: { x: 0.5, y: 0.25 },
        x: 0.5,
        y: 0.1,
        enterDuration: '0.2s',
        ...(plain ? { background: 'rgba(255, 255, 255, 0.4)' } : {}),
      }),
    ]),
  ]);
}

describe('element_overlap and text layered on purpose', () => {
  it('passes text on a photo or a shape, a faint watermark, and labels on their own opaque boxes', async () => {
    const { project } = await loadFixture('element_overlap', 'trigger');
    const result = await visualReview({ model: layered(false), project, samples: 4 });
    expect(draftsWithCode(result, 'element_overlap')).toEqual([]);
  });

  it('flags the same places once the watermark is solid and the boxes see-through', async () => {
    const { project } = await loadFixture('element_overlap', 'trigger');
    const result = await visualReview({ model: layered(true), project, samples: 4 });
    // Each message names the upper element, then the one under it.
    const pairs = draftsWithCode(result, 'element_overlap').map((draft) =>
      /^\w+(?: "[^"]*")? \(id "(\w+)", s0\/e\d+\) is drawn over \w+(?: "[^"]*")? \(id "(\w+)"/
        .exec(draft.message)!
        .slice(1),
    );
    expect(pairs.sort()).toEqual([
      ['badge', 'chapter'],
      ['note', 'headline'],
      ['year', 'watermark'],
    ]);
  });
});
