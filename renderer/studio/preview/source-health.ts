// Whether the open source can be reviewed, captured or rendered: not while it does not compile (the
// workspace says so) or does not load (the preview found out: the workspace would only fail later,
// in its worker). The reason is one line, for a disabled button's title.
import { useSession } from '../session/session-store.ts';
import { usePreview } from './preview-store.ts';

export function blockReason(compiles: boolean, loadFails: boolean): string | undefined {
  if (!compiles) return 'The source does not compile: fix the error shown first';
  if (loadFails) return 'The composition fails to load: fix the error shown in the preview first';
  return undefined;
}

/** Why Review, Render and Capture are off now, or undefined when they may run. */
export function sourceBlockReason(): string | undefined {
  return blockReason(
    useSession.getState().status?.compiles !== false,
    usePreview.getState().runtimeError?.phase === 'load',
  );
}

export function useSourceBlock(): string | undefined {
  const compiles = useSession((s) => s.status?.compiles !== false);
  const loadFails = usePreview((s) => s.runtimeError?.phase === 'load');
  return blockReason(compiles, loadFails);
}
