import { describe, expect, it } from 'vitest';
import { pickFastestAtLeast } from './quality-sweep.ts';
import type { SweepResult } from './quality-sweep.ts';

const result = (setting: string, cpuMs: number, ssim: number, bytes: number): SweepResult => ({
  codec: 'libx264',
  setting,
  encodeMs: cpuMs,
  cpuMs,
  ssim,
  bytes,
});

describe('pickFastestAtLeast', () => {
  const baseline = result('medium crf 20', 10_000, 0.985, 1_000_000);
  const results = [
    baseline,
    result('ultrafast crf 18', 3_000, 0.99, 4_000_000),
    result('veryfast crf 18', 4_000, 0.987, 1_100_000),
    result('veryfast crf 20', 3_500, 0.982, 800_000),
    result('fast crf 19', 7_000, 0.986, 1_050_000),
  ];

  it('takes the least CPU among settings at least as faithful as the baseline', () => {
    expect(pickFastestAtLeast(results, baseline).setting).toBe('ultrafast crf 18');
  });

  it('also bounds the size when asked', () => {
    expect(pickFastestAtLeast(results, baseline, 1.25).setting).toBe('veryfast crf 18');
  });

  it('falls back to the baseline when nothing beats it', () => {
    expect(pickFastestAtLeast([baseline, result('veryfast crf 24', 1_000, 0.97, 500_000)], baseline)).toBe(
      baseline,
    );
  });
});
