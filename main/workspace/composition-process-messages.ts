// The messages between the workspace server and its composition process (composition-process.ts),
// which keeps the composition loaded and runs one operation at a time.
import type { OperationProgress, WorkspaceJob } from '../../shared/protocol/workspace.ts';
import type { WorkspaceErrorBody } from './workspace-error.ts';

export type ToCompositionProcess =
  | { type: 'load'; source: string; stagingDir: string }
  | { type: 'run'; id: number; job: WorkspaceJob; sourceRevision: string; resultsDir: string }
  | { type: 'cancel'; id: number };

export type FromCompositionProcess =
  | { type: 'ready' }
  | { type: 'load-failed'; error: WorkspaceErrorBody }
  | { type: 'result'; id: number; result: Record<string, unknown>; captureMilliseconds: number }
  | { type: 'failed'; id: number; error: WorkspaceErrorBody }
  | { type: 'progress'; id: number; progress: OperationProgress };
