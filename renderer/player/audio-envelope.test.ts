import { describe, expect, it } from 'vitest';
import { rmsEnvelope } from './audio-envelope.ts';

describe('rmsEnvelope', () => {
  it('gives the RMS of every full window over all channels, dropping a partial last one', () => {
    const left = Float32Array.from([1, -1, 0.5, 0.5, 0]);
    const right = Float32Array.from([1, 1, -0.5, 0.5, 9]);
    expect(rmsEnvelope([left, right], 2, 1)).toEqual([1, 0.5]);
  });

  it('is silence for silence, and follows a level that rises', () => {
    expect(rmsEnvelope([new Float32Array(8)], 4, 0.5)).toEqual([0, 0, 0, 0]);
    const ramp = Float32Array.from({ length: 8 }, (_, i) => (i < 4 ? 0.1 : 0.4));
    expect(rmsEnvelope([ramp], 4, 1).map((v) => Number(v.toFixed(6)))).toEqual([0.1, 0.4]);
  });
});
