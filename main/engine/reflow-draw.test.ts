// The reflow's rule, drawn with the real Skia canvas and the bundled fonts: a landscape layout drawn
// as a reel narrows, moves and (for a word too wide alone) sets smaller each text that would leave the
// safe area, and leaves alone what fits, what has overrides and the video's own aspect.
import { beforeAll, describe, expect, it } from 'vitest';
import { registerBundledFonts } from '../fonts/register.ts';
import { createDrawEnv } from './canvas-host.ts';
import { restingState } from '../../shared/animation/state.ts';
import { drawFrame } from '../../shared/draw/frame.ts';
import { safeBox } from '../../shared/elements/place.ts';
import { placeResolved } from '../../shared/elements/reflow.ts';
import { layoutTextElement } from '../../shared/elements/text/text-measure.ts';
import type { ModelElement, VideoModel } from '../../shared/spec/model.ts';
import type { TextElement } from '../../shared/spec/text-element.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import type { ResolvedVideo } from '../../shared/timeline/types.ts';

const noMedia = { image: () => undefined, videoFrame: () => undefined };

beforeAll(() => registerBundledFonts());

function landscape(elements: ModelElement[]): VideoModel {
  return { kinoSpec: 1, aspect: 'landscape', background: '#000000', scenes: [{ duration: 1, elements }] };
}

/** The frame drawn at `aspect`, and how many white pixels each column holds. */
function draw(video: ResolvedVideo): { columns: number[]; rows: number[] } {
  const env = createDrawEnv(video.size, video.fps, noMedia);
  const surface = env.createSurface(video.size.width, video.size.height);
  drawFrame(surface.ctx, video, 0, env);
  const { width, height } = video.size;
  const { data } = surface.ctx.getImageData(0, 0, width, height);
  const columns = new Array<number>(width).fill(0);
  const rows = new Array<number>(height).fill(0);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      if (data[i]! > 128 && data[i + 1]! > 128 && data[i + 2]! > 128) {
        columns[x]!++;
        rows[y]!++;
      }
    }
  }
  return { columns, rows };
}

const sum = (list: readonly number[], from: number, to: number) =>
  list.slice(Math.max(0, from), Math.max(0, to)).reduce((total, n) => total + n, 0);

describe('the reflow', () => {
  it('narrows and moves a text that would run off a reel, so no glyph lies outside the safe area', () => {
    // 1400 wide, centred at 0.3 of the landscape safe area: on a reel it would span -240 to 1160.
    const model = landscape([
      { type: 'text', text: 'Quiet sound for loud rooms', size: 120, width: 1400, x: 0.3 },
    ]);
    const reel = resolveTimeline(model, { aspect: 'reels' });
    const env = createDrawEnv(reel.size, reel.fps, noMedia);
    const safe = safeBox(env);
    const { columns } = draw(reel);
    expect(sum(columns, 0, Math.floor(safe.x))).toBe(0);
    expect(sum(columns, Math.ceil(safe.x + safe.width), reel.size.width)).toBe(0);
    expect(sum(columns, Math.ceil(safe.x), Math.floor(safe.x + safe.width))).toBeGreaterThan(5000);
    // Written for reels, the same layout is cut at both edges.
    const cut = draw(resolveTimeline({ ...model, aspect: 'reels' }, { aspect: 'reels' }));
    expect(cut.columns[0]! + cut.columns[reel.size.width - 1]!).toBeGreaterThan(0);
  });

  it('sets a word too wide for the safe area alone smaller rather than breaking it', () => {
    const word: TextElement = { type: 'text', text: 'Subscriptions', font: 'display', size: 400 };
    const reel = resolveTimeline(landscape([word]), { aspect: 'reels' });
    const env = createDrawEnv(reel.size, reel.fps, noMedia);
    const resolved = reel.scenes[0]!.elements[0]!;
    const placed = placeResolved(resolved, safeBox(env), env, restingState());
    const shown = placed.element as TextElement;
    expect(shown.size).toBeLessThan(400);
    const layout = layoutTextElement(env.createSurface(1, 1).ctx, shown, env, placed.box);
    expect(layout.brokenWords).toBe(false);
    expect(layout.lines).toHaveLength(1);
    const { columns } = draw(reel);
    expect(sum(columns, 0, 108)).toBe(0);
    expect(sum(columns, 972, 1080)).toBe(0);
  });

  it('lets a written height give way when the narrowed lines need more', () => {
    const boxed: TextElement = {
      type: 'text',
      text: 'One line in landscape, three on a reel',
      size: 90,
      width: 1600,
      height: 120,
    };
    const reel = resolveTimeline(landscape([boxed]), { aspect: 'reels' });
    const env = createDrawEnv(reel.size, reel.fps, noMedia);
    const placed = placeResolved(reel.scenes[0]!.elements[0]!, safeBox(env), env, restingState());
    const layout = layoutTextElement(
      env.createSurface(1, 1).ctx,
      placed.element as TextElement,
      env,
      placed.box,
    );
    expect(layout.lines.length).toBeGreaterThan(1);
    expect(layout.height).toBeLessThanOrEqual(placed.box.height + 0.5);
  });

  it('leaves alone what fits, what has overrides for the aspect, and the video’s own aspect', () => {
    const fits: ModelElement = { type: 'text', text: 'Fits', size: 80, y: 0.3 };
    const overridden: ModelElement = {
      type: 'text',
      text: 'Mine',
      size: 80,
      x: 1.4,
      y: 0.6,
      aspects: { reels: {} },
    };
    const model = landscape([fits, overridden]);
    const reel = resolveTimeline(model, { aspect: 'reels' });
    const env = createDrawEnv(reel.size, reel.fps, noMedia);
    const container = safeBox(env);
    for (const resolved of reel.scenes[0]!.elements) {
      const placed = placeResolved(resolved, container, env, restingState());
      expect(placed.element).toBe(resolved.element);
    }
    // The overridden text stays where it is written, past the right edge.
    expect(sum(draw(reel).columns, 1000, 1080)).toBe(0);
    const own = resolveTimeline(model, { aspect: 'landscape' });
    expect(own.scenes[0]!.elements.every((resolved) => resolved.reflow === undefined)).toBe(true);
  });
});
