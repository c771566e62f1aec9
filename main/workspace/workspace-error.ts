// The error the workspace server and its composition process both throw: an HTTP status and a stable
// code (shared/protocol/workspace.ts is what the workspace says over HTTP).
import type { CompileProblem } from '../../shared/protocol/problem.ts';
import { CANCELED_STATUS } from '../../shared/protocol/workspace.ts';

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
