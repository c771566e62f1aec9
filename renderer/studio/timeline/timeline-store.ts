// The Timeline: zoom, in/out points, loop, speed and the J/K/L shuttle (what the preview player is
// told to play), and the selected row (its box drawn on the preview, the editor moved to it).
import { create } from 'zustand';
import { useSource } from '../editor/source-store.ts';
import { usePreview } from '../preview/preview-store.ts';
import { isSpecSource, useSession } from '../session/session-store.ts';
import { locateTrack } from './source-location.ts';
import { markIn, markOut, playbackOf, shuttleRate } from './timeline-math.ts';
import type { Marks } from './timeline-math.ts';
import type { Track } from './timeline-tracks.ts';

interface TimelineState extends Marks {
  /** 1 fits the whole video; the view clamps it (timeline-math's clampZoom). */
  zoom: number;
  loop: boolean;
  /** The speed chosen (0.25× … 2×): what Space plays at, and what K returns to. */
  speed: number;
  /** The rate playing: the speed, or the shuttle's (J/K/L) while it drives. */
  rate: number;
  selected: string | undefined;
  /** The selected row was not found in the source (one line for the user). */
  notice: string | undefined;
  setZoom(zoom: number): void;
  markIn(frame?: number): void;
  markOut(frame?: number): void;
  clearMarks(): void;
  toggleLoop(): void;
  setSpeed(speed: number): void;
  shuttle(direction: 'back' | 'pause' | 'forward'): void;
  select(track: Track | undefined): void;
  /** Tells the player (a new one too) what to play. */
  applyPlayback(): void;
}

export const useTimeline = create<TimelineState>((set, get) => ({
  zoom: 1,
  inPoint: undefined,
  outPoint: undefined,
  loop: true,
  speed: 1,
  rate: 1,
  selected: undefined,
  notice: undefined,

  setZoom(zoom) {
    set({ zoom });
  },

  markIn(frame = usePreview.getState().frame) {
    set(markIn(get(), frame));
    get().applyPlayback();
  },

  markOut(frame = usePreview.getState().frame) {
    set(markOut(get(), frame));
    get().applyPlayback();
  },

  clearMarks() {
    set({ inPoint: undefined, outPoint: undefined });
    get().applyPlayback();
  },

  toggleLoop() {
    set({ loop: !get().loop });
    get().applyPlayback();
  },

  setSpeed(speed) {
    set({ speed, rate: speed });
    get().applyPlayback();
  },

  shuttle(direction) {
    const preview = usePreview.getState();
    if (direction === 'pause') {
      set({ rate: get().speed });
      preview.player?.pause();
      get().applyPlayback();
      return;
    }
    set({ rate: shuttleRate(get().rate, preview.playing, direction) });
    get().applyPlayback();
    preview.player?.play();
  },

  select(track) {
    const preview = usePreview.getState();
    set({ selected: track?.key, notice: undefined });
    preview.player?.select(track?.key);
    if (!track) return;
    // The box shows only where the element is drawn: bring the playhead into its interval.
    if (preview.frame < track.startFrame || preview.frame >= track.endFrame) preview.seek(track.startFrame);
    const isSpec = isSpecSource(useSession.getState().info?.source);
    const range = locateTrack(useSource.getState().text, track, isSpec);
    if (range) useSource.getState().reveal(range);
    else set({ notice: `${track.label} is not written in this file by name (built in code?).` });
  },

  applyPlayback() {
    const { inPoint, outPoint, loop, rate } = get();
    const preview = usePreview.getState();
    preview.player?.configure(playbackOf({ inPoint, outPoint }, loop, rate, preview.total));
  },
}));
