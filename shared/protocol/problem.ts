// Errors on the wire. Every HTTP error Kino answers (render API, workspace, studio) is an RFC 9457
// problem; a composition that does not compile is described by its problems at file:line:column.

/** An RFC 9457 problem details body, with Kino's extension members (`code`, `requestId`, ...). */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  /** A stable machine-readable code, e.g. "validation_failed". */
  code: string;
  requestId: string;
  /** For validation failures: each error at its JSON pointer. */
  errors?: FieldError[];
  /** A composition that does not compile: where, and why. */
  problems?: CompileProblem[];
  [extension: string]: unknown;
}

export interface FieldError {
  /** RFC 6901 JSON pointer into the request body (or the path/query parameter named). */
  pointer: string;
  message: string;
}

/** One compile problem, with a 1-based line and column when it has a place in a file. */
export interface CompileProblem {
  file: string;
  line?: number;
  column?: number;
  message: string;
}
