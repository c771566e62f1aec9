// Captured frames: a strip of Skia renders under the preview. Click one to go to its frame; pick two
// to compare them side by side. A frame captured before the last edit is marked stale, with a button
// that captures it again.
import type { ReactElement } from 'react';
import { usePreview } from '../preview/preview-store.ts';
import { useSourceBlock } from '../preview/source-health.ts';
import { useSession } from '../session/session-store.ts';
import { shortRevision } from '../ui/format.ts';
import { Icon } from '../ui/icons.tsx';
import type { CapturedFrame } from './frames-store.ts';
import { isStaleFrame, useFrames } from './frames-store.ts';

function CompareView({ frames }: { frames: CapturedFrame[] }): ReactElement {
  const closeCompare = useFrames((s) => s.closeCompare);
  return (
    <div className="compare" role="dialog" aria-label="Compare frames" data-testid="compare">
      <div className="compare-header">
        <span className="pane-title">Compare</span>
        <button className="btn small" onClick={closeCompare}>
          <Icon name="cross" size={12} /> Close
        </button>
      </div>
      <div className="compare-body">
        {frames.map((frame) => (
          <figure key={frame.id} className="compare-item">
            <img src={frame.url} alt={`Frame ${frame.frameIndex}`} />
            <figcaption>
              <span className="mono">frame {frame.frameIndex}</span> · {frame.seconds.toFixed(2)} s
              {frame.aspect ? ` · ${frame.aspect}` : ''} · rev{' '}
              <span className="mono">{shortRevision(frame.sourceRevision)}</span>
            </figcaption>
          </figure>
        ))}
      </div>
    </div>
  );
}

export function FramesStrip(): ReactElement {
  const frames = useFrames((s) => s.frames);
  const compare = useFrames((s) => s.compare);
  const toggleCompare = useFrames((s) => s.toggleCompare);
  const remove = useFrames((s) => s.remove);
  const recapture = useFrames((s) => s.recapture);
  const capturing = useFrames((s) => s.capturing);
  const revision = useSession((s) => s.status?.sourceRevision);
  const blocked = useSourceBlock();
  const seek = usePreview((s) => s.seek);
  const compared = compare
    .map((id) => frames.find((frame) => frame.id === id))
    .filter((frame): frame is CapturedFrame => frame !== undefined);
  return (
    <div className="frames">
      <div className="frames-header">
        <span className="label">Captured frames</span>
        <span className="muted">
          {frames.length === 0
            ? 'Capture renders the exact frame the export will have.'
            : compare.length === 1
              ? 'Pick one more to compare.'
              : 'Select two to compare side by side.'}
        </span>
      </div>
      <div className="frames-list" data-testid="frames-strip">
        {frames.map((frame) => {
          const stale = isStaleFrame(frame, revision);
          return (
            <div
              key={frame.id}
              className={`frame-thumb${compare.includes(frame.id) ? ' selected' : ''}${stale ? ' stale' : ''}`}
              data-testid="captured-frame"
              data-frame={frame.frameIndex}
              data-stale={stale}
            >
              <button
                className="thumb-image"
                onClick={() => seek(frame.frameIndex)}
                title={
                  stale
                    ? `Captured at rev ${shortRevision(frame.sourceRevision)}, before the last edit. Go to this frame`
                    : 'Go to this frame'
                }
              >
                <img src={frame.url} alt={`Captured frame ${frame.frameIndex}`} />
                {stale && <span className="badge muted stale-badge">stale</span>}
              </button>
              <div className="thumb-meta">
                <span className="mono">#{frame.frameIndex}</span>
                <span className="thumb-actions">
                  {stale && (
                    <button
                      className="btn ghost icon tiny"
                      onClick={() => void recapture(frame.id)}
                      disabled={capturing || blocked !== undefined}
                      title={blocked ?? 'Capture again at the current revision'}
                      aria-label="Recapture"
                      data-testid="recapture"
                    >
                      <Icon name="camera" size={12} />
                    </button>
                  )}
                  <button
                    className={`btn ghost icon tiny${compare.includes(frame.id) ? ' on' : ''}`}
                    onClick={() => toggleCompare(frame.id)}
                    title="Compare"
                    aria-pressed={compare.includes(frame.id)}
                  >
                    <Icon name="compare" size={12} />
                  </button>
                  <button className="btn ghost icon tiny" onClick={() => remove(frame.id)} title="Remove">
                    <Icon name="cross" size={12} />
                  </button>
                </span>
              </div>
            </div>
          );
        })}
      </div>
      {compared.length === 2 && <CompareView frames={compared} />}
    </div>
  );
}
