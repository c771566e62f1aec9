import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PreviewPlayer } from '../../player/preview-player.ts';
import { formatTimecode, usePreview } from './preview-store.ts';

const initial = usePreview.getState();
beforeEach(() => usePreview.setState(initial, true));

/** The player's side of the intents (the real one drives an iframe). */
function fakePlayer() {
  const player = {
    togglePlay: vi.fn(),
    pause: vi.fn(),
    seek: vi.fn(),
    step: vi.fn(),
    setAspect: vi.fn(async () => {}),
  };
  return { player, asPlayer: player as unknown as PreviewPlayer };
}

describe('preview store', () => {
  it('mirrors what the player reports, keeping what it does not', () => {
    usePreview.getState().update({ status: 'ready', frame: 12, total: 90, fps: 30, connected: true });
    usePreview.getState().update({ frame: 13, playing: true });
    const state = usePreview.getState();
    expect(state).toMatchObject({ status: 'ready', frame: 13, total: 90, fps: 30, playing: true });
    expect(state.connected).toBe(true);
  });

  it('sends play, seek and step to the attached player', () => {
    const { player, asPlayer } = fakePlayer();
    usePreview.getState().attach(asPlayer);
    usePreview.getState().togglePlay();
    usePreview.getState().seek(42);
    usePreview.getState().step(-1);
    expect(player.togglePlay).toHaveBeenCalledOnce();
    expect(player.seek).toHaveBeenCalledWith(42);
    expect(player.step).toHaveBeenCalledWith(-1);
  });

  it('ignores the intents while no player is attached (the preview is still loading)', () => {
    expect(() => {
      usePreview.getState().togglePlay();
      usePreview.getState().seek(3);
      usePreview.getState().step(1);
    }).not.toThrow();
    const { player, asPlayer } = fakePlayer();
    usePreview.getState().attach(asPlayer);
    usePreview.getState().attach(undefined);
    usePreview.getState().seek(3);
    expect(player.seek).not.toHaveBeenCalled();
  });

  it('keeps the chosen aspect (for capture, review and export) and previews it', () => {
    const { player, asPlayer } = fakePlayer();
    usePreview.getState().attach(asPlayer);
    usePreview.getState().setAspect('square');
    expect(usePreview.getState().aspect).toBe('square');
    expect(player.setAspect).toHaveBeenCalledWith('square');
    usePreview.getState().setAspect(undefined);
    expect(usePreview.getState().aspect).toBeUndefined();
    expect(player.setAspect).toHaveBeenLastCalledWith(undefined);
  });

  it('keeps the aspect chosen before the player is attached', () => {
    usePreview.getState().setAspect('landscape');
    expect(usePreview.getState().aspect).toBe('landscape');
  });
});

describe('formatTimecode', () => {
  it('shows minutes and seconds with hundredths', () => {
    expect(formatTimecode(0, 30)).toBe('0:00.00');
    expect(formatTimecode(45, 30)).toBe('0:01.50');
    expect(formatTimecode(30 * 75, 30)).toBe('1:15.00');
  });

  it('does not divide by a zero frame rate', () => {
    expect(formatTimecode(2, 0)).toBe('0:02.00');
  });
});
