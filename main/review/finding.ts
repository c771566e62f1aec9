// What review reports: a finding names a problem, where it is on the timeline, and what to change.

export const FINDING_CODES = [
  'text_overflow',
  'text_too_brief',
  'text_too_small',
  'low_contrast',
  'unsafe_area',
  'offscreen_element',
  'blank_frame',
  'frozen_segment',
  'font_not_bundled',
  'missing_asset',
  'nondeterministic',
  'audio_silence',
  'audio_peak',
] as const;
export type FindingCode = (typeof FINDING_CODES)[number];

export function isFindingCode(value: string): value is FindingCode {
  return (FINDING_CODES as readonly string[]).includes(value);
}

/** error: the output is wrong (missing media, clipped text); warning: it will likely read badly. */
export type FindingSeverity = 'error' | 'warning';

/** What a check produces; the review adds seconds, the inspect action and the allowed mark. */
export interface FindingDraft {
  code: FindingCode;
  severity: FindingSeverity;
  /** Frames [startFrame, endFrame) the problem spans. */
  startFrame: number;
  endFrame: number;
  /** The frame to look at (inside the interval); default startFrame. */
  focusFrame?: number | undefined;
  /** The element's key ("s0/e2") when the finding is about one element. */
  element?: string | undefined;
  message: string;
  /** What to change, concretely (which property, to what). */
  remedy: string;
}

export interface FindingInterval {
  startFrame: number;
  /** Exclusive. */
  endFrame: number;
  startSeconds: number;
  endSeconds: number;
}

export interface InspectAction {
  operation: 'inspect';
  frameIndex: number;
  sourceRevision: string;
}

export interface ReviewFinding {
  code: FindingCode;
  severity: FindingSeverity;
  interval: FindingInterval;
  element?: string | undefined;
  message: string;
  remedy: string;
  /** Listed in allowQuality: kept in the result as an intentional exception, not a failure. */
  allowed: boolean;
  inspect: InspectAction;
}

export function completeFinding(
  draft: FindingDraft,
  fps: number,
  sourceRevision: string,
  allowed: ReadonlySet<string>,
): ReviewFinding {
  const seconds = (frame: number) => Number((frame / fps).toFixed(3));
  return {
    code: draft.code,
    severity: draft.severity,
    interval: {
      startFrame: draft.startFrame,
      endFrame: draft.endFrame,
      startSeconds: seconds(draft.startFrame),
      endSeconds: seconds(draft.endFrame),
    },
    ...(draft.element === undefined ? {} : { element: draft.element }),
    message: draft.message,
    remedy: draft.remedy,
    allowed: allowed.has(draft.code),
    inspect: { operation: 'inspect', frameIndex: draft.focusFrame ?? draft.startFrame, sourceRevision },
  };
}
