// The preview's sound: music, sfx and clips' own sound through Web Audio, following the playback
// clock. Muted until a user unmutes (browsers let a page start audio only from a gesture), and no
// AudioContext exists before that. While playing it starts every voice from the playhead (the
// schedule of audio-schedule.ts) and restarts them on a seek, a loop back to the start, a new speed
// or a drift; pausing stops them.
import type { ResolvedAudio } from '../../shared/timeline/types.ts';
import { SoundBuffers } from './audio-buffers.ts';
import { rmsEnvelope } from './audio-envelope.ts';
import { startVoices } from './audio-graph.ts';
import type { StartedVoice } from './audio-graph.ts';
import { soundSources, voicesFrom } from './audio-schedule.ts';
import type { SoundSource } from './audio-schedule.ts';
import type { MissingSource } from './preview-media.ts';

export type SoundStatus = 'muted' | 'starting' | 'running' | 'suspended';

export interface SoundState {
  status: SoundStatus;
  /** Voices started from the playhead and not yet over (0 while paused or muted). */
  voices: number;
  /** How many times voices were (re)started: every play, seek, loop and resync counts one. */
  starts: number;
  /** Output seconds of the video the latest start began at. */
  from: number;
}

/** How far the sound may drift from the clock's frame before it is restarted there (a frame is ≤ 42 ms). */
const DRIFT_SECONDS = 0.25;
const OFFLINE_SAMPLE_RATE = 48_000;

/** What the browser tests (and a curious developer's console) read of the sound: window[SOUND_PROBE]. */
export const SOUND_PROBE = '__kinoPreviewSound';
export interface SoundProbe {
  /** The RMS envelope of renderWindow(from, seconds), per windowSeconds. */
  envelope(from: number, seconds: number, windowSeconds: number): Promise<number[]>;
  level(): number;
}
type SoundProbeWindow = Window & { [SOUND_PROBE]?: SoundProbe };

interface Anchor {
  seconds: number;
  contextTime: number;
  speed: number;
}

export class PreviewSound {
  readonly #onState: (state: SoundState) => void;
  readonly #buffers = new SoundBuffers();
  #muted: boolean;
  #context: AudioContext | undefined;
  #master: GainNode | undefined;
  #analyser: AnalyserNode | undefined;
  #sources: SoundSource[] = [];
  #signature = '';
  #loaded = new Map<string, AudioBuffer>();
  #started: StartedVoice[] = [];
  #anchor: Anchor | undefined;
  #generation = 0;
  #state: SoundState;
  #resumeOnGesture: (() => void) | undefined;
  #disposed = false;

  constructor(muted: boolean, onState: (state: SoundState) => void) {
    this.#muted = muted;
    this.#onState = onState;
    this.#state = { status: 'muted', voices: 0, starts: 0, from: 0 };
    if (!muted) this.#open();
    this.#report({});
    (window as SoundProbeWindow)[SOUND_PROBE] = {
      envelope: async (from, seconds, windowSeconds) => {
        const rendered = await this.renderWindow(from, seconds);
        const channels = Array.from({ length: rendered.numberOfChannels }, (_, i) =>
          rendered.getChannelData(i),
        );
        return rmsEnvelope(channels, rendered.sampleRate, windowSeconds);
      },
      level: () => this.level(),
    };
  }

