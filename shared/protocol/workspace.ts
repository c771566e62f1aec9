// The workspace's wire contract: what `kino workspace` accepts and answers over loopback HTTP. The
// route schemas are declared here once; the server validates with them, and the types the server,
// the session CLI and the studio use are derived from them (json-schema-to-ts), so the three agree.
import type { FromSchema } from 'json-schema-to-ts';
import { VariableValuesSchema } from './variable-values.ts';
import { DEFAULT_REVIEW_FRAMES, MAX_REVIEW_FRAMES } from './review-frames.ts';
import { OutputFields, QualityGateFields } from './render-options.ts';
import type { QualityGate, ReviewFinding } from './finding.ts';
import type { InspectResult } from './inspect.ts';
import type { ProblemBody } from './problem.ts';
import type { RenderReceipt } from './receipt.ts';

/** The header that carries the workspace token (never the URL). */
export const TOKEN_HEADER = 'x-kino-token';

export const OPERATIONS = ['frame', 'review', 'inspect', 'render'] as const;
export type Operation = (typeof OPERATIONS)[number];

const FRAME_NUMBER = { type: 'integer', minimum: 0, maximum: 10_000_000 } as const;

/** `POST /jobs` body. */
export const JobBodySchema = {
  type: 'object',
  properties: {
    operation: { type: 'string', enum: OPERATIONS },
    frameIndex: { ...FRAME_NUMBER, description: 'frame: the frame to draw; inspect: the frame to look at.' },
    frameCount: { ...FRAME_NUMBER, minimum: 1, description: 'render: only the first n frames.' },
    reviewFrames: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_REVIEW_FRAMES,
      description: `review: how many frames to sample (default ${DEFAULT_REVIEW_FRAMES}).`,
    },
    reviewDeterminism: {
      type: 'boolean',
      description: 'review: draw every sample again in a fresh mount and compare hashes.',
    },
    aspect: OutputFields.aspect,
    quality: OutputFields.quality,
    format: OutputFields.format,
    encoder: {
      ...OutputFields.encoder,
      description: `render: ${OutputFields.encoder.description}`,
    },
    sourceRevision: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: 'Refuse to run unless the source is still at this revision.',
    },
    ...QualityGateFields,
    variables: {
      ...VariableValuesSchema,
      description:
        'For a composition that is a template(): a value per variable (a string is read as the declared type, as `--var` is); unset ones take their defaults.',
    },
    poster: {
      ...OutputFields.poster,
      description:
        'render: also write a PNG of the frame at this time ("1.5s", "500ms", "45f") next to the video.',
    },
  },
  required: ['operation'],
  // The frame operation draws one frame: it must say which.
  if: { properties: { operation: { const: 'frame' } } },
  then: { required: ['frameIndex'] },
  additionalProperties: false,
} as const;

// The if/then only adds a requirement; the type is the plain object's.
export type WorkspaceJob = FromSchema<Omit<typeof JobBodySchema, 'if' | 'then'>>;

const SHA256 = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;

/** `PUT /source` answer: the revision is the one after the write. */
export const SourceSavedSchema = {
  type: 'object',
  properties: {
    source: { type: 'string' },
    sourceRevision: { type: 'string' },
    bytes: { type: 'integer' },
    /** Hex SHA-256 of the file's bytes: send it back as `expectedSha256` when saving. */
    sha256: { type: 'string' },
  },
  required: ['source', 'sourceRevision', 'bytes', 'sha256'],
  additionalProperties: false,
} as const;
export type SourceSaved = FromSchema<typeof SourceSavedSchema>;

/** `GET /source`. */
export const SourceTextSchema = {
  type: 'object',
  properties: { ...SourceSavedSchema.properties, text: { type: 'string' } },
  required: [...SourceSavedSchema.required, 'text'],
  additionalProperties: false,
} as const;
export type SourceText = FromSchema<typeof SourceTextSchema>;

/** `PUT /source` body. */
export const SourceSaveSchema = {
  type: 'object',
  properties: {
    text: { type: 'string' },
    expectedSha256: {
      ...SHA256,
      description: 'the sha256 GET /source gave: refuse if the file changed since',
    },
  },
  required: ['text'],
  additionalProperties: false,
} as const;
export type SourceSave = FromSchema<typeof SourceSaveSchema>;

const CompileProblemSchema = {
  type: 'object',
  properties: {
    file: { type: 'string' },
    line: { type: 'integer' },
    column: { type: 'integer' },
    message: { type: 'string' },
  },
  required: ['file', 'message'],
  additionalProperties: false,
} as const;

export const WORKER_STATES = ['none', 'starting', 'ready', 'busy', 'retired'] as const;
export type WorkerState = (typeof WORKER_STATES)[number];

