import { describe, expect, it } from 'vitest';
import { captions, group, scene, video } from '../../../shared/builder/index.ts';
import { captionClock, pageAt } from '../../../shared/elements/captions/captions-pages.ts';
import { layerSecondsAt } from '../element-timing.ts';
import { captionInput, srt } from './caption.fixture.ts';
import { spanFrames } from './caption-tracks.ts';

const cues = srt([1, 2, 'One'], [3, 5, 'Two']);
const spans = (model: Parameters<typeof captionInput>[0]) =>
  captionInput(model).tracks.map((track) => ({
    live: track.live,
    cues: track.cues.map((shown) => [shown.timed.startFrame, shown.timed.endFrame, shown.shown.endFrame]),
  }));

describe('captionTracks', () => {
  it('times cues in video frames: the element start, then offset, then speed', () => {
    const model = video({ fps: 30 }, [
      scene({ duration: '2s' }, [captions({ srt: srt([0, 1, 'Intro']) })]),
      scene({ duration: '6s' }, [
        captions({ srt: cues }),
        captions({ srt: cues, start: '0.5s', offset: '1s' }),
        captions({ srt: cues, speed: 2 }),
        captions({ srt: cues, offset: '-0.5s', speed: 0.5 }),
      ]),
    ]);
    expect(spans(model).slice(1)).toEqual([
      // The second scene starts at frame 60.
      {
        live: { startFrame: 60, endFrame: 240 },
        cues: [
          [90, 120, 120],
          [150, 210, 210],
        ],
      },
      // 0.5 s in, 1 s later: cue 1 at 2.5–3.5 s of the scene.
      {
        live: { startFrame: 75, endFrame: 240 },
        cues: [
          [135, 165, 165],
          [195, 255, 240],
        ],
      },
      // Twice as fast: cue 2 at 1.5–2.5 s.
      {
        live: { startFrame: 60, endFrame: 240 },
        cues: [
          [75, 90, 90],
          [105, 135, 135],
        ],
      },
      // Half as fast after a 0.5 s advance: cue 1 at 1.5–3.5 s, cue 2 at 5.5–9.5 s.
      {
        live: { startFrame: 60, endFrame: 240 },
        cues: [
          [105, 165, 165],
          [225, 345, 240],
        ],
      },
    ]);
  });

  it("keeps a group's child to its group's life and its own", () => {
    const model = video({ fps: 30 }, [
      scene({ duration: '6s' }, [
        group({ start: '1s', duration: '2s' }, [captions({ srt: cues, start: '0.5s' })]),
      ]),
    ]);
    expect(spans(model)).toEqual([
      {
        live: { startFrame: 45, endFrame: 90 },
        cues: [
          [75, 105, 90],
          [135, 195, 90],
        ],
      },
    ]);
  });

  it('puts each page on exactly the frames the drawing shows it on', () => {
    const odd = srt(
      [0.11, 0.73, 'A short one'],
      [0.73, 1.9, 'Then a longer line follows it'],
      [2.05, 4, 'Last'],
    );
    const model = video({ fps: 24 }, [
      scene({ duration: '1s' }, []),
      scene({ duration: '3.3s' }, [
        captions({ srt: odd, start: '0.13s', offset: '0.17s', speed: 0.7, maxLines: 1 }),
      ]),
    ]);
    const [track] = captionInput(model).tracks;
    const { layer: at, resolved } = track!.timing;
    const pages = track!.pages.map((shown) => shown.page);
    expect(track!.pages.filter((shown) => spanFrames(shown.shown) > 0).length).toBeGreaterThanOrEqual(3);
    for (let frame = track!.live.startFrame; frame < track!.live.endFrame; frame++) {
      const clock = captionClock(track!.element, layerSecondsAt(at, frame, 24) - resolved.startSeconds, 24);
      const drawn = pageAt(pages, clock);
      const found = track!.pages.find(
        (shown) => shown.shown.startFrame <= frame && frame < shown.shown.endFrame,
      );
      expect(found?.page, `frame ${frame}`).toBe(drawn);
    }
  });
});
