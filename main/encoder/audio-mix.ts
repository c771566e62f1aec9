// The soundtrack as an ffmpeg filter graph: each track trimmed, looped, sped up, faded, gained and
// placed at its start, then all mixed to 48 kHz stereo exactly as long as the video.
import { resolve } from 'node:path';
import { placeAudio } from '../../shared/timeline/audio-placement.ts';
import type { AudioPlacement, AudioTiming } from '../../shared/timeline/audio-placement.ts';
import type { ResolvedAudio } from '../../shared/timeline/types.ts';
import { MediaError } from '../media/media-error.ts';
import { INPUT_PROTOCOLS, demuxerName, probeMedia } from '../media/probe-media.ts';

/** A sound of the mix: its timing and level (shared with the preview), and the file ffmpeg reads. */
export interface AudioMixTrack extends AudioTiming {
  /** A local file (remote sources are downloaded before this point). */
  path: string;
  /** A clip's own sound: a file without an audio stream simply has none (dropSoundlessTracks). */
  optional?: boolean | undefined;
  /** The spec's source string, named in errors. */
  source?: string | undefined;
  /**
   * The demuxer the media gate judged the file to be (probeMedia: no playlists, manifests or other
   * referencing containers); ffmpeg is pinned to it. Set by dropSoundlessTracks/completeAudioMixPlan.
   */
  demuxer?: string | undefined;
}

/** A resolved sound as a track of the mix, read from `path` (its source as a local file). */
export function mixTrack(audio: ResolvedAudio, path: string): AudioMixTrack {
  return {
    path,
    startSeconds: audio.startSeconds,
    sourceStartSeconds: audio.sourceStartSeconds,
    durationSeconds: audio.durationSeconds,
    loop: audio.loop,
    volume: audio.volume,
    fadeInSeconds: audio.fadeInSeconds,
    fadeOutSeconds: audio.fadeOutSeconds,
    rate: audio.rate,
    optional: audio.origin === 'clip',
    source: audio.track.src,
  };
}

export interface AudioMixPlan {
  /** The video's length: the mix is padded or cut to exactly this. */
  durationSeconds: number;
  tracks: AudioMixTrack[];
}

export interface AudioMixGraph {
  /** ffmpeg input options and inputs, one input per track. */
  inputArgs: string[];
  /** Filter chains from those inputs to [outputLabel]. */
  filterGraph: string;
  outputLabel: string;
  trackCount: number;
}

export const MIX_SAMPLE_RATE = 48_000;
/** Peak ceiling of the mix, about -0.4 dBFS: leaves room for the lossy encoder's overshoot. */
const LIMIT = 0.95;

function num(value: number): string {
  return String(Number(value.toFixed(6)));
}

/** atempo takes 0.5..2 per instance at its best quality, so other rates become a chain. */
export function atempoChain(rate: number): string[] {
  if (!(rate > 0) || !Number.isFinite(rate))
    throw new Error(`audio rate must be a positive number, got ${rate}.`);
  const chain: string[] = [];
  let rest = rate;
  while (rest > 2) {
    chain.push('atempo=2');
    rest /= 2;
  }
  while (rest < 0.5) {
    chain.push('atempo=0.5');
    rest /= 0.5;
  }
  if (Math.abs(rest - 1) > 1e-9) chain.push(`atempo=${num(rest)}`);
  return chain;
}

interface PlacedTrack extends AudioPlacement {
  track: AudioMixTrack;
}

/** Where and for how long a track sounds inside the video (the preview places it the same way). */
function placeTrack(track: AudioMixTrack, videoSeconds: number): PlacedTrack | undefined {
  const placement = placeAudio(track, videoSeconds);
  return placement && { ...placement, track };
}

function trackInputArgs(placed: PlacedTrack): string[] {
  const { track, sourceStart } = placed;
  // Only plain local files: a path is never read as a protocol URL (concat:, http:, ...), and the
  // demuxer is the one the gate judged, so ffmpeg cannot decide it is a playlist after all.
  const input = [
    '-protocol_whitelist',
    INPUT_PROTOCOLS,
    ...(track.demuxer ? ['-f', track.demuxer] : []),
    '-i',
    `file:${resolve(track.path)}`,
  ];
  if (track.loop) {
    if (sourceStart > 0) return input;
    // An endless input must be cut at the demuxer: ffmpeg 4.1 keeps decoding an input whose
    // filter chain has ended and queues its frames, so memory grows without bound.
    const sourceSeconds = (placed.played ?? 0) * track.rate + 1;
    return ['-stream_loop', '-1', '-t', num(sourceSeconds), ...input];
  }
  return sourceStart > 0 ? ['-ss', num(sourceStart), ...input] : input;
}

