import { describe, expect, it } from 'vitest';
import { chooseRasterWorkers } from './threads-by-cost.ts';
import type { DrawCostSample } from './threads-by-cost.ts';

/** A 16-frame probe from per-frame figures. */
const probe = (perFrame: {
  wall: number;
  draw: number;
  wait?: number;
  renderCpu: number;
  encoderCpu: number | undefined;
  machineIdle?: number;
}): DrawCostSample => ({
  frames: 16,
  wallMs: perFrame.wall * 16,
  drawMs: perFrame.draw * 16,
  waitMs: (perFrame.wait ?? 0) * 16,
  renderCpuMs: perFrame.renderCpu * 16,
  encoderCpuMs: perFrame.encoderCpu === undefined ? undefined : perFrame.encoderCpu * 16,
  machineIdleMs: perFrame.machineIdle === undefined ? undefined : perFrame.machineIdle * 16,
});
const twoCores = { cores: 2, maxWorkers: 2, framesLeft: 200 };
// Drawing 27 ms of a 30 ms frame, x264 10 ms of CPU: a heavy scene at a light encode.
const drawBound = { wall: 30, draw: 27, renderCpu: 28, encoderCpu: 10 };

describe('chooseRasterWorkers', () => {
  it('keeps a video on the render’s thread when x264 leaves less than half a core', () => {
    // The bench's reference video and product-launch on 2 cores, as their probes measured them:
    // threads measured no faster there.
    const reference = probe({ wall: 20.8, draw: 18.1, renderCpu: 19, encoderCpu: 16.9 });
    expect(chooseRasterWorkers(reference, twoCores)).toEqual({
      workers: 0,
      reason:
        'drawing 18.1 ms and encoding 16.9 ms of CPU a 20.8 ms frame use 1.73 of 2 cores: no core to spare for threads',
    });
    const productLaunch = probe({ wall: 8.8, draw: 6.5, renderCpu: 7, encoderCpu: 6.9 });
    expect(chooseRasterWorkers(productLaunch, twoCores).workers).toBe(0);
  });

  it('gives a draw-bound video threads where cores sit idle, enough to reach the encoder’s pace', () => {
    expect(chooseRasterWorkers(probe(drawBound), twoCores)).toEqual({
      workers: 2,
      reason:
        'drawing 27.0 ms and encoding 10.0 ms of CPU a 30.0 ms frame use 1.27 of 2 cores: 2 threads draw the rest',
    });
    // On 8 cores, 6 threads bring drawing (27 / 6 = 4.5 ms) under every core busy (5.3 ms).
    expect(chooseRasterWorkers(probe(drawBound), { cores: 8, maxWorkers: 8, framesLeft: 200 }).workers).toBe(
      6,
    );
    // The cap (RENDER_CORES' share, or the frames) wins.
    expect(chooseRasterWorkers(probe(drawBound), { cores: 8, maxWorkers: 2, framesLeft: 200 }).workers).toBe(
      2,
    );
  });

  it('starts no thread when the encoder is the limit, drawing is not, or too few frames are left', () => {
    expect(
      chooseRasterWorkers(probe({ wall: 24, draw: 10, wait: 13, renderCpu: 11, encoderCpu: 20 }), twoCores)
        .reason,
    ).toMatch(/encoder is the limit/);
    expect(
      chooseRasterWorkers(probe({ wall: 24, draw: 8, renderCpu: 9, encoderCpu: 5 }), twoCores).reason,
    ).toMatch(/drawing is not the limit/);
    expect(chooseRasterWorkers(probe(drawBound), { ...twoCores, framesLeft: 12 })).toEqual({
      workers: 0,
      reason: '12 frames left: too few to pay for starting threads',
    });
  });

  it('leaves cores that other programs use to them', () => {
    // The same render on a machine where another job keeps all but 0.2 of a core busy.
    expect(chooseRasterWorkers(probe({ ...drawBound, machineIdle: 0.2 * 30 }), twoCores)).toMatchObject({
      workers: 0,
      reason: expect.stringMatching(/\(others use 0\.53\): no core to spare/),
    });
    expect(chooseRasterWorkers(probe({ ...drawBound, machineIdle: 0.7 * 30 }), twoCores).workers).toBe(2);
  });

  it('weighs the threads’ start-up against the frames left', () => {
    expect(chooseRasterWorkers(probe(drawBound), { ...twoCores, framesLeft: 40 }).workers).toBe(0);
    expect(chooseRasterWorkers(probe(drawBound), { ...twoCores, framesLeft: 600 }).workers).toBe(2);
  });

  it('without the encoder’s CPU (not Linux), uses threads only on machines with many cores', () => {
    const unknown = probe({ ...drawBound, encoderCpu: undefined });
    expect(chooseRasterWorkers(unknown, twoCores).workers).toBe(0);
    expect(chooseRasterWorkers(unknown, { cores: 8, maxWorkers: 8, framesLeft: 200 }).workers).toBe(8);
  });
});
