import { describe, expect, it } from 'vitest';
import type { VideoUse } from '../../shared/timeline/media-plan.ts';
import { isActive, sourceMoment } from './video-time.ts';

const use = (overrides: Partial<VideoUse> = {}): VideoUse => ({
  key: 's0/e0',
  src: 'asset:clip.mp4',
  startFrame: 30,
  frameCount: 90,
  sourceStartSeconds: 1,
  sourceEndSeconds: undefined,
  rate: 1,
  loop: false,
  ...overrides,
});

describe('video uses in the preview', () => {
  it('are on screen from their start frame for their frame count', () => {
    expect(isActive(use(), 29)).toBe(false);
    expect(isActive(use(), 30)).toBe(true);
    expect(isActive(use(), 119)).toBe(true);
    expect(isActive(use(), 120)).toBe(false);
  });

  it('show start + elapsed × rate, like the renderer', () => {
    expect(sourceMoment(use(), 30, 30, 10)).toEqual({ seconds: 1, holding: false });
    expect(sourceMoment(use(), 60, 30, 10)).toEqual({ seconds: 2, holding: false });
    expect(sourceMoment(use({ rate: 2 }), 45, 30, 10).seconds).toBeCloseTo(2);
  });

  it('hold the last frame of a short source, or loop it', () => {
    // 1 s of source (1..2 s) at 30 fps: 30 frames per pass.
    const short = { sourceEndSeconds: 2 };
    expect(sourceMoment(use(short), 100, 30, 10)).toEqual({ seconds: 1 + 29 / 30, holding: true });
    expect(sourceMoment(use({ ...short, loop: true }), 65, 30, 10).seconds).toBeCloseTo(1 + 5 / 30);
    // Without a trim end, the file's length ends the pass.
    expect(sourceMoment(use(), 100, 30, 2).holding).toBe(true);
  });
});
