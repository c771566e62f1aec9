// Voices (audio-schedule.ts) as Web Audio nodes on any context: the live AudioContext the preview
// plays through, or an OfflineAudioContext that renders the same graph faster than real time (the
// browser test compares that with the export's mix). Per voice: buffer source → fade-in gain →
// fade-out gain → volume gain → destination; two fade nodes multiply exactly as ffmpeg's two afades.
import type { GainPoint, Voice } from './audio-schedule.ts';

export interface StartedVoice {
  source: AudioBufferSourceNode;
  /** Context seconds when it stops on its own. */
  stopsAt: number;
}

function rampGain(
  context: BaseAudioContext,
  points: readonly GainPoint[],
  toContext: (output: number) => number,
): GainNode {
  const node = context.createGain();
  const [first, ...rest] = points;
  if (!first) return node;
  node.gain.setValueAtTime(first.gain, toContext(first.at));
  for (const point of rest) node.gain.linearRampToValueAtTime(point.gain, toContext(point.at));
  return node;
}

/**
 * Starts every voice whose source is in `buffers`. Output second 0 of the schedule is context time
 * `at`; `speed` is the preview's playback speed (pitch follows it, as it does the clip rate:
 * unlike the export's atempo, a buffer source has no pitch-kept time stretch).
 */
export function startVoices(
  context: BaseAudioContext,
  voices: readonly Voice[],
  buffers: ReadonlyMap<string, AudioBuffer>,
  destination: AudioNode,
  at: number,
  speed = 1,
): StartedVoice[] {
  const started: StartedVoice[] = [];
  for (const voice of voices) {
    const buffer = buffers.get(voice.src);
    if (!buffer) continue;
    const begins = at + voice.delay / speed;
    const toContext = (output: number) => begins + output / speed;
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.playbackRate.value = voice.rate * speed;
    if (voice.loop) {
      source.loop = true;
      source.loopStart = voice.loop.start;
      source.loopEnd = voice.loop.end;
    }
    const volume = context.createGain();
    volume.gain.value = voice.volume;
    source
      .connect(rampGain(context, voice.fadeIn, toContext))
      .connect(rampGain(context, voice.fadeOut, toContext))
      .connect(volume)
      .connect(destination);
    const stopsAt = toContext(voice.length);
    source.start(begins, voice.offset);
    source.stop(stopsAt);
    started.push({ source, stopsAt });
  }
  return started;
}
