import { describe, expect, it } from 'vitest';
import { chunksEtaSeconds, sumChunkProgress } from './chunk-progress.ts';

const chunk = (framesDone: number, framesTotal: number, etaSeconds?: number | null) => ({
  framesDone,
  framesTotal,
  etaSeconds,
});

describe('chunksEtaSeconds', () => {
  it('is unknown until a chunk with frames left knows its rate, and 0 once every frame is drawn', () => {
    expect(chunksEtaSeconds([chunk(0, 100), chunk(0, 100, null)], 200)).toBeNull();
    expect(chunksEtaSeconds([chunk(100, 100, 0), chunk(100, 100, 0)], 0)).toBe(0);
  });

  it('spreads the frames left, queued chunks included, over the rate of the chunks drawing now', () => {
    // Two workers at 10 fps each on chunks 0 and 1; chunk 2 waits for one of them: 250 frames at 20 fps.
    const chunks = [chunk(50, 100, 5), chunk(50, 100, 5), chunk(0, 100)];
    expect(chunksEtaSeconds(chunks, 250)).toBe(12.5);
  });

  it('reads a chunk ETA rounded to 0.0 s with frames left as nearly done, not unknown', () => {
    // Chunk 0 has one frame left (under 0.05 s); chunk 1 has not started: its 60 frames still count.
    expect(chunksEtaSeconds([chunk(59, 60, 0), chunk(0, 60)], 61)).toBe(3.1);
  });

  it('is never shorter than the slowest running chunk', () => {
    // 20 fps together would say 5 s for these 100 frames; the slow chunk needs 9.
    expect(chunksEtaSeconds([chunk(10, 100, 9), chunk(90, 100, 0.1)], 100)).toBe(9);
  });
});

describe('sumChunkProgress', () => {
  it('reports the summed frames with the ETA from every chunk reported so far', () => {
    const split = {
      stage: 'rendering' as const,
      framesDone: 0,
      framesTotal: 200,
      percent: 2,
      etaSeconds: null,
      chunks: [chunk(0, 100), chunk(0, 100)],
    };
    const first = sumChunkProgress(split, {
      index: 0,
      count: 2,
      framesDone: 20,
      framesTotal: 100,
      etaSeconds: 8,
    });
    // Only chunk 0 knows its rate (10 fps): 180 frames left at 10 fps.
    expect(first).toMatchObject({ framesDone: 20, framesTotal: 200, etaSeconds: 18 });
    const both = sumChunkProgress(first, {
      index: 1,
      count: 2,
      framesDone: 20,
      framesTotal: 100,
      etaSeconds: 8,
    });
    expect(both).toMatchObject({ framesDone: 40, etaSeconds: 8 });
  });
});
