// The job store contract: what a render job is, and what every store (SQLite for one machine, Redis
// for many) must do with it. One shared suite (job-store.test.ts) holds both implementations to it.
import type { OutputRequest, RenderOptions } from '../../shared/protocol/render-options.ts';
import type { RenderReceipt } from '../../shared/protocol/receipt.ts';
import type { QualityGate, ReviewFinding } from '../../shared/protocol/finding.ts';
import { splitFileKind } from '../storage/signed-link.ts';
import type { FileKind } from '../storage/signed-link.ts';

/** Every status a render job has, written out once: the API, MCP and the Redis store read it here. */
export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export type InputKind = 'key' | 'spec' | 'prompt' | 'edit';
/** A job's stages, in order: "starting" from the moment a worker takes it until it reports. */
export const PROGRESS_STAGES = [
  'starting',
  'authoring',
  'reviewing',
  'rendering',
  'encoding',
  'verifying',
  'storing',
] as const;
export type ProgressStage = (typeof PROGRESS_STAGES)[number];
export type Visibility = 'public' | 'private';

export const TERMINAL_STATUSES: readonly JobStatus[] = ['succeeded', 'failed', 'canceled'];

/**
 * The options a job renders with: the request's (shared/protocol/render-options.ts), format and
 * quality settled, and each of several outputs with its own settled too (the first is also the
 * job's video).
 */
export type RenderJobOptions = Omit<RenderOptions, 'outputs'> & { outputs?: OutputRequest[] };

/** The review of a job's spec: findings with remedies, and the quality gate they pass or fail. */
export interface JobReview {
  findings: ReviewFinding[];
  qualityGate: QualityGate;
  /** The aspects reviewed, one per aspect the job's outputs draw in (absent in reviews stored before). */
  aspects?: string[];
}

/** What the worker renders: a registered key, or a validated spec. */
/** The AI provider an authored input asked for (its name and model; never its key). */
export interface AuthoringChoice {
  provider: string;
  model: string;
}

export type RenderInput =
  /** `variables`: the template values the request gave, bound when the worker loads the input. */
  | { kind: 'key'; key: string; variables?: Record<string, unknown> }
  | { kind: 'spec'; spec: Record<string, unknown>; variables?: Record<string, unknown> }
  | ({ kind: 'prompt'; prompt: string } & AuthoringChoice)
  /** `base` is the spec to change; `baseRender` the render it came from, when one was named. */
  | ({ kind: 'edit'; base: Record<string, unknown>; baseRender?: string; change: string } & AuthoringChoice);

export interface JobProgress {
  stage: ProgressStage;
  framesDone: number;
  framesTotal: number;
  percent: number;
  etaSeconds: number | null;
  /** For a render split into chunks across workers: each chunk's frames, in order. */
  chunks?: ChunkFrames[];
}

/** A running job's progress until its render process reports: never running without one. */
export const STARTING_PROGRESS: JobProgress = {
  stage: 'starting',
  framesDone: 0,
  framesTotal: 0,
  percent: 0,
  etaSeconds: null,
};

export interface StoredVideo {
  extension: string;
  bytes: number;
  contentType: string;
  width: number;
  height: number;
  durationSeconds: number;
  sha256: string;
}

export interface StoredPoster {
  extension: string;
  bytes: number;
  contentType: string;
}

/** The render receipt: a JSON file stored beside the video, and its content kept with the job. */
export interface StoredReceipt {
  extension: string;
  bytes: number;
  contentType: string;
  receipt: RenderReceipt;
}