  /**
   * A new build's sounds: decodes what is new, places them as the export does, and restarts the
   * voices on the next follow when they changed. Resolves with the music and sfx that cannot play.
   */
  async setVideo(audio: readonly ResolvedAudio[], videoSeconds: number): Promise<MissingSource[]> {
    const generation = ++this.#generation;
    const srcs = audio.map((sound) => sound.track.src);
    await this.#buffers.load(srcs);
    const buffers = await this.#buffers.buffers(srcs);
    if (generation !== this.#generation) return [];
    const lengths = new Map([...buffers].map(([src, buffer]) => [src, buffer.duration]));
    const sources = soundSources(audio, videoSeconds, lengths);
    const signature = JSON.stringify(sources);
    this.#loaded = buffers;
    this.#sources = sources;
    if (signature !== this.#signature) {
      this.#signature = signature;
      this.#stop();
    }
    // A clip whose file has no sound just has none, as in the export.
    return this.#buffers.missing(audio.filter((sound) => sound.origin !== 'clip').map((s) => s.track.src));
  }

  /** Called on every animation frame and on every intent (`force`: play, pause, seek). */
  follow(seconds: number, playing: boolean, speed: number, force = false): void {
    const context = this.#context;
    // Played backwards (J in the studio) the picture steps through frames: sound has no reverse.
    if (this.#muted || !context || context.state !== 'running' || !playing || speed <= 0) {
      if (this.#started.length > 0 || this.#anchor) this.#stop();
      return;
    }
    const anchor = this.#anchor;
    if (anchor && !force && anchor.speed === speed) {
      const expected = anchor.seconds + (context.currentTime - anchor.contextTime) * speed;
      if (Math.abs(expected - seconds) <= DRIFT_SECONDS) return;
    }
    this.#start(context, seconds, speed);
  }

  /** Mute or unmute; unmuting must run inside the user's gesture (a click) for the audio to start. */
  setMuted(muted: boolean): void {
    this.#muted = muted;
    if (muted) {
      this.#stop();
      void this.#context?.suspend();
    } else if (this.#context) {
      void this.#context.resume();
    } else {
      this.#open();
    }
    this.#report({});
  }

  /**
   * Renders `seconds` of the mix from output second `from` with the live graph's own scheduling, on
   * an OfflineAudioContext (no volume control, no mute): what the preview plays, sample for sample.
   */
  async renderWindow(from: number, seconds: number): Promise<AudioBuffer> {
    const length = Math.max(1, Math.round(seconds * OFFLINE_SAMPLE_RATE));
    const offline = new OfflineAudioContext(2, length, OFFLINE_SAMPLE_RATE);
    startVoices(offline, voicesFrom(this.#sources, from), this.#loaded, offline.destination, 0);
    return offline.startRendering();
  }

  /** The live output's loudness right now (RMS of the last ~20 ms), 0 when nothing plays. */
  level(): number {
    const analyser = this.#analyser;
    if (!analyser) return 0;
    const samples = new Float32Array(analyser.fftSize);
    analyser.getFloatTimeDomainData(samples);
    return rmsEnvelope([samples], 1, samples.length)[0] ?? 0;
  }

  dispose(): void {
    this.#generation++;
    this.#stop();
    // Closing fires statechange later: a disposed sound must not report over its successor's.
    this.#disposed = true;
    delete (window as SoundProbeWindow)[SOUND_PROBE];
    if (this.#resumeOnGesture) this.#listenForGesture(false);
    void this.#context?.close();
    this.#context = undefined;
  }

  #open(): void {
    const context = new AudioContext({ latencyHint: 'interactive' });
    const master = context.createGain();
    const analyser = context.createAnalyser();
    analyser.fftSize = 1024;
    master.connect(analyser).connect(context.destination);
    context.addEventListener('statechange', () => {
      // A context opened without a gesture (unmuted in an earlier page of this session) waits for one.
      this.#listenForGesture(context.state === 'suspended' && !this.#muted);
      this.#report({});
    });
    this.#context = context;
    this.#master = master;
    this.#analyser = analyser;
    void context.resume();
    this.#listenForGesture(context.state === 'suspended');
  }

  #listenForGesture(on: boolean): void {
    if (this.#resumeOnGesture) {
      window.removeEventListener('pointerdown', this.#resumeOnGesture, true);
      window.removeEventListener('keydown', this.#resumeOnGesture, true);
      this.#resumeOnGesture = undefined;
    }
    if (!on) return;
    const resume = () => void this.#context?.resume();
    this.#resumeOnGesture = resume;
    window.addEventListener('pointerdown', resume, true);
    window.addEventListener('keydown', resume, true);
  }

  #start(context: AudioContext, seconds: number, speed: number): void {
    this.#stop();
    const at = context.currentTime;
    const started = startVoices(
      context,
      voicesFrom(this.#sources, seconds),
      this.#loaded,
      this.#master!,
      at,
      speed,
    );
    for (const voice of started) {
      voice.source.addEventListener('ended', () => {
        const index = this.#started.indexOf(voice);
        if (index < 0) return;
        this.#started.splice(index, 1);
        this.#report({});
      });
    }
    this.#started = started;
    this.#anchor = { seconds, contextTime: at, speed };
    this.#report({ starts: this.#state.starts + 1, from: seconds });
  }

  #stop(): void {
    const started = this.#started;
    this.#started = [];
    this.#anchor = undefined;
    for (const { source } of started) {
      try {
        source.stop();
      } catch {
        // already stopped
      }
      source.disconnect();
    }
    if (started.length > 0) this.#report({});
  }

  #report(change: Partial<SoundState>): void {
    if (this.#disposed) return;
    const context = this.#context;
    let status: SoundStatus = 'muted';
    if (!this.#muted && context) status = context.state === 'running' ? 'running' : 'starting';
    if (status === 'starting' && this.#resumeOnGesture) status = 'suspended';
    this.#state = { ...this.#state, ...change, status, voices: this.#started.length };
    this.#onState(this.#state);
  }
}
