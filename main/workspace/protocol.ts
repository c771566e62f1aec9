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
  /** render: also write a PNG of the frame at this time ("1.5s", "500ms", "45f") next to the video. */
  poster?: string;
}

/**
 * What a job is doing, in order: waiting behind another job, starting the worker, the review (the
 * review operation, or render's review step), then renderVideo's own stages.
 */
export const JOB_STAGES = [
  'queued',
  'starting',
  'reviewing',
  'preparing',
  'rendering',
  'encoding',
  'verifying',
] as const;
export type JobStage = (typeof JOB_STAGES)[number];

/** One progress report; the frame counts are 0 where a stage has none. */
export interface JobProgress {
  stage: JobStage;
  framesDone: number;
  framesTotal: number;
  /** Frames per second so far (0 outside rendering). */
  fps: number;
  /** Seconds left, when it can be estimated. */
  etaSeconds: number | null;
}

/** `POST /jobs` with `Accept: application/x-ndjson` streams JobStreamLine objects, one per line. */
export const JOB_STREAM_CONTENT_TYPE = 'application/x-ndjson';

/** An RFC 9457 problem as the workspace answers it (extension members such as `problems` included). */
export interface WorkspaceProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: string;
  requestId: string;
  errors?: { pointer: string; message: string }[];
  [extension: string]: unknown;
}

/**
 * A line of the job stream: progress lines, then exactly one `result` (the object a plain request
 * answers with) or `problem` (the body a plain request would answer with, status included).
 */
export type JobStreamLine =
  | ({ type: 'progress' } & JobProgress)
  | { type: 'result'; result: Record<string, unknown> }
  | { type: 'problem'; problem: WorkspaceProblemBody };

/** `GET /source`. */
export interface SourceText {
  source: string;
  sourceRevision: string;
  bytes: number;
  /** Hex SHA-256 of the file's bytes: send it back as `expectedSha256` when saving. */
  sha256: string;
  text: string;
}

/** `PUT /source` body. */
export interface SourceSave {
  text: string;
  /** Refuse (409 source_conflict) unless the file on disk still has this hash. */
  expectedSha256?: string;
}

/** `PUT /source` answer: the revision is the one after the write. */
export type SourceSaved = Omit<SourceText, 'text'>;

/** The job's client went away: the job stops and keeps no files. */
export const CANCELED_STATUS = 499;

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

  /** The job whose client went away. */
  static canceled(operation: string, how = 'it was stopped'): WorkspaceError {
    return new WorkspaceError(
      CANCELED_STATUS,
      'canceled',
      `the client went away during the ${operation}, so ${how}; nothing of it was kept`,
    );
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
  | { type: 'run'; id: number; job: WorkspaceJob; sourceRevision: string; resultsDir: string }
  | { type: 'cancel'; id: number };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'load-failed'; error: WorkspaceErrorBody }
  | { type: 'result'; id: number; result: Record<string, unknown>; captureMilliseconds: number }
  | { type: 'failed'; id: number; error: WorkspaceErrorBody }
  | { type: 'progress'; id: number; progress: JobProgress };
