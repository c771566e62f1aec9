// What the workspace routes share.
import type { WorkspaceJobRunner } from './job-runner.ts';
import type { SourceRevisionTracker } from './source-revision.ts';
import type { CompositionProcessHost } from './composition-process-host.ts';

export interface WorkspaceContext {
  /** The composition's entry file (absolute). */
  source: string;
  resultsDir: string;
  tracker: SourceRevisionTracker;
  worker: CompositionProcessHost;
  runner: WorkspaceJobRunner;
}
