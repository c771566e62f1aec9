// The shapes of the workspace's answers the UI reads (the JSON contract of main/workspace; the
// renderer cannot import main/, so the fields it relies on are spelled out here).

export interface ProblemBody {
  type?: string;
  title?: string;
  status: number;
  code?: string;
  detail?: string;
  problems?: CompileProblem[];
  [extension: string]: unknown;
}

export interface CompileProblem {
  file: string;
  line?: number;
  column?: number;
  message: string;
}

export interface WorkspaceStatus {
  source: string;
  sourceRevision: string;
  compiles: boolean;
  compileProblems?: CompileProblem[];
  backend: string;
  worker: {
    state: 'none' | 'starting' | 'ready' | 'busy' | 'retired';
    pid: number | null;
    revision: string | null;
    lastCrash: {
      pid: number;
      code: number | null;
      signal: string | null;
      during: string;
      stderr: string;
    } | null;
  };
  queue: { depth: number; running: number; waiting: number; limit: number };
  resultsDir: string;
}

export interface SourceText {
  source: string;
  sourceRevision: string;
  bytes: number;
  sha256: string;
  text: string;
}

export interface SourceWrite {
  source: string;
  sourceRevision: string;
  bytes: number;
  sha256: string;
}

export type Operation = 'frame' | 'review' | 'inspect' | 'render';

export interface JobRequest {
  operation: Operation;
  frameIndex?: number;
  frameCount?: number;
  reviewFrames?: number;
  reviewDeterminism?: boolean;
  aspect?: string;
  quality?: string;
  format?: string;
  poster?: string;
  sourceRevision?: string;
  allowQuality?: string[];
  strictQuality?: boolean;
}

export type JobStreamLine =
  | {
      type: 'progress';
      stage: string;
      framesDone: number;
      framesTotal: number;
      fps: number;
      etaSeconds: number | null;
    }
  | { type: 'result'; result: unknown }
  | { type: 'problem'; problem: ProblemBody };

interface JobTimings {
  operation: Operation;
  sourceRevision: string;
  backend: string;
  workerPid: number;
  startupMilliseconds: number;
  captureMilliseconds: number;
  elapsedMilliseconds: number;
  workerRestartedAfterCrash?: { pid: number; code: number | null; signal: string | null };
}

export interface FrameResult extends JobTimings {
  frame: { index: number; seconds: number; path: string; width: number; height: number };
  framesTotal: number;
}

export type FindingSeverity = 'error' | 'warning';

export interface ReviewFinding {
  code: string;
  severity: FindingSeverity;
  interval: { startFrame: number; endFrame: number; startSeconds: number; endSeconds: number };
  element?: string;
  message: string;
  remedy: string;
  allowed: boolean;
  inspect: { operation: 'inspect'; frameIndex: number; sourceRevision: string };
}

export interface QualityGate {
  strict: boolean;
  passed: boolean;
  failing: string[];
}

export interface ReviewSample {
  index: number;
  seconds: number;
  path: string;
}

export interface ReviewResult extends JobTimings {
  samples: ReviewSample[];
  findings: ReviewFinding[];
  qualityGate: QualityGate;
  determinism?: { ok: boolean } & Record<string, unknown>;
  facts?: Record<string, unknown>;
}

export interface VisibleElement {
  key: string;
  id?: string;
  type: string;
  label?: string;
  box: { x: number; y: number; width: number; height: number };
  alpha: number;
}

export interface InspectResult extends JobTimings {
  frame?: { index: number; seconds: number; path: string; visible: VisibleElement[] };
  warnings?: string[];
  [fact: string]: unknown;
}

export interface VerificationCheck {
  name: string;
  expected: string;
  actual: string;
  ok: boolean;
}

export interface RenderReceipt {
  receipt: 'kino.render';
  version: number;
  createdAt: string;
  source: { path: string; sourceRevision: string };
  options: {
    format: string;
    quality: string;
    aspect: string | undefined;
    frames: number;
    framesTotal: number;
    width: number;
    height: number;
    fps: number;
    durationSeconds: number;
  };
  output: { path: string; bytes: number; sha256: string; probe?: Record<string, unknown> };
  verification: { ok: boolean; checks: VerificationCheck[]; mismatches: VerificationCheck[] };
  timings: { reviewMilliseconds: number; renderMilliseconds: number; verifyMilliseconds: number };
  findings: ReviewFinding[];
  qualityGate: QualityGate;
}

export interface RenderResult extends JobTimings {
  artifact: {
    path: string;
    bytes: number;
    sha256: string;
    format: string;
    poster?: { path: string; bytes: number };
  };
  receiptPath: string;
  receipt: RenderReceipt;
}

export interface PastExport {
  receiptPath: string;
  exists: boolean;
  receipt: RenderReceipt;
}
