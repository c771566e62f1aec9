// Inspect: the frame as the renderer draws it, with every drawn element's box over it and listed
// (type, label, box, opacity); the finding's own element is highlighted.
import { useState } from 'react';
import type { ReactElement } from 'react';
import { usePreview } from '../preview/preview-store.ts';
import type { VisibleElement } from '../../../shared/protocol/workspace.ts';
import { Icon } from '../ui/icons.tsx';
import { useReview } from './review-store.ts';

function Boxes({
  elements,
  width,
  height,
  focus,
  hovered,
}: {
  elements: VisibleElement[];
  width: number;
  height: number;
  focus: string | undefined;
  hovered: string | undefined;
}): ReactElement {
  return (
    <svg className="inspect-boxes" viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="xMidYMid meet">
      {elements.map((element) => (
        <rect
          key={element.key}
          x={element.box.x}
          y={element.box.y}
          width={Math.max(1, element.box.width)}
          height={Math.max(1, element.box.height)}
          className={element.key === focus ? 'focus' : element.key === hovered ? 'hover' : ''}
          vectorEffect="non-scaling-stroke"
        />
      ))}
    </svg>
  );
}

export function InspectPane(): ReactElement {
  const inspect = useReview((s) => s.inspect);
  const inspectFrame = useReview((s) => s.inspectFrame);
  const frame = usePreview((s) => s.frame);
  const width = usePreview((s) => s.width);
  const height = usePreview((s) => s.height);
  const [hovered, setHovered] = useState<string | undefined>(undefined);
  if (!inspect) {
    return (
      <div className="side-body">
        <div className="empty">
          <Icon name="search" size={28} />
          <h3>Nothing inspected yet</h3>
          <p>Use Inspect frame on a finding, or inspect the frame the preview shows.</p>
          <button className="btn" onClick={() => void inspectFrame(frame)} data-testid="inspect-current">
            Inspect frame {frame}
          </button>
        </div>
      </div>
    );
  }
  const visible = inspect.result?.frame?.visible ?? [];
  const focus = inspect.finding?.element;
  return (
    <div className="side-body" data-testid="inspect-pane" data-frame={inspect.frameIndex}>
      <div className="inspect-title">
        <span className="pane-title">Frame {inspect.frameIndex}</span>
        {inspect.result?.frame && <span className="muted">{inspect.result.frame.seconds.toFixed(2)} s</span>}
        <button
          className="btn small ghost push"
          onClick={() => void inspectFrame(frame)}
          disabled={inspect.running}
        >
          Inspect frame {frame}
        </button>
      </div>
      {inspect.finding && (
        <div className={`notice ${inspect.finding.severity === 'error' ? 'err' : 'warn'}`}>
          <div>
            <strong>{inspect.finding.code}</strong> {inspect.finding.message}
          </div>
        </div>
      )}
      {inspect.running && (
        <div className="empty">
          <span className="spinner" /> Capturing frame {inspect.frameIndex}…
        </div>
      )}
      {inspect.error && <div className="notice err">{inspect.error}</div>}
      {inspect.imageUrl && (
        <div className="inspect-image" style={{ aspectRatio: `${width} / ${height}` }}>
          <img
            src={inspect.imageUrl}
            alt={`Frame ${inspect.frameIndex} as rendered`}
            data-testid="inspect-image"
          />
          <Boxes elements={visible} width={width} height={height} focus={focus} hovered={hovered} />
        </div>
      )}
      {inspect.result && (
        <div className="element-list" data-testid="inspect-elements">
          <div className="group-title">
            <span className="label">Drawn elements</span>
            <span className="count">{visible.length}</span>
          </div>
          {visible.length === 0 && <p className="muted">Nothing is drawn on this frame.</p>}
          {visible.map((element) => (
            <div
              key={element.key}
              className={`element-row${element.key === focus ? ' focus' : ''}`}
              onMouseEnter={() => setHovered(element.key)}
              onMouseLeave={() => setHovered(undefined)}
              data-testid="inspect-element"
            >
              <span className="badge muted">{element.type}</span>
              <span className="element-label" title={element.label}>
                {element.label ?? element.id ?? element.key}
              </span>
              <span className="mono muted">
                {Math.round(element.box.x)},{Math.round(element.box.y)} {Math.round(element.box.width)}×
                {Math.round(element.box.height)}
              </span>
              <span className="mono muted">{Math.round(element.alpha * 100)}%</span>
            </div>
          ))}
          {(inspect.result.warnings ?? []).map((warning, index) => (
            <div key={index} className="notice warn">
              {warning}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
