// Export: render options, the running render's progress (cancelable), the receipt of the last one
// and the receipts of past exports kept in the workspace's results folder.
import { create } from 'zustand';
import { describeError, useSession, workspaceClient } from '../session/session-store.ts';
import type { OperationProgress } from '../../../shared/protocol/workspace.ts';
import type { PastExport } from '../../../shared/studio/bridge.ts';
import type { RenderAnswer } from '../../../shared/protocol/workspace.ts';
import { usePreview } from '../preview/preview-store.ts';
import { useReview } from '../review/review-store.ts';
import { jobVariables } from '../variables/variables-store.ts';
import type { AspectName } from '../../../shared/spec/sizes.ts';

export interface ExportOptions {
  /** '' = the composition's own aspect. */
  aspect: AspectName | '';
  format: 'mp4' | 'mov' | 'gif' | 'transparent';
  quality: 'draft' | 'standard' | 'high';
  posterEnabled: boolean;
  /** A time in the spec's syntax, e.g. "2s" or "1.5s". */
  posterAt: string;
}

interface ExportState {
  options: ExportOptions;
  running: boolean;
  progress: OperationProgress | undefined;
  startedAt: number | undefined;
  error: string | undefined;
  canceled: boolean;
  last: RenderAnswer | undefined;
  past: PastExport[];
  setOptions(patch: Partial<ExportOptions>): void;
  render(): Promise<void>;
  cancel(): void;
  /** Drops the last render error or cancel note (they were about an older revision). */
  clearError(): void;
  loadPast(): Promise<void>;
}

let controller: AbortController | undefined;

export const useExport = create<ExportState>((set, get) => ({
  options: { aspect: '', format: 'mp4', quality: 'standard', posterEnabled: false, posterAt: '1s' },
  running: false,
  progress: undefined,
  startedAt: undefined,
  error: undefined,
  canceled: false,
  last: undefined,
  past: [],

  setOptions(patch) {
    set({ options: { ...get().options, ...patch } });
  },

  async render() {
    if (get().running) return;
    const { options } = get();
    const allowed = useReview.getState().allowed;
    controller = new AbortController();
    set({
      running: true,
      error: undefined,
      canceled: false,
      progress: { stage: 'queued', framesDone: 0, framesTotal: 0, fps: 0, etaSeconds: null },
      startedAt: performance.now(),
    });
    try {
      const result = await workspaceClient().runJob<RenderAnswer>(
        {
          operation: 'render',
          format: options.format,
          quality: options.quality,
          ...(options.aspect ? { aspect: options.aspect } : {}),
          ...(options.posterEnabled && options.posterAt ? { poster: options.posterAt } : {}),
          ...(allowed.length > 0 ? { allowQuality: allowed } : {}),
          ...jobVariables(usePreview.getState().declared),
        },
        (progress) => set({ progress }),
        controller.signal,
      );
      set({ last: result });
      await get().loadPast();
    } catch (error) {
      if ((error as Error).name === 'AbortError') set({ canceled: true });
      else set({ error: describeError(error) });
    } finally {
      controller = undefined;
      set({ running: false });
      void useSession.getState().refreshStatus();
    }
  },

  cancel() {
    controller?.abort();
  },

  clearError() {
    set({ error: undefined, canceled: false });
  },

  async loadPast() {
    try {
      set({ past: await workspaceClient().json<PastExport[]>('/studio/api/exports') });
    } catch {
      // The list is a convenience; the last receipt is still shown.
    }
  },
}));
