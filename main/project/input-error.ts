// The error a user meets when what they asked to render cannot be found, read or validated.
import type { SpecIssue } from '../../shared/spec/validate.ts';

export class KinoInputError extends Error {
  /** Validation issues at their JSON pointers, when the input parsed but did not validate. */
  readonly issues: SpecIssue[];

  constructor(message: string, options: { issues?: SpecIssue[]; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'KinoInputError';
    this.issues = options.issues ?? [];
  }
}

/** "3 errors: /a: x; /b: y" — issues on one line, for a CLI message. */
export function describeIssues(issues: readonly SpecIssue[]): string {
  const count = `${issues.length} error${issues.length === 1 ? '' : 's'}`;
  return `${count}: ${issues.map((issue) => `${issue.pointer || '/'}: ${issue.message}`).join('; ')}`;
}
