import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { THREAD_SPEC_CHARS, examineSubmittedSpec } from './spec-examiner.ts';
import { examineSpec } from './spec-examination.ts';

/** A legal spec of `scenes` scenes with 60 elements each (500 scenes is ≈ 0.5 MB of JSON). */
function bigSpec(scenes: number) {
  return {
    kinoSpec: 1,
    aspect: 'square',
    fps: 12,
    scenes: Array.from({ length: scenes }, (_, s) => ({
      duration: '1s',
      elements: Array.from({ length: 60 }, (_, e) => ({
        type: 'text',
        text: `Scene ${s} line ${e}`,
        size: 40,
        y: (e + 1) / 62,
      })),
    })),
  };
}

describe('examineSubmittedSpec', () => {
  it('examines a large spec in a thread, with the answer the event loop would give', async () => {
    const spec = bigSpec(300);
    expect(JSON.stringify(spec).length).toBeGreaterThan(THREAD_SPEC_CHARS);
    const asked = [
      { aspect: 'landscape', poster: '2s', posterPointer: '/a' },
      { poster: '9999s', posterPointer: '/b' },
    ];
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const threaded = await examineSubmittedSpec(spec, undefined, asked);
    delay.disable();
    expect(threaded).toEqual(examineSpec(spec, undefined, asked));
    expect(threaded).toMatchObject({
      ok: true,
      outputs: [
        { fps: 12, durationFrames: 3600, size: { width: 1920, height: 1080 } },
        { durationFrames: 3600, size: { width: 1080, height: 1080 } },
      ],
      posters: [undefined, { code: 'poster_out_of_range', issues: [{ pointer: '/b' }] }],
    });
    expect((threaded as { code: string }).code).toContain('export default video(');
    // The checks ran elsewhere: the loop was never held for long.
    expect(delay.max / 1e6).toBeLessThan(250);
  });

  it("reports a large spec's errors at their pointers", async () => {
    const spec = bigSpec(200);
    (spec.scenes[150]!.elements[7] as Record<string, unknown>).size = 'huge';
    const examined = await examineSubmittedSpec(spec, undefined, [{ posterPointer: '/options/poster' }]);
    expect(examined).toMatchObject({
      ok: false,
      issues: [{ pointer: '/scenes/150/elements/7/size' }],
    });
  });
});
