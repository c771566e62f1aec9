// Where a sound plays inside the video and how loud, as one answer both mixes read: the export's
// ffmpeg graph (main/encoder/audio-mix.ts) and the preview's Web Audio graph (renderer/player), so
// the two cannot disagree on when a track starts, where in its source, for how long, or its fades.

/** The timing and level of one sound, as resolved (ResolvedAudio) or as a track of the mix. */
export interface AudioTiming {
  /** Seconds from the video start (negative: it started before the video). */
  startSeconds: number;
  /** Where playback starts in the source. */
  sourceStartSeconds: number;
  /** How long it plays, in output seconds; undefined: to the source end (or the video end when looping). */
  durationSeconds?: number | undefined;
  /** Repeats the source from its start point to the source's end. */
  loop: boolean;
  volume: number;
  fadeInSeconds: number;
  fadeOutSeconds: number;
  /** Playback rate. */
  rate: number;
  /** Length of the source file, when known. */
  sourceDurationSeconds?: number | undefined;
}

export interface AudioPlacement {
  /** Output seconds from the video start where it begins sounding (never negative). */
  start: number;
  /** Source seconds where playback starts (also where a loop restarts). */
  sourceStart: number;
  /** Output seconds it plays, or undefined when only the source's end knows. */
  played: number | undefined;
  /** The fade-in, in seconds from `start`: the gain rises linearly from 0 over [0, fadeIn]. */
  fadeIn: number;
  /** The fade-out, in seconds from `start`: the gain falls linearly to 0 over [from, to]; none when length 0. */
  fadeOut: { from: number; to: number } | undefined;
}

/**
 * Where and for how long a sound plays inside a video of `videoSeconds`, or undefined when it never
 * does. A sound without a known length is assumed to sound until the video ends, for its fade-out.
 */
export function placeAudio(timing: AudioTiming, videoSeconds: number): AudioPlacement | undefined {
  const lead = Math.max(0, -timing.startSeconds);
  const start = Math.max(0, timing.startSeconds);
  const sourceStart = timing.sourceStartSeconds + lead * timing.rate;
  const remaining = videoSeconds - start;
  if (remaining <= 0 || timing.volume <= 0) return undefined;
  let natural: number | undefined =
    timing.durationSeconds === undefined ? undefined : timing.durationSeconds - lead;
  if (natural === undefined) {
    if (timing.loop) natural = Infinity;
    else if (timing.sourceDurationSeconds !== undefined)
      natural = (timing.sourceDurationSeconds - sourceStart) / timing.rate;
  }
  if (natural !== undefined && natural <= 0) return undefined;
  const played = natural === undefined ? undefined : Math.min(natural, remaining);
  let fadeOut: AudioPlacement['fadeOut'];
  if (timing.fadeOutSeconds > 0) {
    const end = played ?? remaining;
    fadeOut = { from: end - Math.min(timing.fadeOutSeconds, end), to: end };
  }
  return { start, sourceStart, played, fadeIn: Math.max(0, timing.fadeInSeconds), fadeOut };
}

/** The fades' gain (0–1, before the volume) `local` seconds after the placement's start. */
export function fadeGainAt(placement: AudioPlacement, local: number): number {
  let gain = 1;
  if (placement.fadeIn > 0) gain *= Math.min(1, Math.max(0, local / placement.fadeIn));
  const out = placement.fadeOut;
  if (out && local > out.from) {
    const length = out.to - out.from;
    gain *= length > 0 ? Math.max(0, (out.to - local) / length) : 0;
  }
  return gain;
}
