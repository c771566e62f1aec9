// Review checks on the soundtrack: stretches where nothing can be heard, and a mix that reaches full
// scale. The mix is the encoder's own (audio-mix.ts), measured before its limiter (mix-levels.ts).
import type { ResolvedAudio, ResolvedVideo } from '../../shared/timeline/types.ts';
import type { AudioMixPlan } from '../encoder/audio-mix.ts';
import { completeAudioMixPlan, mixTrack } from '../encoder/audio-mix.ts';
import type { RenderProjectContext } from '../engine/project-context.ts';
import { fileVersion, perFileVersion } from '../inspect/file-cache.ts';
import { MediaError } from '../media/media-error.ts';
import { probeMedia } from '../media/probe-media.ts';
import { resolveMediaSource } from '../media/source.ts';
import type { FindingDraft } from './finding.ts';
import { FLOOR_DBFS, measureMixLevels } from './mix-levels.ts';
import type { LevelWindow } from './mix-levels.ts';

/**
 * Below this peak a stretch counts as silent: -50 dBFS is about 1/300 of full scale, inaudible on a
 * phone speaker at normal volume, while the quiet end of a fade, room tone or a soft pad stays above.
 */
export const SILENCE_DBFS = -50;
/** A silence inside the video shorter than this reads as a pause or a beat, not a drop-out. */
export const SILENCE_MIN_SECONDS = 2;
/**
 * At the end the bar is lower: a soundtrack that stops a second before the picture sounds like a
 * mistake (and a looping feed replays the gap), while the last frames of a fade-out stay short of it.
 */
export const TAIL_SILENCE_MIN_SECONDS = 1;
/** audio_peak: at or above this the mix is at full scale (the code's definition). */
export const PEAK_DBFS = -0.05;
/** Loud windows closer together than this are one stretch: one finding per passage, not per beat. */
const PEAK_MERGE_SECONDS = 1;
/** Where a remedy aims the peak: 1 dB of room under full scale. */
const TARGET_PEAK_DBFS = -1;
/** Silent stretches shorter than this are left out of the analysis. */
const REPORTED_SILENCE_SECONDS = 0.5;

export interface SoundtrackTrack {
  src: string;
  origin: ResolvedAudio['origin'];
  volume: number;
  /** Seconds in the video it sounds (the end as far as the source's length is known). */
  startSeconds: number;
  endSeconds: number;
}

export interface SilentStretch {
  startSeconds: number;
  endSeconds: number;
}

export interface LoudStretch {
  startSeconds: number;
  endSeconds: number;
  peakDbfs: number;
  peakSeconds: number;
}

export interface SoundtrackAnalysis {
  /** Length of the mix (the video's length). */
  durationSeconds: number;
  /** Highest peak of the mix before the limiter, dBFS (FLOOR_DBFS, -150, for digital silence). */
  peakDbfs: number;
  peakSeconds: number;
  /** Stretches of at least 0.5 s with every sample below SILENCE_DBFS. */
  silences: SilentStretch[];
  /** Stretches at or above PEAK_DBFS (before the limiter). */
  loud: LoudStretch[];
  tracks: SoundtrackTrack[];
  /** Sources that could not be had (left out of the mix; the render would fail on them). */
  unavailable: { src: string; reason: string }[];
}

interface SourceInfo {
  path: string;
  durationSeconds: number;
  hasAudio: boolean;
}

async function sourceInfo(
  src: string,
  project: RenderProjectContext,
  signal?: AbortSignal,
): Promise<SourceInfo> {
  // Remote sources are downloaded here, as the render would: the mix cannot be measured without them.
  const { path } = await resolveMediaSource(src, project.media, signal);
  const version = await fileVersion(path);
  return perFileVersion('sound', version, async () => {
    const probe = await probeMedia(path, src);
    return { path, durationSeconds: probe.durationSeconds, hasAudio: probe.hasAudio };
  });
}

function trackSpan(audio: ResolvedAudio, info: SourceInfo, videoSeconds: number): SoundtrackTrack {
  const start = Math.max(0, audio.startSeconds);
  let end: number;
  if (audio.durationSeconds !== undefined) end = audio.startSeconds + audio.durationSeconds;
  else if (audio.loop) end = videoSeconds;
  else end = audio.startSeconds + Math.max(0, info.durationSeconds - audio.sourceStartSeconds) / audio.rate;
  return {
    src: audio.track.src,
    origin: audio.origin,
    volume: audio.volume,
    startSeconds: start,
    endSeconds: Math.max(start, Math.min(videoSeconds, end)),
  };
}

