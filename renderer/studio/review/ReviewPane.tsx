// The review pane: run a review (sample count, determinism) and read its findings, grouped by
// severity, each with its interval, message, remedy, Inspect frame and an allow toggle.
import type { ReactElement } from 'react';
import { useSourceBlock } from '../preview/source-health.ts';
import { useSession } from '../session/session-store.ts';
import type { ReviewFinding } from '../../../shared/protocol/finding.ts';
import { shortRevision } from '../ui/format.ts';
import { Icon } from '../ui/icons.tsx';
import { useLayout } from '../ui/layout-store.ts';
import { isStale, useReview } from './review-store.ts';

function FindingCard({ finding, stale }: { finding: ReviewFinding; stale: boolean }): ReactElement {
  const inspectFinding = useReview((s) => s.inspectFinding);
  const run = useReview((s) => s.run);
  const running = useReview((s) => s.running);
  const toggleAllowed = useReview((s) => s.toggleAllowed);
  const setTab = useLayout((s) => s.setTab);
  const { interval } = finding;
  return (
    <article
      className={`finding ${finding.severity}${finding.allowed ? ' allowed' : ''}${stale ? ' stale' : ''}`}
      data-testid="finding"
      data-code={finding.code}
      data-stale={stale}
    >
      <header>
        <span className={`badge ${finding.allowed ? 'muted' : finding.severity}`}>{finding.code}</span>
        {finding.allowed && <span className="badge ok">intentional</span>}
        {stale && (
          <span className="badge muted" title="The source changed since this review">
            stale
          </span>
        )}
        <span className="finding-when mono" title={`frames ${interval.startFrame}–${interval.endFrame - 1}`}>
          {interval.startSeconds.toFixed(2)}–{interval.endSeconds.toFixed(2)} s
        </span>
      </header>
      <p className="finding-message">{finding.message}</p>
      <p className="finding-remedy">
        <span className="label">Fix</span> {finding.remedy}
      </p>
      <footer>
        {stale ? (
          <button
            className="btn small"
            onClick={() => void run()}
            disabled={running}
            data-testid="rerun-review"
          >
            Re-run review to inspect
          </button>
        ) : (
          <button
            className="btn small"
            onClick={() => {
              setTab('inspect');
              void inspectFinding(finding);
            }}
            data-testid="inspect-frame"
          >
            <Icon name="search" size={12} /> Inspect frame {finding.inspect.frameIndex}
          </button>
        )}
        <button
          className={`btn small ghost${finding.allowed ? ' on' : ''}`}
          onClick={() => toggleAllowed(finding.code)}
          title={
            finding.allowed ? 'Count this code as a problem again' : 'Mark this code as intentional here'
          }
          data-testid="allow-code"
        >
          {finding.allowed ? 'Allowed ✓' : 'Allow'}
        </button>
      </footer>
    </article>
  );
}

