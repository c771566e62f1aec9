// The preview pane: live playback on a canvas at the composition's fps, transport controls, an
// aspect switcher, and Capture frame (the authoritative Skia render, added to the frames strip).
import { useEffect, useRef } from 'react';
import type { ReactElement } from 'react';
import { ASPECT_NAMES } from '../../../shared/spec/sizes.ts';
import type { AspectName } from '../../../shared/spec/sizes.ts';
import { CompileProblems } from '../editor/SourcePane.tsx';
import { SpecIssues } from '../editor/SpecIssues.tsx';
import { FramesStrip } from '../frames/FramesStrip.tsx';
import { useFrames } from '../frames/frames-store.ts';
import { isSpecSource, useSession } from '../session/session-store.ts';
import { Icon } from '../ui/icons.tsx';
import { PreviewPlayer } from '../../player/preview-player.ts';
import { Timeline } from '../timeline/Timeline.tsx';
import { valuesOf } from '../variables/variable-form.ts';
import { useVariables } from '../variables/variables-store.ts';
import { formatTimecode, usePreview } from './preview-store.ts';
import { RuntimeErrorPanel } from './RuntimeErrorPanel.tsx';
import { useSourceBlock } from './source-health.ts';
import { useSound } from './sound-store.ts';

const ASPECT_LABELS: Record<AspectName, string> = {
  reels: 'Reels 9:16',
  square: 'Square 1:1',
  landscape: 'Landscape 16:9',
  portrait45: 'Portrait 4:5',
};

/** A moment after the last keystroke in the variables form, the preview draws the new values. */
const VARIABLES_SETTLE_MS = 120;

/** The form's values, as the player takes them. */
function formValues(): Record<string, unknown> {
  return valuesOf(usePreview.getState().declared, useVariables.getState().entries);
}

/** Sends the variables form's values to the player after a pause in typing (it keeps them for new builds). */
function useVariablesToPlayer(): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const push = () => usePreview.getState().player?.setVariables(formValues());
    const stopEntries = useVariables.subscribe((state, previous) => {
      if (state.entries === previous.entries) return;
      clearTimeout(timer);
      timer = setTimeout(push, VARIABLES_SETTLE_MS);
    });
    return () => {
      clearTimeout(timer);
      stopEntries();
    };
  }, []);
}

function usePlayer(canvas: React.RefObject<HTMLCanvasElement | null>): void {
  const previewKey = useSession((s) => s.info?.previewKey);
  const projectFonts = useSession((s) => s.info?.projectFonts);
  const isSpec = useSession((s) => isSpecSource(s.info?.source));
  useVariablesToPlayer();
  useEffect(() => {
    if (!canvas.current || !previewKey) return;
    const player = new PreviewPlayer({
      canvas: canvas.current,
      routeBase: `/studio/preview/${previewKey}`,
      projectFonts: projectFonts ?? [],
      // Read once: toggling reaches the running player through the sound store, not a new player.
      muted: useSound.getState().muted,
      spec: isSpec,
      variables: formValues(),
      onState: (state) => usePreview.getState().update(state),
    });
    usePreview.getState().attach(player);
    player.start();
    return () => {
      player.dispose();
      usePreview.getState().attach(undefined);
    };
  }, [canvas, previewKey, projectFonts, isSpec]);
}

/** Mute/Unmute: named for what a click does; aria-pressed says whether the sound is muted now. */
function MuteButton(): ReactElement {
  const muted = useSound((s) => s.muted);
  const toggleMute = useSound((s) => s.toggleMute);
  const sound = usePreview((s) => s.sound);
  const waiting = sound.status === 'suspended';
  return (
    <button
      className="btn ghost icon"
      onClick={toggleMute}
      title={
        waiting
          ? 'Sound starts at your first click or key (the browser waits for one)'
          : `${muted ? 'Unmute' : 'Mute'} the preview`
      }
      aria-label={muted ? 'Unmute' : 'Mute'}
      aria-pressed={muted}
      data-testid="mute"
      data-sound={sound.status}
      data-voices={sound.voices}
      data-starts={sound.starts}
      data-from={sound.from.toFixed(3)}
    >
      <Icon name={muted ? 'muted' : 'sound'} />
    </button>
  );
}

