import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { crossFade, scene, text, video } from '../../shared/builder/index.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import { captureSamples, sampleFrames } from './capture.ts';
import { isInTransition } from './element-timing.ts';
import { ReviewSession, sha256 } from './review-session.ts';
import { loadFixture } from './visual/review.fixture.ts';

const twoScenes = (transition: string) =>
  resolveTimeline(
    video({ fps: 30 }, [
      scene({ duration: '3s' }, [text('One')]),
      scene({ duration: '3s', transition: crossFade({ duration: transition }) }, [text('Two')]),
    ]),
  );

describe('sampleFrames', () => {
  it('spreads at most 24 distinct frames over the whole timeline, first and last included', () => {
    const timeline = twoScenes('0.2s');
    const frames = sampleFrames(timeline, 100);
    expect(frames).toHaveLength(24);
    expect(frames[0]).toBe(0);
    expect(frames.at(-1)).toBe(timeline.durationFrames - 1);
    expect(new Set(frames).size).toBe(24);
    expect([...frames].sort((a, b) => a - b)).toEqual(frames);
  });

  it('moves a sample off a transition to the nearest frame at rest', () => {
    const timeline = twoScenes('0.2s');
    // 174 frames: the middle target, frame 87, falls in the crossfade (frames 84–89).
    expect(isInTransition(timeline, 87)).toBe(true);
    expect(sampleFrames(timeline, 3)).toEqual([0, 90, 173]);
  });

  it('takes every frame of a video shorter than the count', () => {
    const timeline = resolveTimeline(video({ fps: 10 }, [scene({ duration: '1s' }, [text('Hi')])]));
    expect(sampleFrames(timeline, 24)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe('captureSamples', () => {
  it('keeps per sample the drawn elements, what lies behind text at rest, and a PNG of the frame', async () => {
    const { model, project } = await loadFixture('low_contrast', 'trigger');
    const session = await ReviewSession.open({ model, project });
    try {
      // Frame 0: the hint is starting to fade in (not at rest); frame 45: everything at rest.
      const [first, rest] = await captureSamples(session, [0, 45], { png: true });
      expect(first!.elements.map((element) => element.key)).toEqual(['s0/e0', 's0/e1']);
      expect(rest!.texts.map((text) => [text.drawn.key, text.drawn.atRest])).toEqual([
        ['s0/e0', true],
        ['s0/e1', true],
        ['s0/e2', true],
      ]);
      // With the text hidden, what lies behind the hint is the background, #f3f4f6, and nothing else.
      const behind = rest!.texts[2]!.backdrop!;
      expect(behind.length).toBeGreaterThan(300);
      expect(new Set(behind)).toEqual(new Set([0xf3, 0xf4, 0xf6]));

      const image = await loadImage(rest!.png!);
      const canvas = createCanvas(image.width, image.height);
      canvas.getContext('2d').drawImage(image, 0, 0);
      const decoded = canvas.getContext('2d').getImageData(0, 0, 1080, 1920).data;
      expect(sha256(new Uint8Array(decoded.buffer))).toBe(rest!.sha256);
    } finally {
      session.close();
    }
  });

  it('reports each sample as it is drawn, so a progress bar can move before the end', async () => {
    const { model, project } = await loadFixture('low_contrast', 'trigger');
    const session = await ReviewSession.open({ model, project });
    try {
      const reports: [number, number][] = [];
      await captureSamples(session, [0, 20, 45], { onSample: (done, total) => reports.push([done, total]) });
      expect(reports).toEqual([
        [1, 3],
        [2, 3],
        [3, 3],
      ]);
    } finally {
      session.close();
    }
  });

  it('stops at the next sample once a signal fired by a timer aborts it', async () => {
    const { model, project } = await loadFixture('low_contrast', 'trigger');
    const session = await ReviewSession.open({ model, project });
    try {
      const controller = new AbortController();
      let samplesAtAbort = 0;
      let samples = 0;
      setTimeout(() => {
        samplesAtAbort = samples;
        controller.abort(new Error('stopped by the test'));
      }, 100);
      // Samples are drawn without awaiting any I/O: unless the loop lets the event loop turn, the
      // timer (like a cancel arriving over IPC) fires only after the last of them.
      const frames = Array.from({ length: session.video.durationFrames }, (_, i) => i);
      await expect(
        captureSamples(session, frames, { signal: controller.signal, onSample: (done) => (samples = done) }),
      ).rejects.toThrow('stopped by the test');
      expect(samplesAtAbort).toBeLessThan(frames.length);
      expect(samples).toBe(samplesAtAbort);
    } finally {
      session.close();
    }
  });
});
