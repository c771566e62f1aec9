import type { ReactElement } from 'react';
import { useSession } from '../session/session-store.ts';

export function StatusBar(): ReactElement {
  const status = useSession((s) => s.status);
  const info = useSession((s) => s.info);
  const unreachable = useSession((s) => s.unreachable);
  const crash = status?.worker.lastCrash;
  return (
    <footer className="statusbar">
      {unreachable ? (
        <span className="status-err">
          The workspace stopped answering: it was stopped or crashed. Open the composition again (kino studio,
          or the app's File menu).
        </span>
      ) : crash ? (
        <span className="status-err" data-testid="worker-crash" title={crash.stderr}>
          The render worker (pid {crash.pid}) exited during {crash.during} (
          {crash.signal ?? `code ${crash.code}`}); the next request starts a new one.
        </span>
      ) : (
        <span>
          {status ? `${status.backend} renderer` : 'connecting…'}
          {status?.worker.pid ? ` · worker pid ${status.worker.pid}` : ''}
          {status && status.queue.depth > 0
            ? ` · ${status.queue.running} running, ${status.queue.waiting} waiting`
            : ''}
        </span>
      )}
      <span className="push mono muted">{info ? `${info.mode} · ${location.host}` : ''}</span>
      <span className="mono muted">{info?.appVersion ? `Kino ${info.appVersion}` : ''}</span>
    </footer>
  );
}