export const WEBHOOK_EVENTS = ['render.succeeded', 'render.failed', 'render.canceled'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Where a job's end is announced, and which ends. */
export interface WebhookTarget {
  url: string;
  events: WebhookEvent[];
}

/** One attempt to deliver a job's event: when, the HTTP status (null when none came), why it failed. */
export interface WebhookAttempt {
  at: number;
  status: number | null;
  error: string | null;
}

export interface JobWebhook extends WebhookTarget {
  /** pending: not delivered yet (retries due); delivered; failed: every retry used; skipped: event not subscribed. */
  state: 'waiting' | 'pending' | 'delivered' | 'failed' | 'skipped';
  deliveries: WebhookAttempt[];
}

export interface JobError {
  code: string;
  message: string;
  /** For authoring_failed: the errors the model's last answer still had, at their pointers. */
  errors?: { pointer: string; message: string }[];
}

/** The error a canceled job carries, from every store and render process. */
export const CANCELED_ERROR: JobError = { code: 'canceled', message: 'the render was canceled' };

export interface RenderJob {
  id: string;
  status: JobStatus;
  input: RenderInput;
  options: RenderJobOptions;
  visibility: Visibility;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  expiresAt: number;
  attempts: number;
  progress: JobProgress | null;
  spec: Record<string, unknown> | null;
  code: string | null;
  video: StoredVideo | null;
  poster: StoredPoster | null;
  /** Null until the render succeeds (and for renders stored before receipts were kept). */
  receipt: StoredReceipt | null;
  /** For a prompt or an edit: how the spec was authored (AuthoringRecord), once it was. */
  authoring: Record<string, unknown> | null;
  /** For an edit: the JSON pointers of the spec that differ from the base. */
  changes: string[] | null;
  /** With options.review or strictQuality, once the spec was reviewed. */
  review: JobReview | null;
  /** With options.outputs, once the render succeeded: every output. */
  outputs: StoredOutput[] | null;
  /** The webhook the job's end is sent to, with every delivery attempt so far. */
  webhook: JobWebhook | null;
  error: JobError | null;
}

/** The stored file of a kind (video, poster-2 …), when the job has it. */
export function storedFileOf(
  job: RenderJob,
  kind: FileKind,
): StoredVideo | StoredPoster | StoredReceipt | null {
  const { base, index } = splitFileKind(kind);
  if (index === 0) return { video: job.video, poster: job.poster, receipt: job.receipt }[base];
  const output = job.outputs?.[index];
  return output ? { video: output.video, poster: output.poster, receipt: output.receipt }[base] : null;
}

export interface NewRenderJob {
  id: string;
  input: RenderInput;
  options: RenderJobOptions;
  visibility: Visibility;
  createdAt: number;
  /** How long the render is kept once it ends; until then it expires ttl after creation at the earliest. */
  ttlMs: number;
  /** Known at submit for a spec input: shown from the start rather than once a worker resolves it. */
  spec?: Record<string, unknown> | null;
  webhook?: WebhookTarget | undefined;
  code?: string | null;
}

/** One stored output of a several-output render. */
export interface StoredOutput {
  request: OutputRequest;
  video: StoredVideo;
  poster: StoredPoster | null;
  receipt: StoredReceipt;
}

export interface JobOutcome {
  spec: Record<string, unknown> | null;
  code: string | null;
  video: StoredVideo;
  poster: StoredPoster | null;
  receipt?: StoredReceipt | null;
  /** With options.outputs: every output, the first one included. */
  outputs?: StoredOutput[] | null;
}

export type JobLookup = { found: RenderJob } | { removed: true } | undefined;

/**
 * What a queue worker finds when it takes a job by id: it is now running on this worker (its
 * attempt counted); it was running on a worker that died too often and is now failed as worker_lost;
 * or it is no longer to be run (canceled, ended, removed).
 */
export type JobClaim = { claimed: RenderJob } | { lost: RenderJob } | { skipped: JobStatus | 'missing' };

/** One chunk's frames as the job keeps them. */
export interface ChunkFrames {
  framesDone: number;
  framesTotal: number;
  /**
   * The chunk's own estimate of its time left, as its render last reported it; absent or null
   * until it has drawn enough to tell. Kept for the job's ETA, not shown to clients.
   */
  etaSeconds?: number | null;
}

/** The progress of one chunk of a render split across workers. */
export interface ChunkProgress extends ChunkFrames {
  index: number;
  /** How many chunks the render has. */
  count: number;
}

/**
 * A fencing token: the attempt a render process claimed its job at (the job's `attempts` as claim
 * or claimNext returned it). A write made with it applies only while the job is still running
 * under that attempt, so a process that froze past its lock, while another took the job over,
 * writes nothing when it wakes: the write is refused (false), and it stops.
 */
export interface Fence {
  attempt: number;
}

/** The fence of a claimed job: its writes hold only while no later attempt took the job over. */
export function fenceOf(job: Pick<RenderJob, 'attempts'>): Fence {
  return { attempt: job.attempts };
}

/** Whether a job put back in the queue keeps the attempt it used (see JobStore.requeue). */
export type RequeuedAttempt = 'uncounted' | 'counted';

/** Why a job that kept losing its worker was failed; the same words on every store. */
export function workerLostError(attempts: number, maxAttempts: number, lost: 'server' | 'worker'): JobError {
  return {
    code: 'worker_lost',
    message: `the ${lost} stopped during this render ${attempts} time${attempts === 1 ? '' : 's'}; it was not retried again (RENDER_MAX_ATTEMPTS=${maxAttempts})`,
  };
}

/**
 * The job store: render jobs from insert to their end. Every method is a single atomic step, so
 * several processes (API instances and workers on a shared store) never see a half-made change or
 * run one job twice. Beside it, over the same connection (job-stores.ts): idempotency keys, the
 * webhook outbox and the removal of expired jobs.
 */
export interface JobStore {
  /** Adds a queued job; throws when the id is taken. */
  insert(job: NewRenderJob): Promise<RenderJob>;
  get(id: string): Promise<RenderJob | undefined>;
  /** The job, or that it was removed (ExpiredJobs.remove remembers its id), or undefined. */
  lookup(id: string): Promise<JobLookup>;
  count(): Promise<number>;
  countByStatus(status: JobStatus): Promise<number>;
  /** Ids of the jobs with this status, oldest first. */
  idsByStatus(status: JobStatus, limit: number): Promise<string[]>;

  /** Takes the oldest queued job and marks it running, so no two runs share a job. */
  claimNext(now: number): Promise<RenderJob | undefined>;
  /**
   * Takes this job for a queue worker: a queued job, or a running one whose worker died (its lock
   * ran out), counting the attempt. A job that already used `maxAttempts` fails as worker_lost.
   */
  claim(id: string, now: number, maxAttempts: number): Promise<JobClaim>;
  // The writes of a claimed render take its `fence`: each is then made only while the job still
  // runs under that attempt, and refused (false, nothing changed) once another attempt took it.

  /** Records progress while the job runs; false when it no longer does (canceled, failed meanwhile). */
  setProgress(id: string, progress: JobProgress, fence?: Fence): Promise<boolean>;
  /** Records one chunk's frames (the job's progress becomes the sum); false when the job no longer runs. */
  setChunkProgress(id: string, chunk: ChunkProgress, fence?: Fence): Promise<boolean>;
  /** The spec (and its code) a running job resolved or authored: shown before the render ends. */
  setResolved(
    id: string,
    spec: Record<string, unknown> | null,
    code: string | null,
    fence?: Fence,
  ): Promise<boolean>;
  /** How a running job's spec was authored, and for an edit what it changed. */
  setAuthoring(
    id: string,
    authoring: Record<string, unknown>,
    changes: string[] | null,
    fence?: Fence,
  ): Promise<boolean>;
  setReview(id: string, review: JobReview, fence?: Fence): Promise<boolean>;
  /** Moves a running job's progress to the storing stage, keeping its frame counts. */
  markStoring(id: string, fence?: Fence): Promise<boolean>;
  /** Records a finished render; false when the job stopped being running meanwhile (canceled). */
  succeed(id: string, outcome: JobOutcome, now: number, fence?: Fence): Promise<boolean>;
  /**
   * Keeps what was resolved before the failure (the spec, the code) so the failure can be read.
   * Without a fence a queued job fails too (the API's own failures, a worker lost too often).
   */
  fail(
    id: string,
    error: JobError,
    now: number,
    resolved?: { spec: object | null; code: string | null },
    fence?: Fence,
  ): Promise<boolean>;
  cancel(id: string, now: number): Promise<boolean>;
  /**
   * Puts a running job back in the queue. A graceful stop does not count the attempt; a failure
   * another attempt may get past (its files could not be stored) counts it, so retries are bounded.
   */
  requeue(id: string, attempt?: RequeuedAttempt, fence?: Fence): Promise<boolean>;
  /**
   * For a store one process owns: at start, every job marked running belongs to a process that
   * died. Each is queued again while it has attempts left, else failed as worker_lost.
   */
  recoverInterrupted(maxAttempts: number, now: number): Promise<{ requeued: string[]; failed: string[] }>;

  /** Closes the connection; the stores beside this one (job-stores.ts) share it, and close with it. */
  close(): Promise<void>;
}
