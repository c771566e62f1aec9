import { describe, expect, it } from 'vitest';
import type { VideoModel } from '../../shared/spec/model.ts';
import {
  MIN_FRAMES_FOR_THREADS,
  RasterThreadsError,
  parseRasterThreads,
  rasterThreads,
} from './raster-threads.ts';

const plain: VideoModel = {
  kinoSpec: 1,
  scenes: [{ duration: 2, elements: [{ type: 'text', text: 'hi' }] }],
};
const custom = {
  scenes: [{ duration: 2, elements: [{ type: 'custom', draw: () => undefined }] }],
} as unknown as VideoModel;

describe('rasterThreads', () => {
  it('takes the asked count, else RENDER_THREADS, and clones a plain model into the threads', () => {
    expect(rasterThreads(3, 300, { model: plain }, {})).toEqual({
      count: 3,
      source: { kind: 'model', model: plain },
    });
    expect(rasterThreads(undefined, 300, { model: plain }, { RENDER_THREADS: '2' }).count).toBe(2);
    expect(rasterThreads(undefined, 300, { model: plain }, {}).count).toBeGreaterThanOrEqual(1);
  });

  it('draws short renders on one thread, where starting threads costs more than it saves', () => {
    expect(rasterThreads(4, MIN_FRAMES_FOR_THREADS - 1, { model: plain }, {}).count).toBe(1);
    expect(rasterThreads(4, MIN_FRAMES_FOR_THREADS, { model: plain }, {}).count).toBe(4);
  });

  it('loads custom drawing from its composition file, or stays on one thread without one', () => {
    expect(rasterThreads(2, 300, { model: custom }, {}).count).toBe(1);
    expect(
      rasterThreads(2, 300, { model: custom, composition: { path: '/p/video.ts', variables: { n: 1 } } }, {}),
    ).toEqual({ count: 2, source: { kind: 'composition', path: '/p/video.ts', variables: { n: 1 } } });
  });

  it('refuses a RENDER_THREADS that is not a whole number from 1 to 16, naming it', () => {
    for (const bad of ['0', '17', '1.5', 'all', '-2']) {
      expect(() => parseRasterThreads(bad)).toThrow(RasterThreadsError);
    }
    expect(() => rasterThreads(undefined, 300, { model: plain }, { RENDER_THREADS: 'x' })).toThrow(
      /RENDER_THREADS must be a whole number from 1 to 16, got "x"/,
    );
    expect(parseRasterThreads(' 8 ')).toBe(8);
  });
});
