// Export: options, Render with a progress bar (frames, fps, ETA) that can be canceled, the receipt of
// the render that just finished and the past exports of this composition.
import { useEffect } from 'react';
import type { ReactElement } from 'react';
import { ASPECT_NAMES } from '../../../shared/spec/sizes.ts';
import type { AspectName } from '../../../shared/spec/sizes.ts';
import { useSourceBlock } from '../preview/source-health.ts';
import { formatSeconds } from '../ui/format.ts';
import { Icon } from '../ui/icons.tsx';
import type { ExportOptions } from './export-store.ts';
import { useExport } from './export-store.ts';
import { ReceiptCard } from './ReceiptCard.tsx';

const STAGE_LABELS: Record<string, string> = {
  queued: 'Waiting for the worker',
  starting: 'Starting the worker',
  reviewing: 'Reviewing',
  preparing: 'Preparing media and fonts',
  rendering: 'Rendering frames',
  encoding: 'Finishing the encode',
  verifying: 'Verifying with ffprobe',
};

function Progress(): ReactElement | null {
  const progress = useExport((s) => s.progress);
  const running = useExport((s) => s.running);
  const cancel = useExport((s) => s.cancel);
  if (!running || !progress) return null;
  const fraction = progress.framesTotal > 0 ? progress.framesDone / progress.framesTotal : 0;
  const shown = progress.stage === 'encoding' || progress.stage === 'verifying' ? 1 : fraction;
  return (
    <div className="render-progress" data-testid="render-progress" data-stage={progress.stage}>
      <div className="progress-head">
        <span>{STAGE_LABELS[progress.stage] ?? progress.stage}</span>
        <span className="mono muted">{Math.round(shown * 100)}%</span>
      </div>
      <div
        className="progress-track"
        role="progressbar"
        aria-valuenow={Math.round(shown * 100)}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className="progress-fill" style={{ width: `${shown * 100}%` }} />
      </div>
      <div className="progress-facts mono muted">
        <span data-testid="render-frames">
          {progress.framesDone} / {progress.framesTotal || '—'} frames
        </span>
        <span>{progress.fps > 0 ? `${progress.fps.toFixed(1)} fps` : ''}</span>
        <span>
          {progress.etaSeconds != null && progress.stage === 'rendering'
            ? `ETA ${formatSeconds(progress.etaSeconds)}`
            : ''}
        </span>
      </div>
      <button className="btn small danger" onClick={cancel} data-testid="cancel-render">
        Cancel
      </button>
    </div>
  );
}

export function ExportPane(): ReactElement {
  const options = useExport((s) => s.options);
  const setOptions = useExport((s) => s.setOptions);
  const running = useExport((s) => s.running);
  const render = useExport((s) => s.render);
  const error = useExport((s) => s.error);
  const canceled = useExport((s) => s.canceled);
  const last = useExport((s) => s.last);
  const past = useExport((s) => s.past);
  const loadPast = useExport((s) => s.loadPast);
  const blocked = useSourceBlock();
  useEffect(() => {
    void loadPast();
  }, [loadPast]);
  const others = past.filter(
    (entry) =>
      entry.receipt.output.sha256 !== last?.receipt.output.sha256 ||
      entry.receipt.createdAt !== last?.receipt.createdAt,
  );
  return (
    <div className="side-body" data-testid="export-pane">
      <div className="form-grid">
        <label className="field">
          <span>Aspect</span>
          <select
            className="select"
            value={options.aspect}
            onChange={(e) => setOptions({ aspect: e.target.value as AspectName | '' })}
            data-testid="export-aspect"
          >
            <option value="">Composition</option>
            {ASPECT_NAMES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Format</span>
          <select
            className="select"
            value={options.format}
            onChange={(e) => setOptions({ format: e.target.value as ExportOptions['format'] })}
            data-testid="export-format"
          >
            <option value="mp4">MP4 (H.264)</option>
            <option value="mov">MOV (ProRes)</option>
            <option value="transparent">WebM with alpha</option>
            <option value="gif">GIF</option>
          </select>
        </label>
        <label className="field">
          <span>Quality</span>
          <select
            className="select"
            value={options.quality}
            onChange={(e) => setOptions({ quality: e.target.value as ExportOptions['quality'] })}
            data-testid="export-quality"
          >
            <option value="draft">Draft</option>
            <option value="standard">Standard</option>
            <option value="high">High</option>
          </select>
        </label>
        <label className="field">
          <span>Poster</span>
          <div className="row gap">
            <input
              type="checkbox"
              checked={options.posterEnabled}
              onChange={(e) => setOptions({ posterEnabled: e.target.checked })}
              aria-label="Write a poster image"
            />
            <input
              className="input grow"
              value={options.posterAt}
              disabled={!options.posterEnabled}
              onChange={(e) => setOptions({ posterAt: e.target.value })}
              aria-label="Poster time"
              placeholder="1s"
            />
          </div>
        </label>
      </div>
      <button
        className="btn primary wide"
        onClick={() => void render()}
        disabled={running || blocked !== undefined}
        title={blocked}
        data-testid="render"
      >
        <Icon name="film" /> {running ? 'Rendering…' : 'Render'} <span className="kbd">Ctrl R</span>
      </button>
      <Progress />
      {canceled && !running && <div className="notice">Render canceled. Nothing was kept.</div>}
      {error && !running && (
        <div className="notice err" role="alert">
          {error}
        </div>
      )}
      {last && <ReceiptCard receipt={last.receipt} />}
      {!last && !running && others.length === 0 && (
        <div className="empty">
          <Icon name="film" size={28} />
          <h3>No exports yet</h3>
          <p>
            Render reviews the composition, encodes it, and checks the file with ffprobe. A receipt says what
            you got.
          </p>
        </div>
      )}
      {others.length > 0 && (
        <div className="past-exports" data-testid="past-exports">
          <div className="group-title">
            <span className="label">Past exports</span>
            <span className="count">{others.length}</span>
          </div>
          {others.map((entry) => (
            <ReceiptCard key={entry.receiptPath} receipt={entry.receipt} exists={entry.exists} compact />
          ))}
        </div>
      )}
    </div>
  );
}