function silentStretches(
  windows: LevelWindow[],
  windowSeconds: number,
  durationSeconds: number,
): SilentStretch[] {
  const stretches: SilentStretch[] = [];
  let start: number | undefined;
  const close = (end: number) => {
    if (start !== undefined && end - start >= REPORTED_SILENCE_SECONDS)
      stretches.push({ startSeconds: start, endSeconds: Math.min(end, durationSeconds) });
    start = undefined;
  };
  for (const window of windows) {
    if (window.peakDbfs < SILENCE_DBFS) start ??= window.startSeconds;
    else close(window.startSeconds);
  }
  close((windows.at(-1)?.startSeconds ?? 0) + windowSeconds);
  return stretches;
}

function loudStretches(
  windows: LevelWindow[],
  windowSeconds: number,
  durationSeconds: number,
): LoudStretch[] {
  const stretches: LoudStretch[] = [];
  for (const window of windows) {
    if (window.peakDbfs < PEAK_DBFS) continue;
    const last = stretches.at(-1);
    if (last && window.startSeconds - last.endSeconds < PEAK_MERGE_SECONDS) {
      last.endSeconds = Math.min(durationSeconds, window.startSeconds + windowSeconds);
      if (window.peakDbfs > last.peakDbfs) {
        last.peakDbfs = window.peakDbfs;
        last.peakSeconds = window.startSeconds;
      }
    } else {
      stretches.push({
        startSeconds: window.startSeconds,
        endSeconds: Math.min(durationSeconds, window.startSeconds + windowSeconds),
        peakDbfs: window.peakDbfs,
        peakSeconds: window.startSeconds,
      });
    }
  }
  return stretches;
}

/**
 * Mixes the soundtrack as the encoder would and measures it. Undefined when the video has no audio
 * (no tracks, or none that sounds inside the video).
 */
export async function analyzeSoundtrack(
  video: ResolvedVideo,
  project: RenderProjectContext,
  signal?: AbortSignal,
): Promise<SoundtrackAnalysis | undefined> {
  if (video.audio.length === 0) return undefined;
  const videoSeconds = video.durationFrames / video.fps;
  const unavailable: SoundtrackAnalysis['unavailable'] = [];
  const usable: { audio: ResolvedAudio; info: SourceInfo }[] = [];
  for (const audio of video.audio) {
    try {
      const info = await sourceInfo(audio.track.src, project, signal);
      if (info.hasAudio) usable.push({ audio, info });
      // A clip without a sound stream simply has no sound to mix. (The encoder does not yet skip it:
      // it asks ffmpeg for the clip's audio and fails; reported to the lead.)
      else if (audio.origin !== 'clip')
        unavailable.push({ src: audio.track.src, reason: 'it has no audio stream' });
    } catch (error) {
      if (!(error instanceof MediaError)) throw error;
      unavailable.push({ src: audio.track.src, reason: error.message });
    }
  }
  // The same plan the render builds (render-video.ts audioPlan), over the sources that exist.
  const plan: AudioMixPlan = {
    durationSeconds: videoSeconds,
    tracks: usable.map(({ audio, info }) => mixTrack(audio, info.path)),
  };
  const levels = await measureMixLevels(await completeAudioMixPlan(plan, signal), video.fps, signal);
  if (!levels) return undefined;
  const peak = levels.windows.reduce<LevelWindow | undefined>(
    (best, window) => (!best || window.peakDbfs > best.peakDbfs ? window : best),
    undefined,
  );
  return {
    durationSeconds: levels.durationSeconds,
    peakDbfs: peak?.peakDbfs ?? FLOOR_DBFS,
    peakSeconds: peak?.startSeconds ?? 0,
    silences: silentStretches(levels.windows, levels.windowSeconds, levels.durationSeconds),
    loud: loudStretches(levels.windows, levels.windowSeconds, levels.durationSeconds),
    tracks: usable.map(({ audio, info }) => trackSpan(audio, info, videoSeconds)),
    unavailable,
  };
}

function seconds(value: number): string {
  return `${Number(value.toFixed(2))} s`;
}

/** "-0.00" reads oddly for a level a hair under full scale. */
function dbfs(value: number): string {
  const text = value.toFixed(2);
  return text === '-0.00' ? '0.00' : text;
}

function describeTrack(track: SoundtrackTrack): string {
  return `${track.origin} "${track.src}" (volume ${track.volume})`;
}

function overlapping(tracks: SoundtrackTrack[], start: number, end: number): SoundtrackTrack[] {
  return tracks.filter((track) => track.startSeconds < end && track.endSeconds > start);
}

function frameInterval(start: number, end: number, fps: number, totalFrames: number) {
  const startFrame = Math.min(Math.max(0, Math.floor(start * fps + 1e-6)), Math.max(0, totalFrames - 1));
  const endFrame = Math.min(totalFrames, Math.max(startFrame + 1, Math.ceil(end * fps - 1e-6)));
  return { startFrame, endFrame };
}

