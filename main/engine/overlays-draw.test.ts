// Overlays drawn with the real Skia canvas: elements over the whole video stay where they are while
// a slide transition pushes the scenes under them, and overlay captions follow the video's clock.
// Each check is made against the per-scene workaround too, which does slide, so the pixels compared
// are ones a transition would move.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DrawnElement } from '../../shared/canvas/types.ts';
import type { ModelElement, VideoModel } from '../../shared/spec/model.ts';
import { loadProject } from '../project/load.ts';
import { DrawingSession } from './drawing-session.ts';
import { projectContext } from './project-context.ts';
import type { RenderProjectContext } from './project-context.ts';

const EXAMPLES = new URL('../../examples/', import.meta.url).pathname;
const SIZE = { width: 640, height: 360 };
const FPS = 30;

// Two 3 s scenes joined by a 0.6 s slide from the right: the video is 5.4 s (162 frames), and the
// slide runs over frames 72–89 (2.4 s to 3 s).
const SLIDE_FRAMES = [74, 78, 82, 86];
const BEFORE_SLIDE = 60;
const AFTER_SLIDE = 100;

const RED_SQUARE: ModelElement = {
  type: 'rect',
  width: 60,
  height: 60,
  x: 0.85,
  y: 0.2,
  box: 'frame',
  fill: '#ff0000',
};

/** White text on opaque black lines, so its pixels are the same over any background. */
const CAPTIONS: ModelElement = {
  type: 'captions',
  srt: '1\n00:00:00,000 --> 00:00:02,500\nFIRST LINE\n\n2\n00:00:02,500 --> 00:00:05,400\nSECOND LINE\n',
  size: 40,
  color: '#ffffff',
  background: { color: '#000000' },
};

/** A white marker in each scene: what the slide visibly moves. */
function video(scene: (index: number) => ModelElement[], overlays?: ModelElement[]): VideoModel {
  const marker: ModelElement = { type: 'rect', id: 'marker', width: 50, height: 50, x: 0.3, y: 0.4 };
  return {
    kinoSpec: 1,
    fps: FPS,
    aspect: SIZE,
    scenes: [
      { duration: '3s', background: '#1e3a8a', elements: [{ ...marker, fill: '#ffffff' }, ...scene(0)] },
      {
        duration: '3s',
        background: '#14532d',
        transition: { type: 'slide', direction: 'right', duration: '0.6s' },
        elements: [{ ...marker, fill: '#ffffff' }, ...scene(1)],
      },
    ],
    ...(overlays ? { overlays } : {}),
  };
}

interface Drawn {
  rgba: Uint8Array;
  elements: DrawnElement[];
}

let project: RenderProjectContext;
const open: DrawingSession[] = [];

beforeAll(async () => {
  project = await projectContext(await loadProject(EXAMPLES));
});

afterEach(() => {
  for (const session of open.splice(0)) session.close();
});

async function drawFrames(model: VideoModel, frames: readonly number[]): Promise<Map<number, Drawn>> {
  let elements: DrawnElement[] = [];
  const session = await DrawingSession.open({
    model,
    project,
    review: { observe: (drawn) => elements.push(drawn) },
  });
  open.push(session);
  const drawn = new Map<number, Drawn>();
  for (const frame of frames) {
    elements = [];
    await session.draw(frame);
    drawn.set(frame, { rgba: session.rgba(), elements });
  }
  return drawn;
}

type Pixel = [number, number, number];

/** The bounds of the pixels `matches` picks, as "x0,y0–x1,y1"; "none" when there are none. */
function boundsOf(rgba: Uint8Array, matches: (pixel: Pixel) => boolean): string {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let y = 0; y < SIZE.height; y++) {
    for (let x = 0; x < SIZE.width; x++) {
      const i = (y * SIZE.width + x) * 4;
      if (!matches([rgba[i]!, rgba[i + 1]!, rgba[i + 2]!])) continue;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
    }
  }
  return x1 < 0 ? 'none' : `${x0},${y0}–${x1},${y1}`;
}

const isRed = ([r, g, b]: Pixel) => r > 240 && g < 16 && b < 16;
const isWhite = ([r, g, b]: Pixel) => r > 240 && g > 240 && b > 240;

