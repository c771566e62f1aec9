// The workspace bench prints each composition's figures against its own targets.
import { describe, expect, it } from 'vitest';
import { formatWorkspaceBench } from './workspace-bench.ts';

describe('formatWorkspaceBench', () => {
  it('prints a block per composition, the clip scene against its own warm-frame target', () => {
    const figures = (composition: string, warmFrameTargetMs: number) => ({
      composition,
      coldFirstFrameMs: 1234.4,
      workerStartupMs: 700,
      warmFrameMs: 120.6,
      warmFrameInWorkerMs: 90,
      slowestWarmFrameMs: 180,
      warmFrameTargetMs,
      reviewMs: 2500,
      findings: 2,
    });
    const text = formatWorkspaceBench([figures('travel-reel', 150), figures('interview-clip', 300)]);
    expect(text).toContain('travel-reel (1080×1920)\n');
    expect(text).toMatch(/cold start → first frame \(round trip\) +1234 ms {2}target ≤ 1500 ms/);
    expect(text).toMatch(/interview-clip \(1080×1920\)\n[^]*warm frame capture.* +121 ms {2}target ≤ 300 ms/);
    expect(text).toMatch(/24-frame review.* +2500 ms {2}target ≤ 3000 ms/);
  });
});