function silenceFinding(
  silence: SilentStretch,
  analysis: SoundtrackAnalysis,
  fps: number,
  totalFrames: number,
): FindingDraft | undefined {
  const length = silence.endSeconds - silence.startSeconds;
  const atEnd = analysis.durationSeconds - silence.endSeconds < 1 / fps;
  if (length < (atEnd ? TAIL_SILENCE_MIN_SECONDS : SILENCE_MIN_SECONDS)) return undefined;
  const span = `${seconds(silence.startSeconds)}–${seconds(silence.endSeconds)}`;
  const playing = overlapping(analysis.tracks, silence.startSeconds, silence.endSeconds);
  let message: string;
  let remedy: string;
  if (playing.length > 0) {
    message = `the soundtrack is silent (below ${SILENCE_DBFS} dBFS) from ${span} although ${playing.map(describeTrack).join(', ')} plays there`;
    remedy = `raise the volume of ${playing.map((t) => `"${t.src}"`).join(', ')} or trim to a part of the source that is audible there`;
  } else {
    const earlier = analysis.tracks.filter((track) => track.endSeconds <= silence.startSeconds + 1e-3);
    const last = earlier.sort((a, b) => b.endSeconds - a.endSeconds)[0];
    const later = analysis.tracks.filter((track) => track.startSeconds >= silence.endSeconds - 1e-3);
    const next = later.sort((a, b) => a.startSeconds - b.startSeconds)[0];
    message = atEnd
      ? `the soundtrack stops at ${seconds(silence.startSeconds)}, ${seconds(length)} before the video ends: the last ${seconds(length)} are silent`
      : `no track sounds from ${span} (${seconds(length)} of silence)`;
    const cover = `${seconds(silence.startSeconds)} to ${seconds(silence.endSeconds)}`;
    remedy = last
      ? `make ${describeTrack(last)} reach ${seconds(silence.endSeconds)}: set loop: true on it, or a duration/trim that lasts that long; or add a music or sfx track covering ${cover}`
      : `add a music or sfx track covering ${cover}`;
    if (next) remedy += `; or start ${describeTrack(next)} earlier, at ${seconds(silence.startSeconds)}`;
    if (atEnd)
      remedy += `; or end the video at ${seconds(silence.startSeconds)} by shortening the last scene`;
  }
  return {
    code: 'audio_silence',
    severity: 'warning',
    ...frameInterval(silence.startSeconds, silence.endSeconds, fps, totalFrames),
    message,
    remedy,
  };
}

function peakFinding(
  loud: LoudStretch,
  analysis: SoundtrackAnalysis,
  fps: number,
  totalFrames: number,
): FindingDraft {
  const interval = frameInterval(loud.startSeconds, loud.endSeconds, fps, totalFrames);
  const playing = overlapping(analysis.tracks, loud.startSeconds, loud.endSeconds);
  // Lowering every track that sounds there by this much brings the peak to TARGET_PEAK_DBFS.
  const cutDb = loud.peakDbfs - TARGET_PEAK_DBFS;
  const factor = 10 ** (-cutDb / 20);
  const changes = playing.map(
    (track) => `"${track.src}" volume ${track.volume} → ${Number((track.volume * factor).toFixed(2))}`,
  );
  return {
    code: 'audio_peak',
    severity: 'warning',
    ...interval,
    focusFrame: Math.min(
      interval.endFrame - 1,
      Math.max(interval.startFrame, Math.floor(loud.peakSeconds * fps)),
    ),
    message:
      `the mix peaks at ${dbfs(loud.peakDbfs)} dBFS at ${seconds(loud.peakSeconds)} (full scale is 0): ` +
      'the output limiter has to squash it, and a source already clipped there stays distorted',
    remedy:
      changes.length > 0
        ? `lower the volume by at least ${cutDb.toFixed(1)} dB: ${changes.join(', ')}`
        : `lower the volume of the tracks playing at ${seconds(loud.peakSeconds)} by at least ${cutDb.toFixed(1)} dB`,
  };
}

/**
 * audio_silence and audio_peak findings. While a source is unavailable the silences are not reported:
 * they may only be where that source would play, and its missing_asset error is the thing to fix.
 */
export function audioFindings(analysis: SoundtrackAnalysis | undefined, fps: number): FindingDraft[] {
  if (!analysis) return [];
  const totalFrames = Math.max(1, Math.round(analysis.durationSeconds * fps));
  const silences =
    analysis.unavailable.length > 0
      ? []
      : analysis.silences.flatMap((silence) => silenceFinding(silence, analysis, fps, totalFrames) ?? []);
  return [...silences, ...analysis.loud.map((loud) => peakFinding(loud, analysis, fps, totalFrames))];
}
