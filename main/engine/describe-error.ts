// Turns any error into the message a CLI user sees: actionable, no stack traces.
import { SpecValidationError } from '../../shared/spec/validate.ts';

interface CodedError {
  code?: unknown;
  message?: unknown;
}

export function describeError(error: unknown): string {
  if (error instanceof SpecValidationError) {
    const lines = error.issues.map((issue) => `  ${issue.pointer || '/'}: ${issue.message}`);
    return `kino: invalid spec (${error.issues.length} error${error.issues.length === 1 ? '' : 's'}):\n${lines.join('\n')}`;
  }
  if (error instanceof Error) {
    const coded = error as CodedError;
    const path = (error as NodeJS.ErrnoException).path;
    if (typeof coded.code === 'string' && coded.code.startsWith('E') && path) {
      return `kino: cannot use ${path} (${coded.code}): check that the path exists, is a directory where one is needed, and is writable`;
    }
    return `kino: ${error.message}`;
  }
  return `kino: ${String(error)}`;
}
