// Frames captured through the workspace (the authoritative Skia render), kept in a strip, two of
// which can be compared side by side.
import { create } from 'zustand';
import { describeError, useSession, workspaceClient } from '../session/session-store.ts';
import type { FrameAnswer } from '../../../shared/protocol/workspace.ts';
import type { AspectName } from '../../../shared/spec/sizes.ts';
import { usePreview } from '../preview/preview-store.ts';
import { jobVariables } from '../variables/variables-store.ts';

export interface CapturedFrame {
  id: number;
  frameIndex: number;
  seconds: number;
  aspect: AspectName | undefined;
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
  /** Captures a stale frame again at the current revision, in its place in the strip. */
  recapture(id: number): Promise<CapturedFrame | undefined>;
  remove(id: number): void;
  /** Drops the last capture error (it was about an older revision). */
  clearError(): void;
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
    const captured = await captureFrame(frameIndex ?? preview.frame, preview.aspect);
    if (!captured) return undefined;
    const frames = [captured, ...get().frames];
    for (const dropped of frames.slice(24)) URL.revokeObjectURL(dropped.url);
    set({ frames: frames.slice(0, 24) });
    return captured;
  },

  async recapture(id) {
    const old = get().frames.find((frame) => frame.id === id);
    if (!old) return undefined;
    const captured = await captureFrame(old.frameIndex, old.aspect);
    if (!captured) return undefined;
    URL.revokeObjectURL(old.url);
    set({
      frames: get().frames.map((frame) => (frame.id === id ? captured : frame)),
      compare: get().compare.map((other) => (other === id ? captured.id : other)),
    });
    return captured;
  },

  clearError() {
    set({ error: undefined });
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

/** One capture through the workspace; on failure the strip shows the error and nothing is added. */
async function captureFrame(
  frameIndex: number,
  aspect: AspectName | undefined,
): Promise<CapturedFrame | undefined> {
  useFrames.setState({ capturing: true, error: undefined });
  try {
    const client = workspaceClient();
    const result = await client.runJob<FrameAnswer>({
      operation: 'frame',
      frameIndex,
      ...(aspect ? { aspect } : {}),
      // The form's values now (a recapture shows the frame as the template is set now).
      ...jobVariables(usePreview.getState().declared),
    });
    const captured: CapturedFrame = {
      id: nextId++,
      frameIndex: result.frame.index,
      seconds: result.frame.seconds,
      aspect,
      sourceRevision: result.sourceRevision,
      path: result.frame.path,
      url: await client.artifactUrl(result.frame.path),
      width: result.frame.width,
      height: result.frame.height,
      captureMilliseconds: result.captureMilliseconds,
    };
    void useSession.getState().refreshStatus();
    return captured;
  } catch (error) {
    useFrames.setState({ error: describeError(error) });
    return undefined;
  } finally {
    useFrames.setState({ capturing: false });
  }
}

/** A frame captured at another revision than the current one no longer shows what the source draws. */
export function isStaleFrame(frame: CapturedFrame, currentRevision: string | undefined): boolean {
  return currentRevision !== undefined && frame.sourceRevision !== currentRevision;
}
