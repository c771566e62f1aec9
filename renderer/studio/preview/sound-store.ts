// Whether the preview plays its sound. Muted until the user unmutes it (browsers let a page start
// audio only from a gesture, and a studio that suddenly plays music surprises), then remembered for
// this tab's session, so opening another file keeps the choice.
import { create } from 'zustand';
import { usePreview } from './preview-store.ts';

const MUTED_KEY = 'kino.studio.muted';

function rememberedMuted(): boolean {
  try {
    return sessionStorage.getItem(MUTED_KEY) !== 'false';
  } catch {
    return true; // storage refused (a sandboxed page): start muted every time
  }
}

interface SoundPreference {
  muted: boolean;
  /** Call from the click itself: the player opens its audio inside the gesture. */
  toggleMute(): void;
}

export const useSound = create<SoundPreference>((set, get) => ({
  muted: rememberedMuted(),

  toggleMute() {
    const muted = !get().muted;
    set({ muted });
    try {
      sessionStorage.setItem(MUTED_KEY, String(muted));
    } catch {
      // not remembered; the choice still holds in this page
    }
    usePreview.getState().player?.setMuted(muted);
  },
}));
