// What the workspace routes share.
import type { WorkspaceJobRunner } from './job-queue.ts';
import type { SourceRevisionTracker } from './source-revision.ts';
import type { WorkerHost } from './worker-host.ts';

export interface WorkspaceContext {
  /** The composition's entry file (absolute). */
  source: string;
  resultsDir: string;
  tracker: SourceRevisionTracker;
  worker: WorkerHost;
  runner: WorkspaceJobRunner;
}
