// The UI's side of the workspace protocol (the same one `kino session` speaks): JSON over HTTP on the
// workspace's own origin, the token in X-Kino-Token, errors as RFC 9457 problems, and progress for
// long jobs as NDJSON lines.
import { TOKEN_HEADER } from '../../../shared/protocol/workspace.ts';
import type {
  OperationProgress,
  JobStreamLine,
  SourceSaved,
  SourceText,
  WorkspaceJob,
  WorkspaceStatus,
} from '../../../shared/protocol/workspace.ts';
import type { ProblemBody } from '../../../shared/protocol/problem.ts';

export class WorkspaceProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: Pick<ProblemBody, 'status'> & Partial<ProblemBody>;

  /** A workspace answer, or one the client makes when there is none (status 0). */
  constructor(body: Pick<ProblemBody, 'status'> & Partial<ProblemBody>) {
    super(body.detail ?? body.title ?? `HTTP ${body.status}`);
    this.name = 'WorkspaceProblem';
    this.status = body.status;
    this.code = body.code ?? 'error';
    this.body = body;
  }
}

async function problemFrom(response: Response): Promise<WorkspaceProblem> {
  const body = (await response.json().catch(() => undefined)) as ProblemBody | undefined;
  return new WorkspaceProblem(body ?? { status: response.status, title: response.statusText });
}

export class WorkspaceClient {
  readonly endpoint: string;
  readonly #token: string;

  constructor(endpoint: string, token: string) {
    this.endpoint = endpoint;
    this.#token = token;
  }

  async #fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set(TOKEN_HEADER, this.#token);
    if (init.body !== undefined) headers.set('content-type', 'application/json');
    let response: Response;
    try {
      response = await fetch(`${this.endpoint}${path}`, { ...init, headers, redirect: 'error' });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new WorkspaceProblem({
        status: 0,
        code: 'workspace_unreachable',
        detail: 'the workspace does not answer: is kino still running?',
      });
    }
    if (!response.ok) throw await problemFrom(response);
    return response;
  }

  async json<T>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await this.#fetch(path, init);
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }

  status(): Promise<WorkspaceStatus> {
    return this.json('/status');
  }

  source(): Promise<SourceText> {
    return this.json('/source');
  }

  saveSource(text: string, expectedSha256: string | undefined): Promise<SourceSaved> {
    return this.json('/source', { method: 'PUT', body: JSON.stringify({ text, expectedSha256 }) });
  }

  /** A file from the results folder, as a blob URL (images cannot send the token themselves). */
  async artifactUrl(path: string): Promise<string> {
    const response = await this.#fetch(`/artifact?path=${encodeURIComponent(path)}`);
    return URL.createObjectURL(await response.blob());
  }

  /**
   * Runs one job, reporting progress; aborting `signal` cancels it on the workspace (a closed request
   * cancels its job, running or waiting).
   */
  async runJob<T>(
    job: WorkspaceJob,
    onProgress?: (progress: OperationProgress) => void,
    signal?: AbortSignal,
  ): Promise<T> {
    const response = await this.#fetch('/jobs', {
      method: 'POST',
      body: JSON.stringify(job),
      headers: { accept: 'application/x-ndjson' },
      signal,
    });
    if (!(response.headers.get('content-type') ?? '').includes('ndjson') || !response.body) {
      return (await response.json()) as T;
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buffered += value;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (!line) continue;
        const message = JSON.parse(line) as JobStreamLine;
        if (message.type === 'progress') onProgress?.(message);
        else if (message.type === 'result') return message.result as T;
        else if (message.type === 'problem') throw new WorkspaceProblem(message.problem);
      }
      if (done) break;
    }
    throw new WorkspaceProblem({
      status: 0,
      code: 'stream_ended',
      detail: 'the workspace ended the answer before the result',
    });
  }
}
