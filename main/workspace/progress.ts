// Progress reports thinned out before they cross IPC and HTTP: a UI needs a few a second, not one
// per frame. A new stage always passes at once, and the last report held back in the stage before
// it goes first, so a stage's final count (every frame rendered) is never lost.
import type { OperationProgress } from '../../shared/protocol/workspace.ts';

export const PROGRESS_INTERVAL_MS = 200;

export function throttleProgress(
  send: (progress: OperationProgress) => void,
  intervalMs = PROGRESS_INTERVAL_MS,
): (progress: OperationProgress) => void {
  let stage: OperationProgress['stage'] | undefined;
  let sentAt = -Infinity;
  let held: OperationProgress | undefined;
  return (progress) => {
    const now = performance.now();
    if (progress.stage !== stage) {
      if (held) send(held);
      stage = progress.stage;
    } else if (now - sentAt < intervalMs) {
      held = progress;
      return;
    }
    held = undefined;
    sentAt = now;
    send(progress);
  };
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

/** A progress report with its rates rounded, as it goes on the wire. */
export function progressReport(progress: {
  stage: OperationProgress['stage'];
  framesDone: number;
  framesTotal: number;
  fps: number;
  etaSeconds: number | null | undefined;
}): OperationProgress {
  return {
    stage: progress.stage,
    framesDone: progress.framesDone,
    framesTotal: progress.framesTotal,
    fps: Number.isFinite(progress.fps) ? round(progress.fps, 2) : 0,
    etaSeconds:
      progress.etaSeconds === undefined ||
      progress.etaSeconds === null ||
      !Number.isFinite(progress.etaSeconds)
        ? null
        : round(progress.etaSeconds, 1),
  };
}
