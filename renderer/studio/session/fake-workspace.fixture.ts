// Test double for the studio stores' tests: a workspace client whose answers each test scripts, put
// in the session the way boot() would. Only the network boundary is fake; the stores are the real
// ones. A test file importing this mocks '…/session/resolve-bridge.ts' first (the session store
// resolves its bridge on import, and there is no window in Node).
import { vi } from 'vitest';
import { useSession } from './session-store.ts';
import type { SessionInfo } from './session-store.ts';
import { WorkspaceProblem } from './workspace-client.ts';
import type { WorkspaceClient } from './workspace-client.ts';
import type { OperationProgress } from '../../../shared/protocol/workspace.ts';
import type {
  SourceSaved,
  SourceText,
  WorkspaceJob,
  WorkspaceStatus,
} from '../../../shared/protocol/workspace.ts';

/** A job the fake workspace received and has not answered yet. */
export interface PendingJob {
  request: WorkspaceJob;
  onProgress: ((progress: OperationProgress) => void) | undefined;
  signal: AbortSignal | undefined;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

export function statusAt(sourceRevision: string): WorkspaceStatus {
  return {
    source: '/project/hello.ts',
    sourceRevision,
    compiles: true,
    compileProblems: [],
    backend: 'skia',
    worker: { state: 'ready', pid: 4242, revision: sourceRevision, lastCrash: null },
    queue: { depth: 0, running: 0, waiting: 0, limit: 4 },
    resultsDir: '/project/build/kino/hello.workspace',
  };
}

export function problem(status: number, code: string, detail: string): WorkspaceProblem {
  return new WorkspaceProblem({ status, code, detail });
}

/** A workspace client whose jobs wait until the test answers them (see `job`). */
export class FakeWorkspaceClient {
  readonly endpoint = 'http://127.0.0.1:4000';
  readonly jobs: PendingJob[] = [];
  revision = 'rev-1';
  readonly status = vi.fn(async (): Promise<WorkspaceStatus> => statusAt(this.revision));
  readonly source = vi.fn(async (): Promise<SourceText> => ({
    source: '/project/hello.ts',
    sourceRevision: this.revision,
    bytes: 5,
    sha256: 'sha-1',
    text: 'hello',
  }));
  readonly saveSource = vi.fn(
    async (text: string, _expectedSha256: string | undefined): Promise<SourceSaved> => ({
      source: '/project/hello.ts',
      sourceRevision: 'rev-2',
      bytes: text.length,
      sha256: 'sha-2',
    }),
  );
  readonly json = vi.fn(async (_path: string, _init?: RequestInit): Promise<unknown> => []);
  readonly artifactUrl = vi.fn(async (path: string) => `blob:kino/${path}`);
  readonly runJob = vi.fn(
    (request: WorkspaceJob, onProgress?: (progress: OperationProgress) => void, signal?: AbortSignal) =>
      new Promise<unknown>((resolve, reject) => {
        // Aborting the request cancels the job, as fetch does: an AbortError.
        signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        this.jobs.push({ request, onProgress, signal, resolve, reject });
      }),
  );

  /** The job received `index`-th (default: the last one). */
  job(index = this.jobs.length - 1): PendingJob {
    const job = this.jobs.at(index);
    if (!job) throw new Error(`no job ${index}: the workspace received ${this.jobs.length}`);
    return job;
  }
}

export const SESSION_INFO: SessionInfo = {
  mode: 'browser',
  appVersion: '0.0.0-test',
  source: '/project/hello.ts',
  projectRoot: '/project',
  projectFonts: [],
  resultsDir: '/project/build/kino/hello.workspace',
  previewKey: 'preview-key',
};

/** Puts a ready session on `client`, as boot() leaves it. */
export function connectSession(client: FakeWorkspaceClient): void {
  useSession.setState({
    phase: 'ready',
    client: client as unknown as WorkspaceClient,
    info: SESSION_INFO,
    status: statusAt(client.revision),
    unreachable: false,
  });
}
