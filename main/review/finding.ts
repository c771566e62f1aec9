import type { FindingCode, FindingSeverity, ReviewFinding } from '../../shared/protocol/finding.ts';
// What review reports: a finding names a problem, where it is on the timeline, and what to change.

/** What a check produces; the review adds seconds, the inspect action and the allowed mark. */
export interface FindingDraft {
  code: FindingCode;
  severity: FindingSeverity;
  /** Frames [startFrame, endFrame) the problem spans. */
  startFrame: number;
  endFrame: number;
  /** The frame to look at (inside the interval); default startFrame. */
  focusFrame?: number | undefined;
  /** The element's key ("s0/e2", an overlay's "o/e0") when the finding is about one element. */
  element?: string | undefined;
  message: string;
  /** What to change, concretely (which property, to what). */
  remedy: string;
}

/** The draft's frames, with the seconds they fall on (to the millisecond). */
export function findingInterval(draft: FindingDraft, fps: number): ReviewFinding['interval'] {
  const seconds = (frame: number) => Number((frame / fps).toFixed(3));
  return {
    startFrame: draft.startFrame,
    endFrame: draft.endFrame,
    startSeconds: seconds(draft.startFrame),
    endSeconds: seconds(draft.endFrame),
  };
}

export function completeFinding(
  draft: FindingDraft,
  fps: number,
  sourceRevision: string,
  allowed: ReadonlySet<string>,
): ReviewFinding {
  return {
    code: draft.code,
    severity: draft.severity,
    interval: findingInterval(draft, fps),
    ...(draft.element === undefined ? {} : { element: draft.element }),
    message: draft.message,
    remedy: draft.remedy,
    allowed: allowed.has(draft.code),
    inspect: { operation: 'inspect', frameIndex: draft.focusFrame ?? draft.startFrame, sourceRevision },
  };
}
