import type { ReactElement } from 'react';
import { isDirty, useSource } from '../editor/source-store.ts';
import { useExport } from '../export/export-store.ts';
import { usePreview } from '../preview/preview-store.ts';
import { useSourceBlock } from '../preview/source-health.ts';
import { useReview } from '../review/review-store.ts';
import { useSession } from '../session/session-store.ts';
import { baseName, shortRevision } from '../ui/format.ts';
import { Icon, Logo } from '../ui/icons.tsx';
import { useLayout } from '../ui/layout-store.ts';

/** The source as the project knows it: "<project folder>/compositions/x.ts". */
function projectRelative(source: string, projectRoot: string): string {
  const folder = projectRoot.split(/[\\/]/).pop() ?? '';
  return source.startsWith(projectRoot) ? `${folder}${source.slice(projectRoot.length)}` : source;
}

function WorkerChip(): ReactElement {
  const status = useSession((s) => s.status);
  const unreachable = useSession((s) => s.unreachable);
  if (unreachable) {
    return (
      <span className="chip err" data-testid="worker-state" title="The workspace does not answer">
        <span className="dot" /> workspace offline
      </span>
    );
  }
  const worker = status?.worker;
  if (!worker) return <span className="chip">…</span>;
  if (worker.state === 'none' && worker.lastCrash) {
    return (
      <span className="chip err" data-testid="worker-state" title={worker.lastCrash.stderr || undefined}>
        <span className="dot" /> worker crashed
      </span>
    );
  }
  const label: Record<string, [string, string]> = {
    none: ['', 'worker idle'],
    starting: ['busy', 'worker starting'],
    ready: ['ok', 'worker ready'],
    busy: ['busy', 'worker busy'],
    retired: ['', 'worker idle'],
  };
  const [tone, text] = label[worker.state] ?? ['', worker.state];
  return (
    <span className={`chip ${tone}`} data-testid="worker-state" data-state={worker.state}>
      <span className="dot" /> {text}
    </span>
  );
}

export function TopBar(): ReactElement {
  const info = useSession((s) => s.info);
  const status = useSession((s) => s.status);
  const setWelcomeOpen = useSession((s) => s.setWelcomeOpen);
  const dirty = useSource(isDirty);
  const saving = useSource((s) => s.saving);
  const save = useSource((s) => s.save);
  const reviewRunning = useReview((s) => s.running);
  const runReview = useReview((s) => s.run);
  const rendering = useExport((s) => s.running);
  const render = useExport((s) => s.render);
  const setTab = useLayout((s) => s.setTab);
  const compiles = status?.compiles !== false;
  const loadFails = usePreview((s) => s.runtimeError?.phase === 'load');
  const blocked = useSourceBlock();
  const sourceState = !compiles ? 'does not compile ·' : loadFails ? 'does not load ·' : 'rev';
  return (
    <header className="topbar">
      <div className="topbar-left">
        <button
          className="btn ghost icon"
          title="Home: open another composition"
          onClick={() => setWelcomeOpen(true)}
        >
          <Logo />
        </button>
        <div className="doc">
          <span className="doc-name" data-testid="file-name">
            {info ? baseName(info.source) : ''}
            {dirty && <span className="dirty-dot" title="Unsaved changes" data-testid="dirty" />}
          </span>
          <span className="doc-path" title={info?.source}>
            {info ? projectRelative(info.source, info.projectRoot) : ''}
          </span>
        </div>
      </div>
      <div className="topbar-center">
        <span
          className={`chip ${blocked ? 'err' : 'ok'}`}
          title={blocked ?? `Source revision ${status?.sourceRevision ?? ''}`}
          data-testid="revision"
          data-revision={status?.sourceRevision ?? ''}
          data-state={blocked ? 'broken' : 'ok'}
        >
          <span className="dot" />
          {sourceState} <span className="mono">{shortRevision(status?.sourceRevision)}</span>
        </span>
        <WorkerChip />
      </div>
      <div className="topbar-right">
        <button
          className="btn"
          onClick={() => void save()}
          disabled={!dirty || saving}
          title="Save (Ctrl/Cmd+S)"
        >
          <Icon name="save" /> {saving ? 'Saving…' : 'Save'}
        </button>
        <button
          className="btn"
          onClick={() => {
            setTab('review');
            void runReview();
          }}
          disabled={reviewRunning || blocked !== undefined}
          title={blocked ?? 'Review sampled frames'}
          data-testid="topbar-review"
        >
          {reviewRunning ? <span className="spinner" /> : <Icon name="review" />} Review
        </button>
        <button
          className="btn primary"
          onClick={() => {
            setTab('export');
            void render();
          }}
          disabled={rendering || blocked !== undefined}
          title={blocked ?? 'Render (Ctrl/Cmd+R)'}
          data-testid="topbar-render"
        >
          {rendering ? <span className="spinner" /> : <Icon name="film" />} Render
        </button>
      </div>
    </header>
  );
}
