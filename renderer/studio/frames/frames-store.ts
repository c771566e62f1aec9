// Frames captured through the workspace (the authoritative Skia render), kept in a strip, two of
// which can be compared side by side.
import { create } from 'zustand';
import { describeError, useSession, workspaceClient } from '../session/session-store.ts';
import type { FrameAnswer } from '../../../shared/protocol/workspace.ts';
import { usePreview } from '../preview/preview-store.ts';
import { jobVariables } from '../variables/variables-store.ts';

export interface CapturedFrame {
  id: number;
  frameIndex: number;
  seconds: number;
  aspect: string | undefined;
  sourceRevision: string;
  path: string;
  url: string;
  width: number;
  height: number;
  captureMilliseconds: number;
}

interface FramesState {
  frames: CapturedFrame[];
  capturing: boolean;
  error: string | undefined;
  /** Ids of up to two frames shown side by side. */
  compare: number[];
  capture(frameIndex?: number): Promise<CapturedFrame | undefined>;
  remove(id: number): void;
  toggleCompare(id: number): void;
  closeCompare(): void;
}

let nextId = 1;

export const useFrames = create<FramesState>((set, get) => ({
  frames: [],
  capturing: false,
  error: undefined,
  compare: [],

  async capture(frameIndex) {
    const preview = usePreview.getState();
    const index = frameIndex ?? preview.frame;
    set({ capturing: true, error: undefined });
    try {
      const client = workspaceClient();
      const result = await client.runJob<FrameAnswer>({
        operation: 'frame',
        frameIndex: index,
        ...(preview.aspect ? { aspect: preview.aspect } : {}),
        ...jobVariables(preview.declared),
      });
      const captured: CapturedFrame = {
        id: nextId++,
        frameIndex: result.frame.index,
        seconds: result.frame.seconds,
        aspect: preview.aspect,
        sourceRevision: result.sourceRevision,
        path: result.frame.path,
        url: await client.artifactUrl(result.frame.path),
        width: result.frame.width,
        height: result.frame.height,
        captureMilliseconds: result.captureMilliseconds,
      };
      const frames = [captured, ...get().frames];
      for (const dropped of frames.slice(24)) URL.revokeObjectURL(dropped.url);
      set({ frames: frames.slice(0, 24) });
      void useSession.getState().refreshStatus();
      return captured;
    } catch (error) {
      set({ error: describeError(error) });
      return undefined;
    } finally {
      set({ capturing: false });
    }
  },

  remove(id) {
    const gone = get().frames.find((frame) => frame.id === id);
    if (gone) URL.revokeObjectURL(gone.url);
    set({
      frames: get().frames.filter((frame) => frame.id !== id),
      compare: get().compare.filter((other) => other !== id),
    });
  },

  toggleCompare(id) {
    const compare = get().compare;
    if (compare.includes(id)) set({ compare: compare.filter((other) => other !== id) });
    else set({ compare: [...compare, id].slice(-2) });
  },

  closeCompare() {
    set({ compare: [] });
  },
}));
