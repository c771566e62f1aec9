// Errors cross the bridge as a code and one line meant for the user: the studio's own errors keep
// their code (StudioInputError, WorkspaceError), anything else becomes 'failed'.
import type { BridgeError } from '../../shared/studio/bridge.ts';

const MAX_MESSAGE = 400;

/** Any error as a code and one line a user can act on (no stacks, no multi-line dumps). */
export function toBridgeError(error: unknown): BridgeError {
  const raw = error instanceof Error ? error.message : String(error);
  const line = raw.split('\n', 1)[0]!.trim() || 'something went wrong';
  const code = (error as { code?: unknown } | null)?.code;
  return {
    code: typeof code === 'string' && /^[a-z][a-z0-9_]*$/.test(code) ? code : 'failed',
    message: line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE - 1)}…` : line,
  };
}
