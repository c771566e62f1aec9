import { describe, expect, it } from 'vitest';
import type { VideoModel } from '../../shared/spec/model.ts';
import { RasterThreadsError, parseRasterThreads, rasterThreads } from './raster-threads.ts';

const plain: VideoModel = {
  kinoSpec: 1,
  scenes: [{ duration: 2, elements: [{ type: 'text', text: 'hi' }] }],
};
const custom = {
  kinoSpec: 1,
  scenes: [{ duration: 2, elements: [{ type: 'custom', draw: () => undefined }] }],
} as unknown as VideoModel;
const full = (count: number) => ({ count, width: 1080, height: 1920 });
const draft = (count: number) => ({ count, width: 540, height: 960 });

describe('rasterThreads', () => {
  it('takes the asked count, else RENDER_THREADS, and clones a plain model into the threads', () => {
    expect(rasterThreads(3, full(300), { model: plain }, { RENDER_CORES: '4' })).toEqual({
      count: 3,
      byCost: false,
      cores: 4,
      reason: '3 threads asked for',
      source: { kind: 'model', model: plain },
    });
    expect(rasterThreads(undefined, full(300), { model: plain }, { RENDER_THREADS: '2' })).toMatchObject({
      count: 2,
      byCost: false,
    });
  });

  it('chooses by cost when nothing forces a count, up to the cores this render may use', () => {
    expect(rasterThreads(undefined, full(300), { model: plain }, { RENDER_CORES: '3' })).toMatchObject({
      count: 3,
      byCost: true,
      cores: 3,
    });
    expect(rasterThreads(undefined, full(300), { model: plain }, {})).toMatchObject({ byCost: true });
    expect(() => rasterThreads(undefined, full(300), { model: plain }, { RENDER_CORES: '0' })).toThrow(
      /RENDER_CORES must be a whole number from 1 to 16/,
    );
  });

  it('draws little work on one thread unless threads are asked for: starting them costs more', () => {
    const env = { RENDER_THREADS: '4' };
    expect(rasterThreads(undefined, full(59), { model: plain }, env).count).toBe(1);
    expect(rasterThreads(undefined, full(60), { model: plain }, env).count).toBe(4);
    expect(rasterThreads(undefined, draft(239), { model: plain }, env).count).toBe(1);
    expect(rasterThreads(undefined, draft(240), { model: plain }, env).count).toBe(4);
    expect(rasterThreads(undefined, full(59), { model: plain }, {})).toMatchObject({
      count: 1,
      byCost: false,
    });
    expect(rasterThreads(4, draft(30), { model: plain }, env).count).toBe(4);
    expect(rasterThreads(4, draft(3), { model: plain }, env).count).toBe(3);
  });

  it('loads custom drawing from its composition file, or stays on one thread without one', () => {
    expect(rasterThreads(2, full(300), { model: custom }, {}).count).toBe(1);
    expect(
      rasterThreads(
        2,
        full(300),
        { model: custom, composition: { path: '/p/video.ts', variables: { n: 1 } } },
        {},
      ),
    ).toMatchObject({
      count: 2,
      byCost: false,
      source: { kind: 'composition', path: '/p/video.ts', variables: { n: 1 } },
    });
  });

  it('refuses a RENDER_THREADS that is not a whole number from 1 to 16, naming it', () => {
    for (const bad of ['0', '17', '1.5', 'all', '-2']) {
      expect(() => parseRasterThreads(bad)).toThrow(RasterThreadsError);
    }
    expect(() => rasterThreads(undefined, full(300), { model: plain }, { RENDER_THREADS: 'x' })).toThrow(
      /RENDER_THREADS must be a whole number from 1 to 16, got "x"/,
    );
    expect(parseRasterThreads(' 8 ')).toBe(8);
    // --concurrency wins: a bad RENDER_THREADS is not even read then.
    expect(rasterThreads(2, full(300), { model: plain }, { RENDER_THREADS: 'x' }).count).toBe(2);
  });
});
