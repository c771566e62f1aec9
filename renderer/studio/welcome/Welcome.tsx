// The welcome screen: open a composition (a dialog in the desktop app, the project's compositions
// or a path in the browser), recent files, and New from example.
import { useEffect, useState } from 'react';
import type { ReactElement } from 'react';
import type { ExampleInfo, InputKind, OpenOutcome, RecentFile } from '../../../shared/studio/bridge.ts';
import { isDirty, useSource } from '../editor/source-store.ts';
import { describeError, useSession } from '../session/session-store.ts';
import { baseName, timeAgo } from '../ui/format.ts';
import { Icon, Logo } from '../ui/icons.tsx';
import { GenerateCard } from '../words/GenerateCard.tsx';

/** /studio/api/compositions: the project's inputs (main/studio/project-compositions.ts). */
interface ProjectComposition {
  path: string;
  relative: string;
  kind: InputKind;
}

const KIND_LABELS: Record<InputKind, string> = { composition: 'code', spec: 'spec', template: 'template' };

function useOpen(): {
  busy: boolean;
  error: string | undefined;
  run: (work: () => Promise<OpenOutcome>) => Promise<void>;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  return {
    busy,
    error,
    async run(work) {
      if (
        isDirty(useSource.getState()) &&
        !window.confirm('Discard the unsaved changes to this composition?')
      )
        return;
      setBusy(true);
      setError(undefined);
      try {
        const outcome = await work();
        if (outcome.kind === 'canceled') setBusy(false);
        // Browser mode: the composition asked for is the one open here.
        if (outcome.kind === 'opened' && useSession.getState().bridge.mode === 'browser') {
          setBusy(false);
          useSession.getState().setWelcomeOpen(false);
        }
        // 'navigate' and 'opened' load another page: stay busy until it does.
      } catch (caught) {
        setError(describeError(caught));
        setBusy(false);
      }
    },
  };
}

export function Welcome({ onClose }: { onClose?: () => void }): ReactElement {
  const bridge = useSession((s) => s.bridge);
  const client = useSession((s) => s.client);
  const [version, setVersion] = useState('');
  const [recent, setRecent] = useState<RecentFile[]>([]);
  const [examples, setExamples] = useState<ExampleInfo[]>([]);
  const [compositions, setCompositions] = useState<ProjectComposition[]>([]);
  const [path, setPath] = useState('');
  const [folders, setFolders] = useState<Record<string, string>>({});
  const open = useOpen();
  const browser = bridge.mode === 'browser';

  useEffect(() => {
    void bridge.appVersion().then(setVersion, () => undefined);
    void bridge.recentFiles().then(setRecent, () => undefined);
    void bridge.listExamples().then(setExamples, () => undefined);
    if (browser && client)
      void client
        .json<ProjectComposition[]>('/studio/api/compositions')
        .then(setCompositions, () => undefined);
  }, [bridge, client, browser]);

  return (
    <div className="welcome" data-testid="welcome">
      <div className="welcome-inner">
        <header className="welcome-head">
          <Logo />
          <div>
            <h1>Kino Studio</h1>
            <p className="muted">Programmatic video: write it, watch it, review it, export it verified.</p>
          </div>
          <span className="muted push mono">{version && `v${version}`}</span>
          {onClose && (
            <button className="btn ghost" onClick={onClose}>
              <Icon name="cross" size={12} /> Back to the composition
            </button>
          )}
        </header>
        {open.error && <div className="notice err">{open.error}</div>}
        <GenerateCard />
        <div className="welcome-grid">
          <section className="welcome-card">
            <h2>Open</h2>
            {browser ? (
              <form
                className="row gap"
                onSubmit={(event) => {
                  event.preventDefault();
                  if (path.trim()) void open.run(() => bridge.openFile(path.trim()));
                }}
              >
                <input
                  className="input grow"
                  placeholder="path/to/composition.ts or spec.json"
                  value={path}
                  onChange={(event) => setPath(event.target.value)}
                  aria-label="Composition path"
                />
                <button className="btn primary" disabled={open.busy || !path.trim()}>
                  Open
                </button>
              </form>
            ) : (
              <button
                className="btn primary wide"
                onClick={() => void open.run(() => bridge.openFile())}
                disabled={open.busy}
              >
                <Icon name="folder" /> Open composition…
              </button>
            )}
            {compositions.length > 0 && (
              <>
                <div className="label spaced">In this project</div>
                <ul className="file-list">
                  {compositions.map((composition) => (
                    <li key={composition.path}>
                      <button
                        className="file-row with-kind"
                        onClick={() => void open.run(() => bridge.openFile(composition.path))}
                        disabled={open.busy}
                        data-testid="project-input"
                        data-kind={composition.kind}
                      >
                        <Icon name={composition.relative.endsWith('.json') ? 'braces' : 'film'} size={14} />
                        <span className="file-name">{baseName(composition.path)}</span>
                        <span className={`kind-badge ${composition.kind}`}>
                          {KIND_LABELS[composition.kind]}
                        </span>
                        <span className="muted mono file-dir">{composition.relative}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              </>
            )}
            <div className="label spaced">Recent</div>
            {recent.length === 0 ? (
              <p className="muted">Compositions you open show up here.</p>
            ) : (
              <ul className="file-list" data-testid="recent-files">
                {recent.map((file) => (
                  <li key={file.path}>
                    <button
                      className="file-row"
                      onClick={() => void open.run(() => bridge.openFile(file.path))}
                      disabled={open.busy || !file.exists}
                      title={file.exists ? file.path : `${file.path} (no longer there)`}
                    >
                      <Icon name="film" size={14} />
                      <span className="file-name">{baseName(file.path)}</span>
                      <span className="muted mono file-dir">{file.path}</span>
                      <span className="muted">{file.exists ? timeAgo(file.openedAt) : 'missing'}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <p className="muted hint">
              {browser
                ? 'Paths are relative to the project folder.'
                : 'Or drop a .ts composition or a .json spec anywhere on this window.'}
            </p>
          </section>
          <section className="welcome-card">
            <h2>New from example</h2>
            <p className="muted">
              Copies an example project (composition, assets, kino.json) into a folder and opens it.
            </p>
            <div className="examples">
              {examples.map((example) => (
                <div key={example.id} className="example" data-testid="example">
                  <div className="example-text">
                    <strong>{example.title}</strong>
                    <span className="muted">{example.description}</span>
                  </div>
                  <div className="row gap">
                    {browser && (
                      <input
                        className="input grow"
                        value={folders[example.id] ?? `kino-${example.id}`}
                        onChange={(event) => setFolders({ ...folders, [example.id]: event.target.value })}
                        aria-label={`Folder for ${example.title}`}
                      />
                    )}
                    <button
                      className="btn"
                      disabled={open.busy}
                      onClick={() =>
                        void open.run(() =>
                          bridge.newFromExample(
                            example.id,
                            browser ? (folders[example.id] ?? `kino-${example.id}`) : undefined,
                          ),
                        )
                      }
                    >
                      <Icon name="plus" size={12} /> Create
                    </button>
                  </div>
                </div>
              ))}
            </div>
          </section>
        </div>
      </div>
    </div>
  );
}
