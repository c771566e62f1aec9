// Render progress on the terminal: a live bar on a TTY, plain lines otherwise (logs, CI, pipes).
import cliProgress from 'cli-progress';
import type { RenderProgress } from '../engine/render-video.ts';

export interface ProgressReporter {
  update(progress: RenderProgress): void;
  stop(): void;
}

function formatEta(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return '--';
  const s = Math.max(0, Math.round(seconds));
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

export function createProgressReporter(stream: NodeJS.WriteStream = process.stderr): ProgressReporter {
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format: '{stage} |{bar}| {value}/{total} frames · {fps} fps · ETA {eta_text}',
        barCompleteChar: '█',
        barIncompleteChar: '░',
        hideCursor: true,
        clearOnComplete: true,
        stream,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update(progress) {
        const payload = {
          stage: progress.stage.padEnd(9),
          fps: progress.fps.toFixed(1),
          eta_text: formatEta(progress.etaSeconds),
        };
        if (!started) {
          bar.start(progress.framesTotal, progress.framesDone, payload);
          started = true;
        } else bar.update(progress.framesDone, payload);
      },
      stop() {
        if (started) bar.stop();
      },
    };
  }
  let lastDecile = -1;
  let lastStage = '';
  return {
    update(progress) {
      const decile = Math.floor((progress.framesDone / Math.max(1, progress.framesTotal)) * 10);
      if (progress.stage === lastStage && (progress.stage !== 'rendering' || decile === lastDecile)) return;
      lastStage = progress.stage;
      lastDecile = decile;
      const detail =
        progress.stage === 'rendering'
          ? ` ${progress.framesDone}/${progress.framesTotal} frames, ${progress.fps.toFixed(1)} fps, ETA ${formatEta(progress.etaSeconds)}`
          : '';
      stream.write(`kino: ${progress.stage}${detail}\n`);
    },
    stop() {},
  };
}