/** The running review's samples drawn so far (the workspace reports each one). */
function ReviewProgress(): ReactElement | null {
  const progress = useReview((s) => s.progress);
  if (!progress) return null;
  const percent = Math.round((progress.done / Math.max(1, progress.total)) * 100);
  return (
    <div
      className="render-progress"
      data-testid="review-progress"
      data-done={progress.done}
      data-total={progress.total}
    >
      <div className="progress-head">
        <span>Drawing and checking sample frames</span>
        <span className="mono muted">
          {progress.done} / {progress.total}
        </span>
      </div>
      <div
        className="progress-track"
        role="progressbar"
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

/** "2 errors" in the severity's colour; a count of none is no alarm, so it stays neutral. */
function CountBadge({ count, noun, tone }: { count: number; noun: string; tone: string }): ReactElement {
  return (
    <span className={`badge ${count > 0 ? tone : 'muted'}`} data-testid={`count-${noun}s`} data-count={count}>
      {count} {noun}
      {count === 1 ? '' : 's'}
    </span>
  );
}

function Group({
  title,
  findings,
  revision,
}: {
  title: string;
  findings: ReviewFinding[];
  revision?: string;
}) {
  if (findings.length === 0) return null;
  return (
    <div className="finding-group">
      <div className="group-title">
        <span className="label">{title}</span>
        <span className="count">{findings.length}</span>
      </div>
      {findings.map((finding, index) => (
        <FindingCard key={`${finding.code}-${index}`} finding={finding} stale={isStale(finding, revision)} />
      ))}
    </div>
  );
}

export function ReviewPane(): ReactElement {
  const reviewFrames = useReview((s) => s.reviewFrames);
  const determinism = useReview((s) => s.determinism);
  const running = useReview((s) => s.running);
  const result = useReview((s) => s.result);
  const error = useReview((s) => s.error);
  const run = useReview((s) => s.run);
  const setReviewFrames = useReview((s) => s.setReviewFrames);
  const setDeterminism = useReview((s) => s.setDeterminism);
  const revision = useSession((s) => s.status?.sourceRevision);
  const blocked = useSourceBlock();
  const findings = result?.findings ?? [];
  const active = findings.filter((f) => !f.allowed);
  const resultStale = result !== undefined && revision !== undefined && result.sourceRevision !== revision;
  return (
    <div className="side-body" data-testid="review-pane">
      <div className="controls-row">
        <label className="field narrow">
          <span>Samples</span>
          <input
            className="input"
            type="number"
            min={1}
            max={24}
            value={reviewFrames}
            onChange={(event) => setReviewFrames(Number(event.target.value))}
            data-testid="review-frames"
          />
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={determinism}
            onChange={(event) => setDeterminism(event.target.checked)}
          />
          Check determinism
        </label>
      </div>
      {/* On its own row, as Export's Render is: beside the fields it overflowed a narrow panel. */}
      <button
        className="btn primary wide"
        onClick={() => void run()}
        disabled={running || blocked !== undefined}
        title={blocked}
        data-testid="run-review"
      >
        {running ? (
          <>
            <span className="spinner" /> Reviewing…
          </>
        ) : (
          'Run review'
        )}
      </button>
      <ReviewProgress />
      {error && <div className="notice err">{error}</div>}
      {!result && !running && !error && (
        <div className="empty">
          <Icon name="review" size={28} />
          <h3>No review yet</h3>
          <p>
            Review samples frames with the renderer and checks text, contrast, safe areas, media and audio.
          </p>
        </div>
      )}
      {result && (
        <>
          <div className={`review-summary${active.length === 0 ? ' pass' : ''}`} data-testid="review-summary">
            {active.length === 0 ? (
              <span className="badge ok">no findings{findings.length > 0 ? ' left' : ''}</span>
            ) : (
              <>
                <CountBadge
                  count={active.filter((f) => f.severity === 'error').length}
                  noun="error"
                  tone="error"
                />
                <CountBadge
                  count={active.filter((f) => f.severity === 'warning').length}
                  noun="warning"
                  tone="warning"
                />
              </>
            )}
            <span className="muted">
              {result.samples.length} frames · rev{' '}
              <span className="mono">{shortRevision(result.sourceRevision)}</span> ·{' '}
              {(result.elapsedMilliseconds / 1000).toFixed(1)} s
            </span>
            {result.determinism && (
              <span className={`badge ${result.determinism.mismatches === 0 ? 'ok' : 'error'}`}>
                {result.determinism.mismatches === 0 ? 'deterministic' : 'not deterministic'}
              </span>
            )}
          </div>
          {resultStale && (
            <div className="notice warn">
              <div>
                The source changed since this review. Findings are marked stale.{' '}
                <button className="link" onClick={() => void run()}>
                  Re-run review
                </button>
              </div>
            </div>
          )}
          <Group
            title="Errors"
            findings={findings.filter((f) => !f.allowed && f.severity === 'error')}
            revision={revision}
          />
          <Group
            title="Warnings"
            findings={findings.filter((f) => !f.allowed && f.severity === 'warning')}
            revision={revision}
          />
          <Group title="Intentional" findings={findings.filter((f) => f.allowed)} revision={revision} />
        </>
      )}
    </div>
  );
}