function trackChain(placed: PlacedTrack, inputIndex: number, label: string, totalSamples: number): string {
  const { track, start, sourceStart, played, fadeOut } = placed;
  const filters = ['aresample=48000', 'aformat=sample_fmts=fltp:channel_layouts=stereo'];
  if (track.loop && sourceStart > 0) {
    // -stream_loop would restart at the file's beginning; loop the part after sourceStart instead.
    if (track.sourceDurationSeconds === undefined) {
      throw new Error(
        `looping ${track.path} from ${sourceStart}s needs its duration: run completeAudioMixPlan first.`,
      );
    }
    const loopSeconds = track.sourceDurationSeconds - sourceStart;
    const loopSamples = Math.round(loopSeconds * MIX_SAMPLE_RATE);
    // A finite repeat count: ffmpeg 4.1's aloop with loop=-1 keeps producing after the chain below
    // it has ended, and the process grows by gigabytes a second.
    const neededSeconds = (played ?? totalSamples / MIX_SAMPLE_RATE) * track.rate;
    const repeats = Math.max(1, Math.ceil(neededSeconds / Math.max(loopSeconds, 1e-3)));
    filters.push(
      `atrim=start=${num(sourceStart)}`,
      'asetpts=PTS-STARTPTS',
      `aloop=loop=${repeats}:size=${loopSamples}`,
    );
  }
  filters.push(...atempoChain(track.rate));
  if (played !== undefined) filters.push(`atrim=duration=${num(played)}`);
  if (placed.fadeIn > 0) filters.push(`afade=t=in:st=0:d=${num(placed.fadeIn)}`);
  if (fadeOut) filters.push(`afade=t=out:st=${num(fadeOut.from)}:d=${num(fadeOut.to - fadeOut.from)}`);
  if (track.volume !== 1) filters.push(`volume=${num(track.volume)}`);
  if (start > 0) {
    const ms = num(start * 1000);
    filters.push(`adelay=delays=${ms}|${ms}`);
  }
  // Every input lasts exactly as long as the video, so amix never renormalises as inputs end.
  filters.push(`apad=whole_len=${totalSamples}`, `atrim=end_sample=${totalSamples}`);
  return `[${inputIndex}:a]${filters.join(',')}[${label}]`;
}

/**
 * Builds the mix, with the first track read as ffmpeg input number `firstInputIndex`. Returns
 * undefined when no track sounds inside the video: then the output has no audio stream at all.
 */
export function audioMixGraph(
  plan: AudioMixPlan,
  firstInputIndex: number,
  options: { limiter?: boolean } = {},
): AudioMixGraph | undefined {
  const placed = plan.tracks
    .map((track) => placeTrack(track, plan.durationSeconds))
    .filter((p): p is PlacedTrack => p !== undefined);
  if (placed.length === 0) return undefined;
  const totalSamples = Math.round(plan.durationSeconds * MIX_SAMPLE_RATE);
  const labels = placed.map((_, i) => `mix${i}`);
  const chains = placed.map((p, i) => trackChain(p, firstInputIndex + i, labels[i]!, totalSamples));
  // ffmpeg 4.1's amix has no normalize=0: it scales each input by 1/inputs, so the sum is restored.
  const mixed =
    placed.length === 1
      ? `[${labels[0]}]`
      : `${labels.map((l) => `[${l}]`).join('')}amix=inputs=${placed.length}:duration=longest:dropout_transition=0,volume=${placed.length},`;
  const outputLabel = 'aout';
  // Review measures without the limiter (options.limiter false): what reaches full scale is the sum
  // before it, the level the author controls.
  const limit = options.limiter === false ? '' : `alimiter=limit=${LIMIT}:attack=0.1:level=0,`;
  const limiter = `${limit}apad=whole_len=${totalSamples},atrim=end_sample=${totalSamples}`;
  const tail = `${mixed}${limiter}[${outputLabel}]`;
  return {
    inputArgs: placed.flatMap(trackInputArgs),
    filterGraph: [...chains, tail].join(';'),
    outputLabel,
    trackCount: placed.length,
  };
}

/** Whether the output will have an audio stream: some track sounds inside the video. */
export function audioMixIsAudible(plan: AudioMixPlan): boolean {
  return plan.tracks.some((track) => placeTrack(track, plan.durationSeconds) !== undefined);
}

/**
 * Every track through the media gate (probeMedia): its real container is probed, playlists and
 * other referencing formats are refused, and its demuxer and length are kept for the mix.
 */
async function gateTrack(track: AudioMixTrack): Promise<AudioMixTrack & { hasAudio: boolean }> {
  const probe = await probeMedia(track.path, track.source);
  return {
    ...track,
    demuxer: demuxerName(probe.formatName),
    sourceDurationSeconds: track.sourceDurationSeconds ?? probe.durationSeconds,
    hasAudio: probe.hasAudio,
  };
}

/** Removes optional tracks (clips' own sound) whose file has no audio stream: there is nothing to mix. */
export async function dropSoundlessTracks(plan: AudioMixPlan, signal?: AbortSignal): Promise<AudioMixPlan> {
  signal?.throwIfAborted();
  const gated = await Promise.all(plan.tracks.map(gateTrack));
  return {
    ...plan,
    tracks: gated.filter((t) => t.hasAudio || !t.optional).map(({ hasAudio: _hasAudio, ...track }) => track),
  };
}

/** Gates every source (see gateTrack) and adds the source lengths the graph needs. */
export async function completeAudioMixPlan(plan: AudioMixPlan, signal?: AbortSignal): Promise<AudioMixPlan> {
  signal?.throwIfAborted();
  const tracks = await Promise.all(
    plan.tracks.map(async (track) => {
      const { hasAudio, ...gated } = await gateTrack(track);
      if (!hasAudio) {
        throw new MediaError(
          'media_no_audio',
          `audio source "${track.source ?? track.path}" has no audio stream`,
          {
            ...(track.source === undefined ? {} : { source: track.source }),
          },
        );
      }
      return gated;
    }),
  );
  return { ...plan, tracks };
}