function Transport(): ReactElement {
  const frame = usePreview((s) => s.frame);
  const total = usePreview((s) => s.total);
  const fps = usePreview((s) => s.fps);
  const playing = usePreview((s) => s.playing);
  const togglePlay = usePreview((s) => s.togglePlay);
  const seek = usePreview((s) => s.seek);
  const step = usePreview((s) => s.step);
  const capturing = useFrames((s) => s.capturing);
  const capture = useFrames((s) => s.capture);
  const blocked = useSourceBlock();
  return (
    <div className="transport">
      <button
        className="btn ghost icon"
        onClick={() => step(-1)}
        title="Previous frame (←)"
        aria-label="Previous frame"
      >
        <Icon name="stepBack" />
      </button>
      <button
        className="btn icon play"
        onClick={togglePlay}
        title="Play/pause (Space)"
        aria-label={playing ? 'Pause' : 'Play'}
        data-testid="play-pause"
      >
        <Icon name={playing ? 'pause' : 'play'} />
      </button>
      <button
        className="btn ghost icon"
        onClick={() => step(1)}
        title="Next frame (→)"
        aria-label="Next frame"
      >
        <Icon name="stepForward" />
      </button>
      <input
        className="scrubber"
        type="range"
        min={0}
        max={Math.max(0, total - 1)}
        step={1}
        value={frame}
        onChange={(event) => seek(Number(event.target.value))}
        aria-label="Scrub"
        data-testid="scrubber"
        style={{ ['--progress' as string]: `${(frame / Math.max(1, total - 1)) * 100}%` }}
      />
      <span className="counter mono" data-testid="frame-counter">
        {frame} <span className="muted">/ {total}</span>
      </span>
      <span className="timecode mono muted">{formatTimecode(frame, fps)}</span>
      <MuteButton />
      <button
        className="btn"
        onClick={() => void capture()}
        disabled={capturing || blocked !== undefined}
        title={blocked ?? 'Capture this frame with the renderer (Skia)'}
        data-testid="capture-frame"
      >
        {capturing ? <span className="spinner" /> : <Icon name="camera" />} Capture frame
      </button>
    </div>
  );
}

/** The selected element's box (a Timeline row), drawn over the canvas in the canvas's own pixels. */
function SelectionOverlay(): ReactElement | null {
  const box = usePreview((s) => s.selectionBox);
  const width = usePreview((s) => s.width);
  const height = usePreview((s) => s.height);
  if (!box) return null;
  return (
    <svg
      className="selection-overlay"
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="xMidYMid meet"
      data-testid="selection-box"
      aria-hidden="true"
    >
      <rect
        x={box.x}
        y={box.y}
        width={box.width}
        height={box.height}
        strokeWidth={2}
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
}

function StageOverlay(): ReactElement | null {
  const status = usePreview((s) => s.status);
  const problems = usePreview((s) => s.problems);
  const runtimeError = usePreview((s) => s.runtimeError);
  const buildId = usePreview((s) => s.buildId);
  const specIssues = usePreview((s) => s.specIssues);
  if (status === 'connecting' || (status === 'loading' && !buildId)) {
    return (
      <div className="stage-overlay soft">
        <span className="spinner" /> Building the preview…
      </div>
    );
  }
  if (problems.length > 0) {
    return (
      <div className="stage-overlay">
        <CompileProblems problems={problems} />
      </div>
    );
  }
  if (specIssues.length > 0) {
    return (
      <div className="stage-overlay">
        <SpecIssues issues={specIssues} />
      </div>
    );
  }
  if (runtimeError) {
    return (
      <div className="stage-overlay">
        <RuntimeErrorPanel error={runtimeError} />
      </div>
    );
  }
  return null;
}

export function PreviewPane(): ReactElement {
  const canvas = useRef<HTMLCanvasElement>(null);
  usePlayer(canvas);
  const aspect = usePreview((s) => s.aspect);
  const modelAspect = usePreview((s) => s.modelAspect);
  const setAspect = usePreview((s) => s.setAspect);
  const width = usePreview((s) => s.width);
  const height = usePreview((s) => s.height);
  const fps = usePreview((s) => s.fps);
  const frame = usePreview((s) => s.frame);
  const status = usePreview((s) => s.status);
  const buildId = usePreview((s) => s.buildId);
  const missing = usePreview((s) => s.missing);
  const captureError = useFrames((s) => s.error);
  return (
    <section className="pane preview-pane" aria-label="Preview">
      <div className="pane-header">
        <span className="pane-title">Preview</span>
        <span className="pane-meta mono">
          {width}×{height} · {fps} fps
        </span>
        <select
          className="select compact"
          value={aspect ?? ''}
          onChange={(event) => setAspect((event.target.value || undefined) as AspectName | undefined)}
          aria-label="Aspect"
          data-testid="aspect"
        >
          <option value="">
            {modelAspect
              ? `Composition (${ASPECT_LABELS[modelAspect as AspectName] ?? modelAspect})`
              : 'Composition size'}
          </option>
          {ASPECT_NAMES.map((name) => (
            <option key={name} value={name}>
              {ASPECT_LABELS[name]}
            </option>
          ))}
        </select>
      </div>
      <div
        className="stage"
        data-testid="stage"
        data-frame={frame}
        data-status={status}
        data-build={buildId ?? ''}
      >
        <canvas ref={canvas} className="stage-canvas" data-testid="preview-canvas" />
        <SelectionOverlay />
        <StageOverlay />
      </div>
      {missing.length > 0 && (
        <div className="notice warn inset" title={missing.map((m) => `${m.src}: ${m.message}`).join('\n')}>
          {missing.length} source{missing.length === 1 ? '' : 's'} missing in the preview:{' '}
          {missing.map((m) => m.src).join(', ')}
        </div>
      )}
      {captureError && <div className="notice err inset">{captureError}</div>}
      <Transport />
      <Timeline />
      <FramesStrip />
    </section>
  );
}
