import { describe, expect, it } from 'vitest';
import { progressView } from './job-view.ts';

describe('progressView', () => {
  it("shows a split render's ETA and each chunk's frames, not the chunks' own estimates", () => {
    const view = progressView({
      stage: 'rendering',
      framesDone: 60,
      framesTotal: 200,
      percent: 27.8,
      etaSeconds: 16,
      chunks: [
        { framesDone: 40, framesTotal: 100, etaSeconds: 6 },
        { framesDone: 20, framesTotal: 100, etaSeconds: 16 },
      ],
    });
    expect(view).toEqual({
      stage: 'rendering',
      framesDone: 60,
      framesTotal: 200,
      percent: 27.8,
      etaSeconds: 16,
      chunks: [
        { framesDone: 40, framesTotal: 100 },
        { framesDone: 20, framesTotal: 100 },
      ],
    });
  });
});
