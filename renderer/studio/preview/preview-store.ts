// What the live preview shows (mirrored from the PreviewPlayer, which owns playback) and the intents
// the controls, the keyboard and Inspect frame send it.
import { create } from 'zustand';
import type { AspectName } from '../../../shared/spec/sizes.ts';
import type { PlayerState } from '../../player/preview-player.ts';
import type { PreviewPlayer } from '../../player/preview-player.ts';

interface PreviewState extends PlayerState {
  player: PreviewPlayer | undefined;
  /** The size previewed (and captured, reviewed and exported): undefined = the composition's own. */
  aspect: AspectName | undefined;
  attach(player: PreviewPlayer | undefined): void;
  update(state: Partial<PlayerState>): void;
  togglePlay(): void;
  seek(frame: number): void;
  step(delta: number): void;
  setAspect(aspect: AspectName | undefined): void;
}

export const usePreview = create<PreviewState>((set, get) => ({
  status: 'connecting',
  frame: 0,
  total: 1,
  fps: 30,
  playing: false,
  width: 1080,
  height: 1920,
  title: undefined,
  modelAspect: undefined,
  buildId: undefined,
  problems: [],
  runtimeError: undefined,
  missing: [],
  connected: false,
  sound: { status: 'muted', voices: 0, starts: 0, from: 0 },
  video: undefined,
  selectionBox: undefined,
  declared: undefined,
  specIssues: [],
  player: undefined,
  aspect: undefined,

  attach(player) {
    set({ player });
  },
  update(state) {
    set(state);
  },
  togglePlay() {
    get().player?.togglePlay();
  },
  seek(frame) {
    get().player?.seek(frame);
  },
  step(delta) {
    get().player?.step(delta);
  },
  setAspect(aspect) {
    set({ aspect });
    void get().player?.setAspect(aspect);
  },
}));

export function formatTimecode(frame: number, fps: number): string {
  const seconds = frame / Math.max(1, fps);
  const minutes = Math.floor(seconds / 60);
  const rest = seconds - minutes * 60;
  return `${minutes}:${rest.toFixed(2).padStart(5, '0')}`;
}
