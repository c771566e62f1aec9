import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PreviewPlayer } from '../../player/preview-player.ts';
import { useSource } from '../editor/source-store.ts';
import { usePreview } from '../preview/preview-store.ts';
import { useSession } from '../session/session-store.ts';
import type { Track } from './timeline-tracks.ts';
import { useTimeline } from './timeline-store.ts';

vi.mock('../session/resolve-bridge.ts', () => ({ resolveBridge: () => ({ mode: 'browser' }) }));

const initial = {
  timeline: useTimeline.getState(),
  preview: usePreview.getState(),
  source: useSource.getState(),
};

function attachPlayer() {
  const player = { configure: vi.fn(), play: vi.fn(), pause: vi.fn(), select: vi.fn(), seek: vi.fn() };
  usePreview.setState({ player: player as unknown as PreviewPlayer, total: 300, frame: 40, playing: false });
  return player;
}

const HEADLINE: Track = {
  key: 's1/e0',
  kind: 'element',
  label: 'headline',
  type: 'text',
  startFrame: 90,
  endFrame: 150,
  pointer: '/scenes/1/elements/0',
  needles: ['headline', 'Hello'],
};

beforeEach(() => {
  useTimeline.setState(initial.timeline, true);
  usePreview.setState(initial.preview, true);
  useSource.setState(initial.source, true);
});

describe('timeline store', () => {
  it('marks in and out at the playhead and tells the player the range to loop in', () => {
    const player = attachPlayer();
    useTimeline.getState().markIn();
    usePreview.setState({ frame: 70 });
    useTimeline.getState().markOut();
    expect(useTimeline.getState()).toMatchObject({ inPoint: 40, outPoint: 70 });
    expect(player.configure).toHaveBeenLastCalledWith({ rate: 1, range: { start: 40, end: 71 }, loop: true });
    useTimeline.getState().toggleLoop();
    expect(player.configure).toHaveBeenLastCalledWith({
      rate: 1,
      range: { start: 40, end: 71 },
      loop: false,
    });
    useTimeline.getState().clearMarks();
    expect(player.configure).toHaveBeenLastCalledWith({ rate: 1, range: undefined, loop: false });
  });

  it('plays the chosen speed; the shuttle drives the rate until K returns to it', () => {
    const player = attachPlayer();
    useTimeline.getState().setSpeed(0.5);
    expect(player.configure).toHaveBeenLastCalledWith(expect.objectContaining({ rate: 0.5 }));
    useTimeline.getState().shuttle('forward'); // paused: L plays at 1×
    expect(useTimeline.getState().rate).toBe(1);
    expect(player.play).toHaveBeenCalledOnce();
    usePreview.setState({ playing: true });
    useTimeline.getState().shuttle('forward');
    expect(useTimeline.getState().rate).toBe(2);
    useTimeline.getState().shuttle('back');
    useTimeline.getState().shuttle('back');
    expect(useTimeline.getState().rate).toBe(-1);
    expect(player.configure).toHaveBeenLastCalledWith(expect.objectContaining({ rate: -1 }));
    useTimeline.getState().shuttle('pause');
    expect(player.pause).toHaveBeenCalledOnce();
    expect(useTimeline.getState()).toMatchObject({ rate: 0.5, speed: 0.5 });
  });

  it('selects a row: the player reports its box, the playhead moves into it, the editor to its literal', () => {
    const player = attachPlayer();
    const seek = vi.spyOn(usePreview.getState(), 'seek');
    usePreview.setState({ seek });
    useSession.setState({ info: { source: '/p/reel.ts' } as never });
    useSource.setState({ text: "scene({}, [\n  text('Hello', { id: 'headline' }),\n]);\n" });
    useTimeline.getState().select(HEADLINE);
    expect(player.select).toHaveBeenLastCalledWith('s1/e0');
    expect(seek).toHaveBeenCalledWith(90);
    expect(useSource.getState().jump).toMatchObject({ line: 2, column: 23, focus: false });
    useTimeline.getState().select(undefined);
    expect(player.select).toHaveBeenLastCalledWith(undefined);
    expect(useTimeline.getState().selected).toBeUndefined();
  });

  it('goes by the pointer in a JSON spec, and says when a row is not in the source', () => {
    attachPlayer();
    usePreview.setState({ frame: 100 });
    useSession.setState({ info: { source: '/p/spec.JSON' } as never });
    useSource.setState({ text: '{"scenes": [{}, {"elements": [\n {"type": "text"}]}]}' });
    useTimeline.getState().select(HEADLINE);
    // An array's item is marked at its opening brace, where the cursor goes.
    expect(useSource.getState().jump).toMatchObject({ line: 2, column: 2 });
    useSource.setState({ text: '{}', jump: undefined });
    useTimeline.getState().select(HEADLINE);
    expect(useSource.getState().jump).toBeUndefined();
    expect(useTimeline.getState().notice).toMatch(/headline is not written in this file/);
  });
});
