// A failed capture, review or render is about the revision it ran on: once the source has moved on,
// its banner would only mislead, so each is dropped when the workspace reports a new revision.
import { useEffect, useRef } from 'react';
import { useExport } from '../export/export-store.ts';
import { useFrames } from '../frames/frames-store.ts';
import { useReview } from '../review/review-store.ts';
import { useSession } from '../session/session-store.ts';

export function useClearErrorsOnNewRevision(): void {
  const revision = useSession((s) => s.status?.sourceRevision);
  const seen = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (revision === undefined) return;
    if (seen.current !== undefined && seen.current !== revision) {
      useFrames.getState().clearError();
      useReview.getState().clearError();
      useExport.getState().clearError();
    }
    seen.current = revision;
  }, [revision]);
}
