// The Timeline's controls: in/out points, loop, speed, zoom. Each has its shortcut in its title.
import type { ReactElement } from 'react';
import { formatRate, SPEEDS, ZOOM_STEP } from './timeline-math.ts';
import { useTimeline } from './timeline-store.ts';

/** `onZoom(factor)` zooms by a factor; 0 fits the whole video again. */
export function TimelineToolbar(props: {
  canZoomIn: boolean;
  onZoom: (factor: number) => void;
}): ReactElement {
  const { canZoomIn, onZoom } = props;
  const inPoint = useTimeline((s) => s.inPoint);
  const outPoint = useTimeline((s) => s.outPoint);
  const loop = useTimeline((s) => s.loop);
  const speed = useTimeline((s) => s.speed);
  const rate = useTimeline((s) => s.rate);
  const zoom = useTimeline((s) => s.zoom);
  const { markIn, markOut, clearMarks, toggleLoop, setSpeed } = useTimeline.getState();
  const hasMarks = inPoint !== undefined || outPoint !== undefined;
  return (
    <div className="timeline-toolbar" role="toolbar" aria-label="Timeline controls">
      <span className="pane-title">Timeline</span>
      <button className="btn small" onClick={() => markIn()} title="Mark in at the playhead (I)">
        In
      </button>
      <button className="btn small" onClick={() => markOut()} title="Mark out at the playhead (O)">
        Out
      </button>
      <button
        className="btn small ghost"
        onClick={clearMarks}
        disabled={!hasMarks}
        title="Clear in and out (Alt+X)"
        aria-label="Clear in and out"
      >
        ✕
      </button>
      <span className="mono muted timeline-marks" data-testid="timeline-marks">
        {hasMarks ? `${inPoint ?? 0}–${outPoint ?? 'end'}` : ''}
      </span>
      <button
        className={`btn small${loop ? ' on' : ' ghost'}`}
        aria-pressed={loop}
        onClick={toggleLoop}
        title={hasMarks ? 'Loop between in and out' : 'Loop the whole video'}
      >
        Loop
      </button>
      <span className="timeline-spacer" />
      <div className="segmented" role="group" aria-label="Speed">
        {SPEEDS.map((value) => (
          <button
            key={value}
            className={`btn small${speed === value && rate === value ? ' on' : ' ghost'}`}
            aria-pressed={speed === value && rate === value}
            onClick={() => setSpeed(value)}
            title={`Play at ${value}×`}
          >
            {value}×
          </button>
        ))}
      </div>
      <span
        className={`mono timeline-rate${rate !== speed ? ' shuttle' : ''}`}
        data-testid="playback-rate"
        data-rate={rate}
        title="Rate playing (J slower/back, K pause, L faster)"
      >
        {rate !== speed ? formatRate(rate) : ''}
      </span>
      <button
        className="btn small ghost"
        onClick={() => onZoom(1 / ZOOM_STEP)}
        disabled={zoom <= 1}
        aria-label="Zoom out"
        title="Zoom out (Ctrl+wheel)"
      >
        −
      </button>
      <button
        className="btn small ghost"
        onClick={() => onZoom(ZOOM_STEP)}
        disabled={!canZoomIn}
        aria-label="Zoom in"
        title="Zoom in (Ctrl+wheel)"
      >
        +
      </button>
      <button
        className="btn small ghost"
        onClick={() => onZoom(0)}
        disabled={zoom <= 1}
        aria-label="Fit the video"
        title="Fit the whole video"
      >
        ⤢
      </button>
    </div>
  );
}
