// What the preview plays from a moment of the video: for each sound (music, sfx, a clip's own
// sound), when it starts, where in its source, for how long, and its fade ramps. Pure arithmetic in
// output seconds over the export's placement (shared/timeline/audio-placement.ts); audio-graph.ts
// turns it into Web Audio nodes.
import { fadeGainAt, placeAudio } from '../../shared/timeline/audio-placement.ts';
import type { AudioPlacement } from '../../shared/timeline/audio-placement.ts';
import type { ResolvedAudio } from '../../shared/timeline/types.ts';

/** One sound of the video, placed, with its source's decoded length. */
export interface SoundSource {
  src: string;
  placement: AudioPlacement;
  volume: number;
  rate: number;
  loop: boolean;
  /** Seconds of the decoded source. */
  sourceSeconds: number;
  /** Output seconds it sounds for, from placement.start. */
  length: number;
}

/** A gain held at `gain` at `at`, then ramped linearly to the next point's gain. */
export interface GainPoint {
  /** Output seconds after the voice starts. */
  at: number;
  gain: number;
}

/** One sound as played from a moment of the video. */
export interface Voice {
  src: string;
  /** Output seconds from that moment until it starts (0: it is already sounding). */
  delay: number;
  /** Source seconds where it starts. */
  offset: number;
  /** Output seconds it sounds for, from its start. */
  length: number;
  rate: number;
  volume: number;
  /** The source part that repeats, in source seconds. */
  loop: { start: number; end: number } | undefined;
  /** Fade-in then fade-out ramps, each multiplied in (empty: held at 1). */
  fadeIn: GainPoint[];
  fadeOut: GainPoint[];
}

/**
 * The video's sounds whose source decoded (`sourceSeconds` by src), placed as the export places
 * them; a sound whose source is not there (a clip without sound, a file that failed) is left out.
 */
export function soundSources(
  audio: readonly ResolvedAudio[],
  videoSeconds: number,
  sourceSeconds: ReadonlyMap<string, number>,
): SoundSource[] {
  const sources: SoundSource[] = [];
  for (const sound of audio) {
    const seconds = sourceSeconds.get(sound.track.src);
    if (seconds === undefined) continue;
    const placement = placeAudio({ ...sound, sourceDurationSeconds: seconds }, videoSeconds);
    if (!placement) continue;
    const length = placement.played ?? videoSeconds - placement.start;
    if (!(length > 0)) continue;
    sources.push({
      src: sound.track.src,
      placement,
      volume: sound.volume,
      rate: sound.rate,
      loop: sound.loop,
      sourceSeconds: seconds,
      length,
    });
  }
  return sources;
}

/** Where the source is `local` output seconds into the sound, or undefined past a non-looping end. */
function sourceOffset(source: SoundSource, local: number): number | undefined {
  const { sourceStart } = source.placement;
  const into = local * source.rate;
  if (!source.loop) {
    const offset = sourceStart + into;
    return offset < source.sourceSeconds ? offset : undefined;
  }
  const loopSeconds = source.sourceSeconds - sourceStart;
  return loopSeconds > 0 ? sourceStart + (into % loopSeconds) : undefined;
}

/** The fade ramps as seen from `local` seconds into the sound. */
function fadeRamps(placement: AudioPlacement, local: number): Pick<Voice, 'fadeIn' | 'fadeOut'> {
  const fadeIn: GainPoint[] =
    placement.fadeIn > local
      ? [
          { at: 0, gain: local / placement.fadeIn },
          { at: placement.fadeIn - local, gain: 1 },
        ]
      : [];
  const out = placement.fadeOut;
  let fadeOut: GainPoint[] = [];
  if (out) {
    fadeOut =
      out.from >= local
        ? [
            { at: out.from - local, gain: 1 },
            { at: out.to - local, gain: 0 },
          ]
        : [
            { at: 0, gain: fadeGainAt({ ...placement, fadeIn: 0 }, local) },
            { at: out.to - local, gain: 0 },
          ];
  }
  return { fadeIn, fadeOut };
}

/** Every sound that plays from output second `t` on (to the video's end), as it should start. */
export function voicesFrom(sources: readonly SoundSource[], t: number): Voice[] {
  const voices: Voice[] = [];
  for (const source of sources) {
    const { placement } = source;
    const end = placement.start + source.length;
    if (t >= end) continue;
    const local = Math.max(0, t - placement.start);
    const offset = sourceOffset(source, local);
    if (offset === undefined) continue;
    const ramps = fadeRamps(placement, local);
    if (ramps.fadeOut[0]?.at === 0 && ramps.fadeOut[0].gain <= 0) continue; // faded out already
    voices.push({
      src: source.src,
      delay: Math.max(0, placement.start - t),
      offset,
      length: source.length - local,
      rate: source.rate,
      volume: source.volume,
      loop: source.loop ? { start: placement.sourceStart, end: source.sourceSeconds } : undefined,
      ...ramps,
    });
  }
  return voices;
}
