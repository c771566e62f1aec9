// The Timeline under the preview: a ruler (click or drag to seek), one row per scene, scene element
// and overlay with a bar over its frames, in/out points, the playhead, and review findings as markers.
// Clicking a bar selects its element: its box on the preview, its place in the editor.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { PointerEvent as ReactPointerEvent, ReactElement } from 'react';
import type { ReviewFinding } from '../../../shared/protocol/finding.ts';
import { usePreview } from '../preview/preview-store.ts';
import { useReview } from '../review/review-store.ts';
import { clampZoom, frameAtX, maxZoom, pixelsPerFrame, scrollKeeping, ZOOM_STEP } from './timeline-math.ts';
import { useTimeline } from './timeline-store.ts';
import { sceneKeyAt, trackKeyOf, tracksOf } from './timeline-tracks.ts';
import type { Track } from './timeline-tracks.ts';
import { TimelineToolbar } from './TimelineToolbar.tsx';

const LABEL_WIDTH = 132;
const NO_FINDINGS: ReviewFinding[] = [];

/** A tick every so many frames that ticks stay at least 56 px apart. */
function tickFrames(perFrame: number, fps: number): number {
  const steps = [1, 2, 5, 10, fps / 2, fps, 2 * fps, 5 * fps, 10 * fps, 30 * fps, 60 * fps];
  return Math.round(steps.find((step) => step * perFrame >= 56) ?? 300 * fps);
}

function tickLabel(frame: number, fps: number, step: number): string {
  return step % fps === 0 ? `${frame / fps}s` : `${frame}`;
}