/** The white pixels of the frame's bottom third (where the captions sit), as one string to compare. */
function captionPixels(rgba: Uint8Array): string {
  const lit: number[] = [];
  for (let y = Math.floor(SIZE.height * 0.66); y < SIZE.height; y++) {
    for (let x = 0; x < SIZE.width; x++) {
      const i = (y * SIZE.width + x) * 4;
      if (isWhite([rgba[i]!, rgba[i + 1]!, rgba[i + 2]!])) lit.push(y * SIZE.width + x);
    }
  }
  return `${lit.length}:${lit.join(',')}`;
}

/** The caption text drawn on a frame, by element key. */
function captionTexts(drawn: Drawn): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const element of drawn.elements) {
    if (element.element.type === 'text' && /\/e\d+$/.test(element.key))
      texts[element.key] = element.element.text;
  }
  return texts;
}

describe('overlays over a slide transition', () => {
  it('keeps a red square in overlays in place on every frame of the slide', { timeout: 60_000 }, async () => {
    const frames = [BEFORE_SLIDE, ...SLIDE_FRAMES, AFTER_SLIDE];
    const drawn = await drawFrames(
      video(() => [], [RED_SQUARE]),
      frames,
    );
    const red = frames.map((frame) => boundsOf(drawn.get(frame)!.rgba, isRed));
    // 60 design pixels at 640×360 (the shorter side is 1080 design pixels) is 20 px.
    expect(red[0]).not.toBe('none');
    expect(new Set(red)).toEqual(new Set([red[0]]));
    const [x0, , x1] = red[0]!.split(/[,–]/).map(Number);
    expect(x1! - x0! + 1).toBe(20);
    // Meanwhile the scenes do slide: the white markers are somewhere else on each frame of it.
    const markers = SLIDE_FRAMES.map((frame) => boundsOf(drawn.get(frame)!.rgba, isWhite));
    expect(new Set(markers).size).toBe(SLIDE_FRAMES.length);
    // The overlay is drawn once, not onto a transition layer.
    const square = drawn.get(SLIDE_FRAMES[1]!)!.elements.filter((element) => element.key === 'o/e0');
    expect(square).toMatchObject([{ inTransition: false }]);
  });

  it('the same square put in each scene (the workaround) slides with them', { timeout: 60_000 }, async () => {
    const drawn = await drawFrames(
      video(() => [RED_SQUARE]),
      SLIDE_FRAMES,
    );
    const red = SLIDE_FRAMES.map((frame) => boundsOf(drawn.get(frame)!.rgba, isRed));
    expect(new Set(red).size).toBe(SLIDE_FRAMES.length);
  });
});

describe('captions in overlays', () => {
  it('are timed against the video and stay still through the slide', { timeout: 60_000 }, async () => {
    // Frame 74 is 2.467 s into the video, 0.067 s into the second scene: cue 1 (to 2.5 s) still shows.
    const drawn = await drawFrames(
      video(() => [], [CAPTIONS]),
      [40, ...SLIDE_FRAMES, 150],
    );
    expect(captionTexts(drawn.get(40)!)).toEqual({ 'o/e0': 'FIRST LINE' });
    expect(captionTexts(drawn.get(74)!)).toEqual({ 'o/e0': 'FIRST LINE' });
    expect(captionTexts(drawn.get(78)!)).toEqual({ 'o/e0': 'SECOND LINE' });
    expect(captionTexts(drawn.get(150)!)).toEqual({ 'o/e0': 'SECOND LINE' });
    // While the scenes slide, the second cue's pixels do not move.
    const during = [78, 82, 86].map((frame) => captionPixels(drawn.get(frame)!.rgba));
    expect(during[0]!.startsWith('0:')).toBe(false);
    expect(new Set(during).size).toBe(1);
    expect(captionPixels(drawn.get(150)!.rgba)).toBe(during[0]);
  });

  it(
    'cut into one element per scene (the workaround), they slide with the scenes',
    { timeout: 60_000 },
    async () => {
      // The second scene's copy starts 2.4 s into the video, so it shifts its cues 2.4 s earlier.
      const perScene = (index: number): ModelElement[] => [
        index === 0 ? CAPTIONS : { ...CAPTIONS, offset: '-2.4s' },
      ];
      const drawn = await drawFrames(video(perScene), [78, 82, 86]);
      const during = [78, 82, 86].map((frame) => captionPixels(drawn.get(frame)!.rgba));
      expect(new Set(during).size).toBe(3);
    },
  );
});
