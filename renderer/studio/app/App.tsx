// The studio's screens: starting, the welcome screen, a page without its key, and the workbench
// (source | preview | review, inspect, export) once a composition is open.
import { useEffect, useState } from 'react';
import type { ReactElement } from 'react';
import { SourcePane } from '../editor/SourcePane.tsx';
import { isDirty, useSource } from '../editor/source-store.ts';
import { ExportPane } from '../export/ExportPane.tsx';
import { PreviewPane } from '../preview/PreviewPane.tsx';
import { usePreview } from '../preview/preview-store.ts';
import { InspectPane } from '../review/InspectPane.tsx';
import { ReviewPane } from '../review/ReviewPane.tsx';
import { useReview } from '../review/review-store.ts';
import { pathOfDroppedFile } from '../session/resolve-bridge.ts';
import { describeError, useSession } from '../session/session-store.ts';
import { VariablesPane } from '../variables/VariablesPane.tsx';
import { Welcome } from '../welcome/Welcome.tsx';
import { Logo } from '../ui/icons.tsx';
import type { SideTab } from '../ui/layout-store.ts';
import { useLayout } from '../ui/layout-store.ts';
import { useStudioKeyboard } from './keyboard.ts';
import { useClearErrorsOnNewRevision } from './stale-errors.ts';
import { StatusBar } from './StatusBar.tsx';
import { TopBar } from './TopBar.tsx';

const TABS: { id: SideTab; label: string }[] = [
  { id: 'review', label: 'Review' },
  { id: 'inspect', label: 'Inspect' },
  { id: 'export', label: 'Export' },
  { id: 'variables', label: 'Variables' },
];

/** A template opens with its form showing (once: the tab is the user's after that). */
function useOpenVariablesForTemplate(isTemplate: boolean): void {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!isTemplate || shown) return;
    setShown(true);
    if (useLayout.getState().tab === 'review' && !useReview.getState().result)
      useLayout.getState().setTab('variables');
  }, [isTemplate, shown]);
}

function SidePanel(): ReactElement {
  const tab = useLayout((s) => s.tab);
  const setTab = useLayout((s) => s.setTab);
  const findings = useReview((s) => s.result?.findings.filter((f) => !f.allowed).length);
  const variables = usePreview((s) => (s.declared ? Object.keys(s.declared).length : 0));
  useOpenVariablesForTemplate(variables > 0);
  return (
    <section className="pane side-pane" aria-label="Review, inspect, export and variables">
      <div className="tabs" role="tablist">
        {TABS.map((entry) => (
          <button
            key={entry.id}
            role="tab"
            aria-selected={tab === entry.id}
            className={`tab${tab === entry.id ? ' active' : ''}`}
            onClick={() => setTab(entry.id)}
            data-testid={`tab-${entry.id}`}
          >
            {entry.label}
            {entry.id === 'review' && findings ? <span className="tab-count">{findings}</span> : null}
            {entry.id === 'variables' && variables ? (
              <span className="tab-count muted">{variables}</span>
            ) : null}
          </button>
        ))}
      </div>
      {tab === 'review' && <ReviewPane />}
      {tab === 'inspect' && <InspectPane />}
      {tab === 'export' && <ExportPane />}
      {tab === 'variables' && <VariablesPane />}
    </section>
  );
}

/** Drop a composition file anywhere on the window to open it (the desktop app knows its path). */
function useFileDrop(): string | undefined {
  const bridge = useSession((s) => s.bridge);
  const [message, setMessage] = useState<string | undefined>(undefined);
  useEffect(() => {
    const over = (event: DragEvent) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    };
    const drop = (event: DragEvent) => {
      const file = event.dataTransfer?.files[0];
      if (!file) return;
      event.preventDefault();
      const path = pathOfDroppedFile(file);
      if (!path) {
        setMessage(`A browser cannot tell where ${file.name} is: open it by its path from the Home screen.`);
        return;
      }
      bridge.openFile(path).catch((error: unknown) => setMessage(describeError(error)));
    };
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [bridge]);
  return message;
}

function Workbench(): ReactElement {
  useStudioKeyboard();
  useClearErrorsOnNewRevision();
  const welcomeOpen = useSession((s) => s.welcomeOpen);
  const setWelcomeOpen = useSession((s) => s.setWelcomeOpen);
  const source = useSession((s) => s.info?.source);
  const loadAllowed = useReview((s) => s.loadAllowed);
  useEffect(() => {
    // Leaving (reload, close, opening another file) would drop unsaved edits: ask first.
    const guard = (event: BeforeUnloadEvent) => {
      if (isDirty(useSource.getState())) event.preventDefault();
    };
    window.addEventListener('beforeunload', guard);
    return () => window.removeEventListener('beforeunload', guard);
  }, []);
  useEffect(() => {
    if (source) loadAllowed(source);
  }, [source, loadAllowed]);
  return (
    <div className="app">
      <TopBar />
      <main className="workbench">
        <SourcePane />
        <PreviewPane />
        <SidePanel />
      </main>
      <StatusBar />
      {welcomeOpen && (
        <div className="overlay">
          <Welcome onClose={() => setWelcomeOpen(false)} />
        </div>
      )}
    </div>
  );
}

function Centered({ children }: { children: React.ReactNode }): ReactElement {
  return (
    <div className="centered">
      <Logo />
      {children}
    </div>
  );
}

export function App(): ReactElement {
  const phase = useSession((s) => s.phase);
  const bootError = useSession((s) => s.bootError);
  const boot = useSession((s) => s.boot);
  const dropMessage = useFileDrop();
  useEffect(() => {
    void boot();
  }, [boot]);
  return (
    <>
      {phase === 'booting' && (
        <Centered>
          <span className="spinner" /> Opening the workspace…
        </Centered>
      )}
      {phase === 'locked' && (
        <Centered>
          <h2>This page has no workspace key</h2>
          <p className="muted">
            Open the link that <code>kino studio &lt;file.ts&gt;</code> printed: it carries the key in its
            #fragment, which is never sent to a server.
          </p>
        </Centered>
      )}
      {phase === 'failed' && (
        <Centered>
          <h2>The studio could not start</h2>
          <p className="notice err">{bootError}</p>
        </Centered>
      )}
      {phase === 'welcome' && <Welcome />}
      {phase === 'ready' && <Workbench />}
      {dropMessage && <div className="toast">{dropMessage}</div>}
    </>
  );
}