/** The view's width for the bars (the row labels take the rest), followed as the pane resizes. */
function useLaneWidth(body: React.RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(400);
  useEffect(() => {
    const element = body.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(Math.max(80, element.clientWidth - LABEL_WIDTH)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [body]);
  return width;
}

function Ruler({ perFrame, total, fps }: { perFrame: number; total: number; fps: number }): ReactElement {
  const seek = usePreview((s) => s.seek);
  const frame = usePreview((s) => s.frame);
  const inPoint = useTimeline((s) => s.inPoint);
  const outPoint = useTimeline((s) => s.outPoint);
  const step = tickFrames(perFrame, fps);
  const ticks: number[] = [];
  for (let frame = 0; frame < total; frame += step) ticks.push(frame);
  const seekAt = (event: ReactPointerEvent<HTMLDivElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    seek(frameAtX(event.clientX - rect.left, perFrame, total));
  };
  return (
    <div
      className="timeline-ruler"
      data-testid="timeline-ruler"
      role="columnheader"
      aria-label="Ruler: click or drag to move the playhead"
      onPointerDown={(event) => {
        event.currentTarget.setPointerCapture(event.pointerId);
        seekAt(event);
      }}
      onPointerMove={(event) => {
        if (event.currentTarget.hasPointerCapture(event.pointerId)) seekAt(event);
      }}
    >
      {ticks.map((tick) => (
        <span key={tick} className="timeline-tick" style={{ left: tick * perFrame }}>
          {tickLabel(tick, fps, step)}
        </span>
      ))}
      {inPoint !== undefined && (
        <span
          className="timeline-ruler-mark in"
          style={{ left: inPoint * perFrame }}
          title={`In: ${inPoint}`}
        />
      )}
      {outPoint !== undefined && (
        <span
          className="timeline-ruler-mark out"
          style={{ left: (outPoint + 1) * perFrame }}
          title={`Out: ${outPoint}`}
        />
      )}
      <span className="timeline-ruler-head" style={{ left: frame * perFrame }} />
    </div>
  );
}

function FindingMarker({ finding, perFrame }: { finding: ReviewFinding; perFrame: number }): ReactElement {
  const seek = usePreview((s) => s.seek);
  const { startFrame, endFrame } = finding.interval;
  return (
    <button
      className={`timeline-finding ${finding.allowed ? 'allowed' : finding.severity}`}
      style={{ left: startFrame * perFrame, width: Math.max(8, (endFrame - startFrame) * perFrame) }}
      onClick={(event) => {
        event.stopPropagation();
        seek(finding.inspect.frameIndex);
      }}
      title={`${finding.code}: ${finding.message}`}
      aria-label={`Finding ${finding.code} at frame ${finding.inspect.frameIndex}`}
      data-testid="finding-marker"
      data-code={finding.code}
    />
  );
}

function TrackRow(props: {
  track: Track;
  perFrame: number;
  selected: boolean;
  findings: ReviewFinding[];
}): ReactElement {
  const { track, perFrame, selected, findings } = props;
  const select = useTimeline((s) => s.select);
  return (
    <div
      role="row"
      className={`timeline-row track-${track.kind}${selected ? ' selected' : ''}`}
      aria-selected={selected}
      data-testid="timeline-row"
      data-key={track.key}
    >
      <div role="rowheader" className="timeline-label" title={`${track.type}: ${track.label}`}>
        {track.kind === 'overlay' && <span className="timeline-kind">overlay</span>}
        {track.label}
      </div>
      <div role="gridcell" className="timeline-lane">
        <button
          className="timeline-bar"
          style={{
            left: track.startFrame * perFrame,
            width: Math.max(2, (track.endFrame - track.startFrame) * perFrame),
          }}
          onClick={() => select(selected ? undefined : track)}
          aria-label={`${track.type} ${track.label}, frames ${track.startFrame}–${track.endFrame}`}
          aria-pressed={selected}
          data-testid="timeline-bar"
        >
          <span className="timeline-bar-text">{track.type === 'scene' ? '' : track.type}</span>
        </button>
        {findings.map((finding, index) => (
          <FindingMarker key={index} finding={finding} perFrame={perFrame} />
        ))}
      </div>
    </div>
  );
}

/** Findings by the row they sit on: their element's, else the scene at their start. */
function useFindingsByTrack(tracks: Track[]): Map<string, ReviewFinding[]> {
  const findings = useReview((s) => s.result?.findings ?? NO_FINDINGS);
  return useMemo(() => {
    const byTrack = new Map<string, ReviewFinding[]>();
    for (const finding of findings) {
      const key =
        (finding.element && trackKeyOf(finding.element, tracks)) ??
        sceneKeyAt(finding.interval.startFrame, tracks);
      if (key) byTrack.set(key, [...(byTrack.get(key) ?? []), finding]);
    }
    return byTrack;
  }, [findings, tracks]);
}

interface ZoomView {
  perFrame: number;
  width: number;
  total: number;
  frame: number;
}

/**
 * Zooming keeps a frame where it is on screen: the one under the pointer for Ctrl/Cmd+wheel (a native
 * listener: React's wheel events are passive), the playhead for the buttons. Returns the buttons' zoom.
 */
function useZoom(body: React.RefObject<HTMLDivElement | null>, view: ZoomView): (factor: number) => void {
  const latest = useRef(view);
  latest.current = view;
  const pendingScroll = useRef<number | undefined>(undefined);
  const [zoomBy] = useState(() => (factor: number, pointerX?: number) => {
    const element = body.current;
    if (!element) return;
    const { perFrame, width, total, frame } = latest.current;
    const { zoom, setZoom } = useTimeline.getState();
    const next = factor === 0 ? 1 : clampZoom(zoom * factor, width, total);
    const playheadX = frame * perFrame - element.scrollLeft;
    const x = pointerX ?? (playheadX >= 0 && playheadX <= width ? playheadX : width / 2);
    const anchor = (element.scrollLeft + x) / perFrame;
    pendingScroll.current = scrollKeeping(anchor, x, pixelsPerFrame(width, total, next));
    setZoom(next);
  });
  useEffect(() => {
    const element = body.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      if (!(event.ctrlKey || event.metaKey)) return;
      event.preventDefault();
      const pointerX = event.clientX - element.getBoundingClientRect().left - LABEL_WIDTH;
      zoomBy(event.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP, pointerX);
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [body, zoomBy]);
  useLayoutEffect(() => {
    if (pendingScroll.current !== undefined && body.current) body.current.scrollLeft = pendingScroll.current;
    pendingScroll.current = undefined;
  }, [body, view.perFrame]);
  return zoomBy;
}

/** While playing, zoomed in, the view pages along so the playhead stays in sight. */
function useFollowPlayhead(body: React.RefObject<HTMLDivElement | null>, view: ZoomView): void {
  const playing = usePreview((s) => s.playing);
  const { frame, perFrame, width } = view;
  useEffect(() => {
    const element = body.current;
    if (!playing || !element) return;
    const x = frame * perFrame;
    if (x < element.scrollLeft || x > element.scrollLeft + width) element.scrollLeft = Math.max(0, x - 24);
  }, [body, playing, frame, perFrame, width]);
}

export function Timeline(): ReactElement {
  const video = usePreview((s) => s.video);
  const total = usePreview((s) => s.total);
  const fps = usePreview((s) => s.fps);
  const frame = usePreview((s) => s.frame);
  const player = usePreview((s) => s.player);
  const zoomAsked = useTimeline((s) => s.zoom);
  const selected = useTimeline((s) => s.selected);
  const inPoint = useTimeline((s) => s.inPoint);
  const outPoint = useTimeline((s) => s.outPoint);
  const notice = useTimeline((s) => s.notice);
  const body = useRef<HTMLDivElement>(null);
  const width = useLaneWidth(body);
  const zoom = clampZoom(zoomAsked, width, total);
  const perFrame = pixelsPerFrame(width, total, zoom);
  const tracks = useMemo(() => (video ? tracksOf(video) : []), [video]);
  const findings = useFindingsByTrack(tracks);
  const view = { perFrame, width, total, frame };
  const zoomBy = useZoom(body, view);
  useFollowPlayhead(body, view);

  // A new player (another aspect, a reload) or a new length: tell it again what to play and show.
  useEffect(() => {
    useTimeline.getState().applyPlayback();
    player?.select(useTimeline.getState().selected);
  }, [player, total]);

  const laneWidth = total * perFrame;
  const hasMarks = inPoint !== undefined || outPoint !== undefined;
  const markStart = inPoint ?? 0;
  const markEnd = (outPoint ?? total - 1) + 1;
  return (
    <section className="timeline" role="region" aria-label="Timeline" data-testid="timeline">
      <TimelineToolbar canZoomIn={zoom < maxZoom(width, total)} onZoom={zoomBy} />
      {notice && <div className="timeline-notice muted">{notice}</div>}
      <div className="timeline-body" ref={body} data-testid="timeline-body">
        <div
          className="timeline-content"
          role="grid"
          aria-label="Tracks"
          aria-rowcount={tracks.length + 1}
          style={{ width: LABEL_WIDTH + laneWidth, ['--label-width' as string]: `${LABEL_WIDTH}px` }}
        >
          <div role="row" className="timeline-row ruler-row">
            <div role="columnheader" className="timeline-label muted mono">
              {frame} / {total}
            </div>
            <Ruler perFrame={perFrame} total={total} fps={fps} />
          </div>
          {tracks.map((track) => (
            <TrackRow
              key={track.key}
              track={track}
              perFrame={perFrame}
              selected={track.key === selected}
              findings={findings.get(track.key) ?? NO_FINDINGS}
            />
          ))}
          {hasMarks && (
            <div
              className="timeline-range"
              data-testid="timeline-range"
              style={{ left: LABEL_WIDTH + markStart * perFrame, width: (markEnd - markStart) * perFrame }}
            />
          )}
          <div
            className="timeline-playhead"
            data-testid="timeline-playhead"
            style={{ left: LABEL_WIDTH + frame * perFrame }}
          />
        </div>
        {tracks.length === 0 && <div className="empty">The timeline appears with the first build.</div>}
      </div>
    </section>
  );
}
