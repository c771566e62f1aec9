// What the composition threw, over the stage: the message, then the stack in the author's files
// (the open file's frames move the editor to their line, as compile errors do), Kino's frames folded.
import type { ReactElement } from 'react';
import type { RuntimeError } from '../../player/preview-player.ts';
import { useSource } from '../editor/source-store.ts';
import { useSession } from '../session/session-store.ts';
import { stackEntries } from './stack-frames.ts';

export function RuntimeErrorPanel({ error }: { error: RuntimeError }): ReactElement {
  const jumpTo = useSource((s) => s.jumpTo);
  const source = useSession((s) => s.info?.source ?? '');
  const projectRoot = useSession((s) => s.info?.projectRoot ?? '');
  const entries = stackEntries(error.frames, source, projectRoot);
  return (
    <div className="error-panel" role="alert" data-testid="runtime-error" data-phase={error.phase}>
      <strong className="error-title">{error.title}</strong>
      <p className="error-message mono" data-testid="runtime-error-message">
        {error.message}
      </p>
      {entries.length > 0 && (
        <ol className="error-stack mono" data-testid="runtime-error-stack">
          {entries.map((entry, index) =>
            entry.kind === 'kino' ? (
              <li key={index} className="kino-frames">
                {entry.count === 1 ? '1 frame' : `${entry.count} frames`} in Kino
              </li>
            ) : (
              <li key={index}>
                {entry.open ? (
                  <button
                    className="link"
                    onClick={() => jumpTo(entry.frame.line, entry.frame.column)}
                    title="Show this line in the editor"
                    data-testid="stack-frame-link"
                  >
                    at {entry.label}
                  </button>
                ) : (
                  <span>at {entry.label}</span>
                )}
              </li>
            ),
          )}
        </ol>
      )}
      <p className="error-hint">
        {error.phase === 'load'
          ? 'Nothing of this version can play. Fix it and save: the preview reloads.'
          : 'Playback stopped on this frame. Fix it and save: the preview reloads.'}
      </p>
    </div>
  );
}
