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
}): DrawCostSample => ({
  frames: 16,
  wallMs: perFrame.wall * 16,
  drawMs: perFrame.draw * 16,
  waitMs: (perFrame.wait ?? 0) * 16,
  renderCpuMs: perFrame.renderCpu * 16,
  encoderCpuMs: perFrame.encoderCpu === undefined ? undefined : perFrame.encoderCpu * 16,
});
const twoCores = { cores: 2, maxWorkers: 2, framesLeft: 200 };

describe('chooseRasterWorkers', () => {
  it('keeps an encode-bound video on the render’s thread when x264 fills both cores', () => {
    // The bench's reference video on 2 cores: drawing 18 ms, x264 26 ms of CPU a 25 ms frame.
    const choice = chooseRasterWorkers(
      probe({ wall: 25, draw: 18, renderCpu: 20, encoderCpu: 26 }),
      twoCores,
    );
    expect(choice.workers).toBe(0);
    expect(choice.reason).toMatch(/use 1\.84 of 2 cores: no core to spare/);
  });

  it('gives a draw-bound video one thread on 2 cores, and more where cores sit idle', () => {
    // product-launch on 2 cores: drawing 15 ms of a 22 ms frame, x264 17 ms of CPU.
    const drawBound = probe({ wall: 22, draw: 15, renderCpu: 17, encoderCpu: 17 });
    expect(chooseRasterWorkers(drawBound, twoCores)).toMatchObject({
      workers: 1,
      reason: expect.stringMatching(/use 1\.55 of 2 cores: 1 thread draws the rest/),
    });
    expect(chooseRasterWorkers(drawBound, { cores: 8, maxWorkers: 8, framesLeft: 200 }).workers).toBe(4);
    // The cap (RENDER_CORES' share, or the frames) wins.
    expect(chooseRasterWorkers(drawBound, { cores: 8, maxWorkers: 2, framesLeft: 200 }).workers).toBe(2);
  });

  it('starts no thread when the encoder is the limit, drawing is not, or too few frames are left', () => {
    expect(
      chooseRasterWorkers(probe({ wall: 24, draw: 10, wait: 13, renderCpu: 11, encoderCpu: 20 }), twoCores)
        .reason,
    ).toMatch(/encoder is the limit/);
    expect(
      chooseRasterWorkers(probe({ wall: 24, draw: 8, renderCpu: 9, encoderCpu: 5 }), twoCores).reason,
    ).toMatch(/drawing is not the limit/);
    expect(
      chooseRasterWorkers(probe({ wall: 24, draw: 20, renderCpu: 21, encoderCpu: 12 }), {
        ...twoCores,
        framesLeft: 12,
      }),
    ).toMatchObject({ workers: 0, reason: '12 frames left: too few to pay for starting threads' });
  });

  it('leaves cores that other programs use to them', () => {
    const drawBound = probe({ wall: 22, draw: 15, renderCpu: 17, encoderCpu: 17 });
    // The same render on a machine where another job keeps 0.8 of a core busy.
    const shared = { ...drawBound, machineIdleMs: 0.1 * 22 * 16 };
    expect(chooseRasterWorkers(shared, twoCores)).toMatchObject({
      workers: 0,
      reason: expect.stringMatching(/\(others use 0\.\d\d\): no core to spare/),
    });
    expect(chooseRasterWorkers({ ...drawBound, machineIdleMs: 0.5 * 22 * 16 }, twoCores).workers).toBe(1);
  });

  it('weighs the threads’ start-up against the frames left', () => {
    // A few frames' saving cannot pay for a thread's start; hundreds can.
    const slight = probe({ wall: 24, draw: 19, renderCpu: 19, encoderCpu: 6 });
    expect(chooseRasterWorkers(slight, { ...twoCores, framesLeft: 31 }).workers).toBe(0);
    expect(chooseRasterWorkers(slight, { ...twoCores, framesLeft: 600 }).workers).toBeGreaterThan(0);
  });

  it('without the encoder’s CPU (not Linux), uses threads only on machines with many cores', () => {
    const drawBound = probe({ wall: 24, draw: 22, renderCpu: 23, encoderCpu: undefined });
    expect(chooseRasterWorkers(drawBound, twoCores).workers).toBe(0);
    expect(chooseRasterWorkers(drawBound, { cores: 8, maxWorkers: 8, framesLeft: 200 }).workers).toBe(8);
  });
});
