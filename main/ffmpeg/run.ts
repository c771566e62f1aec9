// Spawning ffmpeg and ffprobe. stderr is kept as a bounded tail: enough to explain a failure,
// never the whole log of a long render.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';

const DEFAULT_TAIL_LINES = 40;
/** Lines of the tail quoted in an error message; the whole tail stays on the error object. */
const MESSAGE_LINES = 6;

/** The last lines a process wrote, without keeping the rest. */
export class LineTail {
  readonly #limit: number;
  readonly #lines: string[] = [];
  #partial = '';

  constructor(limit = DEFAULT_TAIL_LINES) {
    this.#limit = limit;
  }

  push(chunk: string): string[] {
    const parts = (this.#partial + chunk).split(/\r\n|\r|\n/);
    this.#partial = parts.pop() ?? '';
    const complete = parts.filter((line) => line.trim() !== '');
    for (const line of complete) this.#keep(line);
    return complete;
  }

  lines(): string[] {
    return this.#partial.trim() === ''
      ? [...this.#lines]
      : [...this.#lines, this.#partial].slice(-this.#limit);
  }

  #keep(line: string): void {
    this.#lines.push(line);
    if (this.#lines.length > this.#limit) this.#lines.shift();
  }
}

export class FfmpegError extends Error {
  override name = 'FfmpegError';
  readonly tool: string;
  readonly exitCode: number | null;
  readonly exitSignal: NodeJS.Signals | null;
  /** The last lines of stderr (up to 40). */
  readonly stderrTail: string[];

  constructor(
    tool: string,
    exitCode: number | null,
    exitSignal: NodeJS.Signals | null,
    stderrTail: string[],
  ) {
    const how = exitCode !== null ? `exit code ${exitCode}` : `signal ${exitSignal ?? 'unknown'}`;
    const quoted = stderrTail
      .slice(-MESSAGE_LINES)
      .map((line) => line.trim().slice(0, 300))
      .join('\n  ');
    super(`${tool} failed (${how})${quoted ? `:\n  ${quoted}` : ' and printed nothing.'}`);
    this.tool = tool;
    this.exitCode = exitCode;
    this.exitSignal = exitSignal;
    this.stderrTail = stderrTail;
  }
}

export interface SpawnToolOptions {
  signal?: AbortSignal | undefined;
  /** 'pipe' to feed the process (frames); otherwise stdin is closed. */
  stdin?: 'pipe' | 'ignore';
  /** Collect stdout (ffprobe's JSON); otherwise it is discarded. */
  captureStdout?: boolean;
  tailLines?: number;
  onStderrLine?: (line: string) => void;
}

export interface ToolResult {
  stdout: string;
  stderrTail: string[];
}

export interface ToolProcess {
  readonly child: ChildProcess;
  /** Present when spawned with stdin: 'pipe'. */
  readonly stdin: Writable | undefined;
  /** Settles once the process has exited: rejects with FfmpegError, or the abort reason. */
  readonly done: Promise<ToolResult>;
  /** Kills the process (SIGKILL: a partial output is deleted anyway, nothing to flush). */
  kill(): void;
  /** True once the process has exited or failed to start. */
  readonly exited: boolean;
}

function toolName(binary: string): string {
  return (binary.split(/[\\/]/).pop() ?? binary).replace(/\.exe$/i, '').replace(/-\d+-\d+$/, '');
}

export function spawnTool(binary: string, args: string[], options: SpawnToolOptions = {}): ToolProcess {
  const { signal } = options;
  const tail = new LineTail(options.tailLines);
  const child = spawn(binary, args, {
    stdio: [options.stdin === 'pipe' ? 'pipe' : 'ignore', options.captureStdout ? 'pipe' : 'ignore', 'pipe'],
    windowsHide: true,
  });
  let exited = false;
  const stdoutChunks: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => stdoutChunks.push(chunk));
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    const lines = tail.push(chunk);
    if (options.onStderrLine) for (const line of lines) options.onStderrLine(line);
  });
  // The write side may fail with EPIPE once the process is gone; the exit code tells the story.
  child.stdin?.on('error', () => {});

  const kill = () => {
    if (!exited) child.kill('SIGKILL');
  };
  const onAbort = () => kill();
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) kill();

  const done = new Promise<ToolResult>((resolve, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      exited = true;
      signal?.removeEventListener('abort', onAbort);
      const hint = error.code === 'ENOENT' ? ` (${binary} not found; set FFMPEG_PATH / FFPROBE_PATH)` : '';
      reject(new Error(`could not start ${toolName(binary)}: ${error.message}${hint}`, { cause: error }));
    });
    child.once('close', (code, exitSignal) => {
      exited = true;
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) {
        reject(signal.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError'));
      } else if (code === 0) {
        resolve({ stdout: Buffer.concat(stdoutChunks).toString('utf8'), stderrTail: tail.lines() });
      } else {
        reject(new FfmpegError(toolName(binary), code, exitSignal, tail.lines()));
      }
    });
  });
  // Callers that only kill the process may never await `done`.
  done.catch(() => {});

  return {
    child,
    stdin: child.stdin ?? undefined,
    done,
    kill,
    get exited() {
      return exited;
    },
  };
}

/** Runs a tool to completion (stdin closed). */
export function runTool(
  binary: string,
  args: string[],
  options: Omit<SpawnToolOptions, 'stdin'> = {},
): Promise<ToolResult> {
  return spawnTool(binary, args, { ...options, stdin: 'ignore' }).done;
}