/** `GET /status`. */
export const WorkspaceStatusSchema = {
  type: 'object',
  properties: {
    source: { type: 'string' },
    sourceRevision: { type: 'string' },
    compiles: { type: 'boolean' },
    /** Where the source does not compile (empty when it does): for a UI to mark the lines. */
    compileProblems: { type: 'array', items: CompileProblemSchema },
    backend: { type: 'string' },
    worker: {
      type: 'object',
      properties: {
        state: { type: 'string', enum: WORKER_STATES },
        pid: { type: ['integer', 'null'] },
        revision: { type: ['string', 'null'] },
        lastCrash: {
          type: ['object', 'null'],
          properties: {
            pid: { type: 'integer' },
            code: { type: ['integer', 'null'] },
            signal: { type: ['string', 'null'] },
            during: { type: 'string' },
            stderr: { type: 'string' },
          },
          required: ['pid', 'code', 'signal', 'during', 'stderr'],
          additionalProperties: false,
        },
      },
      required: ['state', 'pid', 'revision', 'lastCrash'],
      additionalProperties: false,
    },
    queue: {
      type: 'object',
      properties: {
        depth: { type: 'integer' },
        running: { type: 'integer' },
        waiting: { type: 'integer' },
        limit: { type: 'integer' },
      },
      required: ['depth', 'running', 'waiting', 'limit'],
      additionalProperties: false,
    },
    resultsDir: { type: 'string' },
  },
  required: [
    'source',
    'sourceRevision',
    'compiles',
    'compileProblems',
    'backend',
    'worker',
    'queue',
    'resultsDir',
  ],
  additionalProperties: false,
} as const;
export type WorkspaceStatus = FromSchema<typeof WorkspaceStatusSchema>;

/**
 * What a job is doing, in order: waiting behind another job, starting the worker, the review (the
 * review operation, or render's review step), then the render's own stages.
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
export interface OperationProgress {
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

/** The job's client went away: the job stops and keeps no files. */
export const CANCELED_STATUS = 499;

/** What every job answer carries besides the operation's own result. */
export interface JobAnswerMeta {
  operation: Operation;
  sourceRevision: string;
  /** The drawing backend. */
  backend: string;
  workerPid: number;
  startupMilliseconds: number;
  captureMilliseconds: number;
  elapsedMilliseconds: number;
  /** Set on the first answer after the worker crashed and was started again. */
  workerRestartedAfterCrash?: WorkerExit;
}

/** Each operation's own result. */
export interface OperationResults {
  frame: FrameOperationResult;
  review: ReviewOutcome;
  inspect: InspectOperationResult;
  render: RenderOperationResult;
}

/** `POST /jobs` answer for an operation; without one, the union of all four (narrow on `operation`). */
export type JobAnswer<O extends Operation = Operation> = {
  [K in O]: Omit<JobAnswerMeta, 'operation'> & { operation: K } & OperationResults[K];
}[O];

export type FrameAnswer = JobAnswer<'frame'>;
export type ReviewAnswer = JobAnswer<'review'>;
export type InspectAnswer = JobAnswer<'inspect'>;
export type RenderAnswer = JobAnswer<'render'>;

/**
 * A line of the job stream: progress lines, then exactly one `result` (the object a plain request
 * answers with) or `problem` (the body a plain request would answer with, status included).
 */
export type JobStreamLine =
  | ({ type: 'progress' } & OperationProgress)
  | { type: 'result'; result: JobAnswer }
  | { type: 'problem'; problem: ProblemBody };

/** A worker process that stopped on its own. */
export interface CapturedFrame {
  index: number;
  seconds: number;
  path: string;
}

export interface FrameOperationResult {
  frame: CapturedFrame & { width: number; height: number };
  framesTotal: number;
}

export interface VisibleElement {
  key: string;
  id?: string | undefined;
  type: string;
  label?: string | undefined;
  /** Its box on the frame in pixels (the transform applied: rotation widens it). */
  box: { x: number; y: number; width: number; height: number };
  alpha: number;
}

export interface InspectOperationResult extends InspectResult {
  frame?: { index: number; seconds: number; path: string; visible: VisibleElement[] };
}

export interface FrameDeterminism {
  frame: number;
  firstSha256: string;
  secondSha256: string;
  match: boolean;
}

export interface ReviewSampleResult {
  frame: number;
  seconds: number;
  /** The PNG in the results folder (review only; render's review keeps none). */
  path?: string | undefined;
  /** sha256 of the frame's RGBA pixels. */
  sha256: string;
}

export interface ReviewOutcome {
  samples: ReviewSampleResult[];
  samplesDir?: string | undefined;
  facts: InspectResult;
  findings: ReviewFinding[];
  qualityGate: QualityGate;
  determinism?: { checked: number; mismatches: number; frames: FrameDeterminism[] } | undefined;
  timings: Record<string, number>;
}

export interface RenderOperationResult {
  artifact: {
    path: string;
    bytes: number;
    sha256: string;
    format: string;
    /** The poster PNG, when the job asked for one. */
    poster?: { path: string; bytes: number };
  };
  receiptPath: string;
  receipt: RenderReceipt;
}

/** How a worker ended when nobody asked it to: shown in /status and in the next result. */
export interface WorkerExit {
  pid: number;
  code: number | null;
  signal: string | null;
  during: string;
  stderr: string;
}
