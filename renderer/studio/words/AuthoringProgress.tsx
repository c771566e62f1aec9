// A job's progress by stage (authoring, reviewing, each repair), then its authoring record: provider,
// model, answers, what each repair sent back, tokens, time, the findings left, and what the AI sees.
import type { ReactElement } from 'react';
import type { AuthoringJobView } from '../../../shared/studio/authoring.ts';
import type { AuthoringRecord } from '../../../shared/protocol/authoring-record.ts';
import { stageLines, useWords } from './words-store.ts';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function Briefing(): ReactElement {
  const briefing = useWords((s) => s.briefing);
  const loadBriefing = useWords((s) => s.loadBriefing);
  return (
    <details
      className="words-briefing"
      data-testid="words-briefing"
      onToggle={(event) => {
        if ((event.target as HTMLDetailsElement).open) void loadBriefing();
      }}
    >
      <summary>What the AI sees{briefing ? ` (${briefing.tokens.toLocaleString('en')} tokens)` : ''}</summary>
      {briefing ? (
        <>
          <div className="label">The request</div>
          <pre className="words-pre">{briefing.user}</pre>
          <div className="label">The instructions (spec guide, project assets, schema)</div>
          <pre className="words-pre">{briefing.system}</pre>
        </>
      ) : (
        <p className="muted">Loading…</p>
      )}
    </details>
  );
}

export function AuthoringRecordView({ record }: { record: AuthoringRecord }): ReactElement {
  return (
    <div className="words-record" data-testid="words-record">
      <dl className="words-facts">
        <dt>Provider</dt>
        <dd data-testid="words-record-provider">
          {record.provider} <span className="mono">{record.model}</span>
        </dd>
        <dt>Answers</dt>
        <dd>
          {record.attempts} ({plural(record.repairs.length, 'repair')})
        </dd>
        <dt>Tokens</dt>
        <dd className="mono">
          {record.usage.inputTokens.toLocaleString('en')} in ·{' '}
          {record.usage.outputTokens.toLocaleString('en')} out
        </dd>
        <dt>Time</dt>
        <dd className="mono">{seconds(record.durationMs)}</dd>
      </dl>
      {record.repairs.length > 0 && (
        <ol className="words-repairs">
          {record.repairs.map((repair, index) => (
            <li key={index}>
              Answer {index + 1} went back with {plural(repair.errors.length, 'error')} and{' '}
              {plural(repair.findings.length, 'finding')}
              <ul>
                {repair.errors.slice(0, 4).map((error, i) => (
                  <li key={`e${i}`}>
                    <span className="mono">{error.pointer || '/'}</span> {error.message}
                  </li>
                ))}
                {repair.findings.slice(0, 4).map((finding, i) => (
                  <li key={`f${i}`}>
                    <span className="mono">{finding.code}</span> {finding.message}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
      {record.remainingFindings.length > 0 && (
        <div className="notice warn">
          {plural(record.remainingFindings.length, 'finding')} left:{' '}
          {record.remainingFindings.map((finding) => finding.code).join(', ')}
        </div>
      )}
    </div>
  );
}

export function AuthoringProgress({ job }: { job: AuthoringJobView }): ReactElement {
  const cancel = useWords((s) => s.cancel);
  const running = job.state === 'running';
  return (
    <div className="words-progress" data-testid="words-progress" data-state={job.state}>
      <ol className="words-stages" aria-label="Authoring stages">
        {stageLines(job).map((line, index) => (
          <li key={index} className={line.current ? 'current' : 'past'} data-testid="words-stage">
            {line.current ? (
              <span className="spinner" />
            ) : (
              <span className="words-tick" aria-hidden>
                ✓
              </span>
            )}
            <span className="words-stage-label">{line.label}</span>
            <span className="muted mono push">{seconds(line.atMs)}</span>
          </li>
        ))}
      </ol>
      <div className="row gap">
        <span className="muted" data-testid="words-state">
          {running
            ? `Working… ${seconds(job.elapsedMs)}`
            : job.state === 'done'
              ? `Done in ${seconds(job.elapsedMs)}`
              : job.state === 'canceled'
                ? 'Canceled'
                : 'Failed'}
        </span>
        {running && (
          <button className="btn small push" onClick={() => void cancel()}>
            Cancel
          </button>
        )}
      </div>
      {job.error && job.state === 'failed' && (
        <div className="notice err" role="alert">
          {job.error}
        </div>
      )}
      {job.warnings.map((warning, index) => (
        <div key={index} className="muted words-warning">
          {warning}
        </div>
      ))}
      {job.record && <AuthoringRecordView record={job.record} />}
      <Briefing />
    </div>
  );
}
