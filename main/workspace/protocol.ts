// The workspace's job body and the messages between the workspace server and its worker process.
import type { OutputFormat, Quality } from '../encoder/formats.ts';
import type { CompileProblem } from '../composition/compile.ts';
import type { FindingCode } from '../review/finding.ts';
import type { AspectName } from '../../shared/spec/sizes.ts';

export const OPERATIONS = ['frame', 'review', 'inspect', 'render'] as const;
export type Operation = (typeof OPERATIONS)[number];

export const MAX_REVIEW_FRAMES = 24;
export const DEFAULT_REVIEW_FRAMES = 12;

export interface WorkspaceJob {
  operation: Operation;
  /** frame: the frame to draw (required); inspect: the frame to look at (optional). */
  frameIndex?: number;
  /** render: only the first n frames. */
  frameCount?: number;
  /** review: how many frames to sample, at most 24 (default 12). */
  reviewFrames?: number;
  /** review: draw every sample again in a fresh mount and compare hashes. */
  reviewDeterminism?: boolean;
  aspect?: AspectName;
  quality?: Quality;
  format?: OutputFormat;
  /** Refuse to run unless the source is still at this revision. */
  sourceRevision?: string;
  /** Finding codes that are intentional here: kept in the result, marked allowed. */
  allowQuality?: FindingCode[];
  /** Fail the request when any finding that is not allowed remains. */
  strictQuality?: boolean;
}

/** An error with the HTTP status and stable code the workspace answers it with. */
export interface WorkspaceErrorBody {
  status: number;
  code: string;
  message: string;
  problems?: CompileProblem[];
  /** Extra fields the answer carries (e.g. the findings behind a quality-gate failure). */
  details?: Record<string, unknown>;
}

export class WorkspaceError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  readonly problems: CompileProblem[] | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    extra: { details?: Record<string, unknown>; problems?: CompileProblem[] } = {},
  ) {
    super(message);
    this.name = 'WorkspaceError';
    this.status = status;
    this.code = code;
    this.details = extra.details;
    this.problems = extra.problems;
  }

  toBody(): WorkspaceErrorBody {
    return {
      status: this.status,
      code: this.code,
      message: this.message,
      ...(this.problems ? { problems: this.problems } : {}),
      ...(this.details ? { details: this.details } : {}),
    };
  }

  static fromBody(body: WorkspaceErrorBody): WorkspaceError {
    return new WorkspaceError(body.status, body.code, body.message, {
      details: body.details,
      problems: body.problems,
    });
  }
}

export type ToWorker =
  | { type: 'load'; source: string; stagingDir: string }
  | { type: 'run'; id: number; job: WorkspaceJob; sourceRevision: string; resultsDir: string };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'load-failed'; error: WorkspaceErrorBody }
  | { type: 'result'; id: number; result: Record<string, unknown>; captureMilliseconds: number }
  | { type: 'failed'; id: number; error: WorkspaceErrorBody };
