import { describe, expect, it } from 'vitest';
import type { VideoModel } from '../../shared/spec/model.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import { timelineFacts } from './timeline-facts.ts';

describe('annotation facts', () => {
  it('names what annotations point at and what titles say', () => {
    const model: VideoModel = {
      kinoSpec: 1,
      scenes: [
        {
          duration: 3,
          elements: [
            { type: 'rect', id: 'chart' },
            { type: 'callout', text: 'Revenue doubled', target: 'chart' },
            { type: 'callout', text: 'Here', target: { x: 0.3, y: 0.7 } },
            { type: 'spotlight', target: 'chart' },
            { type: 'arrow', from: { x: 0.1, y: 0.2 }, to: { x: '640px', y: 0.5 } },
            { type: 'lowerThird', name: 'Ada Lovelace', title: 'Engineer' },
            { type: 'titleCard', title: 'Meet Orbit', kicker: 'Introducing' },
            { type: 'progressBar' },
          ],
        },
      ],
    };
    const facts = timelineFacts(resolveTimeline(model));
    const elements = facts.scenes[0]!.elements.slice(1);
    expect(elements.map((element) => [element.label, element.parts])).toEqual([
      ['Revenue doubled → #chart', ['→ #chart']],
      ['Here → (0.3, 0.7)', ['→ (0.3, 0.7)']],
      ['spotlight → #chart', ['→ #chart']],
      ['arrow (0.1, 0.2) → (640px, 0.5)', ['from (0.1, 0.2)', 'to (640px, 0.5)']],
      ['Ada Lovelace — Engineer', ['Ada Lovelace', 'Engineer']],
      ['Meet Orbit', ['Introducing', 'Meet Orbit']],
      ['progress of the video', undefined],
    ]);
  });
});
