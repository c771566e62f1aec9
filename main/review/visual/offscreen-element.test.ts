import { describe, expect, it } from 'vitest';
import { transformedBounds } from '../../../shared/canvas/device-rect.ts';
import { draftsWithCode, expectWellFormed, reviewFixture } from './review.fixture.ts';

describe('offscreen_element', () => {
  it('flags the badge group placed past the right edge, once, and not its children', async () => {
    const result = await reviewFixture('offscreen_element', 'trigger');
    const found = draftsWithCode(result, 'offscreen_element');
    expect(found.map((draft) => draft.element)).toEqual(['s0/e1']);
    const draft = found[0]!;
    expectWellFormed(result, draft);
    expect(draft).toMatchObject({ severity: 'warning', startFrame: 0, endFrame: 75 });
    expect(draft.message).toBe(
      'group (id "badge", s0/e1) is drawn at 100 % opacity but lies entirely outside the 1080×1920 frame at 0 s: ' +
        'its box spans x 1284 to 1524, y 432 to 528',
    );
    expect(draft.remedy).toMatch(
      /^bring it into the frame \(it has x = 1\.3, y = 0\.25\): x and y are fractions/,
    );
    expect(result.drafts.filter((d) => d.code !== 'offscreen_element')).toEqual([]);
  });

  it('does not count the card while it slides in from off the frame', async () => {
    const result = await reviewFixture('offscreen_element', 'trigger');
    const offFrame = result.samples.flatMap((sample) =>
      sample.elements.filter(
        (element) => element.key === 's0/e0' && transformedBounds(element.box, element.transform).x1 <= 0,
      ),
    );
    // Frame 0 is always sampled; the slide starts a full frame width to the left.
    expect(offFrame.length).toBeGreaterThan(0);
    expect(offFrame.every((element) => !element.atRest && element.alpha === 1)).toBe(true);
  });

  it('passes the fixed composition, with the badge at x = 0.75', async () => {
    const result = await reviewFixture('offscreen_element', 'clean');
    expect(result.drafts).toEqual([]);
  });
});
