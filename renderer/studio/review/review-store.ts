// Review: sampled frames checked by the workspace, findings grouped by severity, codes the author
// allows as intentional, and the Inspect frame action (seek the preview, capture, show what is drawn).
import { create } from 'zustand';
import { describeError, useSession, workspaceClient } from '../session/session-store.ts';
import { WorkspaceProblem } from '../session/workspace-client.ts';
import type { InspectAnswer, ReviewAnswer } from '../../../shared/protocol/workspace.ts';
import { isFindingCode } from '../../../shared/protocol/finding.ts';
import { DEFAULT_REVIEW_FRAMES, MAX_REVIEW_FRAMES } from '../../../shared/protocol/review-frames.ts';
import type { FindingCode, ReviewFinding } from '../../../shared/protocol/finding.ts';
import { usePreview } from '../preview/preview-store.ts';
import { jobVariables } from '../variables/variables-store.ts';

export interface InspectView {
  finding: ReviewFinding | undefined;
  frameIndex: number;
  running: boolean;
  result: InspectAnswer | undefined;
  imageUrl: string | undefined;
  error: string | undefined;
}

interface ReviewState {
  reviewFrames: number;
  determinism: boolean;
  running: boolean;
  /** Samples drawn so far by the running review, from the job's progress lines. */
  progress: { done: number; total: number } | undefined;
  result: ReviewAnswer | undefined;
  error: string | undefined;
  /** Codes marked intentional for this composition (sent as allowQuality). */
  allowed: FindingCode[];
  inspect: InspectView | undefined;
  setReviewFrames(count: number): void;
  setDeterminism(on: boolean): void;
  run(): Promise<void>;
  /** Drops the last review error (it was about an older revision). */
  clearError(): void;
  toggleAllowed(code: FindingCode): void;
  loadAllowed(source: string): void;
  inspectFinding(finding: ReviewFinding): Promise<void>;
  inspectFrame(frameIndex: number): Promise<void>;
  closeInspect(): void;
}

const allowedKey = (source: string) => `kino.studio.allowed:${source}`;

export const useReview = create<ReviewState>((set, get) => ({
  reviewFrames: DEFAULT_REVIEW_FRAMES,
  determinism: false,
  running: false,
  progress: undefined,
  result: undefined,
  error: undefined,
  allowed: [],
  inspect: undefined,

  setReviewFrames(count) {
    set({ reviewFrames: Math.min(MAX_REVIEW_FRAMES, Math.max(1, Math.round(count) || 1)) });
  },
  setDeterminism(on) {
    set({ determinism: on });
  },

  async run() {
    const { reviewFrames, determinism, allowed } = get();
    const aspect = usePreview.getState().aspect;
    set({ running: true, error: undefined, progress: { done: 0, total: reviewFrames } });
    try {
      const result = await workspaceClient().runJob<ReviewAnswer>(
        {
          operation: 'review',
          reviewFrames,
          reviewDeterminism: determinism,
          ...(aspect ? { aspect } : {}),
          ...(allowed.length > 0 ? { allowQuality: allowed } : {}),
          ...jobVariables(usePreview.getState().declared),
        },
        (progress) => {
          if (progress.stage === 'reviewing' && progress.framesTotal > 0) {
            set({ progress: { done: progress.framesDone, total: progress.framesTotal } });
          }
        },
      );
      set({ result });
    } catch (error) {
      set({ error: describeError(error) });
    } finally {
      set({ running: false, progress: undefined });
      void useSession.getState().refreshStatus();
    }
  },

  clearError() {
    set({ error: undefined });
  },

  toggleAllowed(code) {
    const allowed = get().allowed.includes(code)
      ? get().allowed.filter((other) => other !== code)
      : [...get().allowed, code].sort();
    set({ allowed });
    const source = useSession.getState().info?.source;
    if (source) localStorage.setItem(allowedKey(source), JSON.stringify(allowed));
    // The findings already listed follow at once; the next review sends the list.
    const result = get().result;
    if (result) {
      set({
        result: {
          ...result,
          findings: result.findings.map((finding) => ({
            ...finding,
            allowed: allowed.includes(finding.code),
          })),
        },
      });
    }
  },

  loadAllowed(source) {
    try {
      const stored = JSON.parse(localStorage.getItem(allowedKey(source)) ?? '[]') as unknown;
      // Codes this version does not know (an older or newer studio stored them) are dropped.
      if (Array.isArray(stored))
        set({
          allowed: stored.filter(
            (code): code is FindingCode => typeof code === 'string' && isFindingCode(code),
          ),
        });
    } catch {
      set({ allowed: [] });
    }
  },

  async inspectFinding(finding) {
    await inspectAt(finding.inspect.frameIndex, finding, finding.inspect.sourceRevision);
  },

  async inspectFrame(frameIndex) {
    await inspectAt(frameIndex, undefined, undefined);
  },

  closeInspect() {
    const url = get().inspect?.imageUrl;
    if (url) URL.revokeObjectURL(url);
    set({ inspect: undefined });
  },
}));

async function inspectAt(
  frameIndex: number,
  finding: ReviewFinding | undefined,
  sourceRevision: string | undefined,
): Promise<void> {
  const preview = usePreview.getState();
  preview.player?.pause();
  preview.seek(frameIndex);
  const previous = useReview.getState().inspect?.imageUrl;
  if (previous) URL.revokeObjectURL(previous);
  useReview.setState({
    inspect: { finding, frameIndex, running: true, result: undefined, imageUrl: undefined, error: undefined },
  });
  try {
    const client = workspaceClient();
    const result = await client.runJob<InspectAnswer>({
      operation: 'inspect',
      frameIndex,
      ...(sourceRevision ? { sourceRevision } : {}),
      ...(preview.aspect ? { aspect: preview.aspect } : {}),
      ...jobVariables(preview.declared),
    });
    const imageUrl = result.frame ? await client.artifactUrl(result.frame.path) : undefined;
    if (useReview.getState().inspect?.frameIndex !== frameIndex) {
      if (imageUrl) URL.revokeObjectURL(imageUrl); // another inspect took over meanwhile
      return;
    }
    useReview.setState({
      inspect: { finding, frameIndex, running: false, result, imageUrl, error: undefined },
    });
  } catch (error) {
    const stale = error instanceof WorkspaceProblem && error.code === 'revision_mismatch';
    useReview.setState({
      inspect: {
        finding,
        frameIndex,
        running: false,
        result: undefined,
        imageUrl: undefined,
        error: stale
          ? 'The source changed since this review: re-run review to inspect the current frames.'
          : describeError(error),
      },
    });
  }
}

/** A finding is stale when the source moved on since the review that found it. */
export function isStale(finding: ReviewFinding, currentRevision: string | undefined): boolean {
  return currentRevision !== undefined && finding.inspect.sourceRevision !== currentRevision;
}
