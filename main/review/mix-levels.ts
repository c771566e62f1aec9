// The soundtrack's peak level in short windows, measured by ffmpeg on the very filter graph the
// encoder mixes with (audio-mix.ts), minus its final limiter (see `withoutLimiter`).
import type { AudioMixPlan } from '../encoder/audio-mix.ts';
import { MIX_SAMPLE_RATE, audioMixGraph } from '../encoder/audio-mix.ts';
import { ffmpegPath } from '../ffmpeg/binaries.ts';
import { runTool } from '../ffmpeg/run.ts';

export interface LevelWindow {
  startSeconds: number;
  /** Highest sample of either channel, in dBFS; FLOOR_DBFS for digital silence. */
  peakDbfs: number;
}

export interface MixLevels {
  /** Seconds of audio the mix produced. */
  durationSeconds: number;
  windowSeconds: number;
  windows: LevelWindow[];
}

/** Reported for digital silence (ffmpeg says -inf, which JSON cannot carry). */
export const FLOOR_DBFS = -150;

const PEAK_KEY = 'lavfi.astats.Overall.Peak_level';

// The encoder's mix ends in a limiter at about -0.4 dBFS, so what is encoded never reaches full
// scale; what reaches it is the sum before the limiter: sources mastered to 0 dBFS (often already
// clipped), volumes above 1, tracks adding up. That is the level the author controls and the one
// audio_peak is about, so the mix is measured without the limiter. Everything after it (padding,
// trimming to the video's length) is kept, so windows line up with the output.

function parseLevel(text: string): number {
  const value = text.trim() === '-inf' ? -Infinity : Number(text);
  return Number.isFinite(value) ? Math.max(FLOOR_DBFS, value) : FLOOR_DBFS;
}

/**
 * ametadata's print lines: "frame:N pts:P pts_time:T" then "key=value" for each window. Windows are
 * whole and start at 0, so window N starts at N windows: exact, unlike the rounded pts_time.
 */
function parseWindows(stdout: string, windowSeconds: number): LevelWindow[] {
  const windows: LevelWindow[] = [];
  let index: number | undefined;
  for (const line of stdout.split('\n')) {
    const frame = /^frame:(\d+)/.exec(line);
    if (frame) index = Number(frame[1]);
    else if (line.startsWith(`${PEAK_KEY}=`) && index !== undefined) {
      windows.push({
        startSeconds: index * windowSeconds,
        peakDbfs: parseLevel(line.slice(PEAK_KEY.length + 1)),
      });
      index = undefined;
    }
  }
  return windows;
}

/**
 * Peak levels of the mixed soundtrack in windows of one video frame (rounded to whole samples), or
 * undefined when no track sounds inside the video. The plan must be complete (completeAudioMixPlan).
 */
export async function measureMixLevels(
  plan: AudioMixPlan,
  fps: number,
  signal?: AbortSignal,
): Promise<MixLevels | undefined> {
  const mix = audioMixGraph(plan, 0, { limiter: false });
  if (!mix) return undefined;
  const graph = mix.filterGraph;
  const windowSamples = Math.max(1, Math.round(MIX_SAMPLE_RATE / fps));
  const measure =
    `[${mix.outputLabel}]asetnsamples=n=${windowSamples}:p=0,astats=metadata=1:reset=1,` +
    `ametadata=mode=print:key=${PEAK_KEY}:file=-[measured]`;
  const { stdout } = await runTool(
    ffmpegPath(),
    [
      '-hide_banner',
      '-nostdin',
      '-nostats',
      '-v',
      'error',
      ...mix.inputArgs,
      '-filter_complex',
      `${graph};${measure}`,
      '-map',
      '[measured]',
      '-f',
      'null',
      '-',
    ],
    { captureStdout: true, signal },
  );
  const windowSeconds = windowSamples / MIX_SAMPLE_RATE;
  const windows = parseWindows(stdout, windowSeconds);
  const last = windows.at(-1);
  return {
    durationSeconds: last ? Math.min(plan.durationSeconds, last.startSeconds + windowSeconds) : 0,
    windowSeconds,
    windows,
  };
}
