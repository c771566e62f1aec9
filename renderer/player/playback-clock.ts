// Which frame the preview shows: a clock at the composition's fps times a rate (2× fast, −1× back),
// driven by the real time requestAnimationFrame hands in (so a slow frame skips ahead rather than
// slowing the video down). It plays inside a range (the whole video, or the studio's in/out points)
// and either loops there or stops at its end.

/** Frames [start, end) that playback stays in. */
export interface PlaybackRange {
  start: number;
  end: number;
}

export interface PlaybackSettings {
  /** Frames per video frame: 1 normal, 2 twice as fast, −1 backwards. Never 0 (pause instead). */
  rate: number;
  /** Where playback stays; undefined = the whole video. */
  range: PlaybackRange | undefined;
  /** Wrap to the range's other end; else playback stops there. */
  loop: boolean;
}

export const DEFAULT_PLAYBACK: PlaybackSettings = { rate: 1, range: undefined, loop: true };

export class PlaybackClock {
  #fps: number;
  #total: number;
  #frame = 0;
  #playing = false;
  #settings: PlaybackSettings = DEFAULT_PLAYBACK;
  /** While playing: the frame and the time (ms) playback last (re)started from. */
  #anchorFrame = 0;
  #anchorMs = 0;

  constructor(fps: number, total: number) {
    this.#fps = fps;
    this.#total = Math.max(1, total);
  }

  get frame(): number {
    return this.#frame;
  }

  get total(): number {
    return this.#total;
  }

  get fps(): number {
    return this.#fps;
  }

  get playing(): boolean {
    return this.#playing;
  }

  get rate(): number {
    return this.#settings.rate;
  }

  /** The range playback stays in, clamped to the video: its own frames when unset or empty. */
  get range(): PlaybackRange {
    const whole = { start: 0, end: this.#total };
    const asked = this.#settings.range;
    if (!asked) return whole;
    const start = Math.min(this.#total - 1, Math.max(0, Math.round(asked.start)));
    const end = Math.min(this.#total, Math.max(start + 1, Math.round(asked.end)));
    return { start, end };
  }

  /** Starts playing; from outside the range (or at its far end, not looping) it starts at its near end. */
  play(nowMs: number): void {
    if (this.#playing) return;
    const { start, end } = this.range;
    const forward = this.#settings.rate > 0;
    const outside = this.#frame < start || this.#frame >= end;
    const atFarEnd = forward ? this.#frame === end - 1 : this.#frame === start;
    if (outside || (atFarEnd && !this.#settings.loop)) this.#frame = forward ? start : end - 1;
    this.#playing = true;
    this.#anchor(nowMs);
  }

  pause(nowMs: number): void {
    if (!this.#playing) return;
    this.tick(nowMs);
    this.#playing = false;
  }

  /** Shows `frame` (clamped to the video); playback, if on, carries on from there. */
  seek(frame: number, nowMs: number): void {
    this.#frame = this.#clamp(frame);
    this.#anchor(nowMs);
  }

  /** New rate, range or loop: playing carries on from the frame shown now. */
  configure(settings: PlaybackSettings, nowMs: number): void {
    this.tick(nowMs);
    this.#settings = { ...settings, rate: settings.rate === 0 ? 1 : settings.rate };
    this.#anchor(nowMs);
  }

  /** A new build: same frame (clamped to the new length), same play state. */
  retime(fps: number, total: number, nowMs: number): void {
    this.#fps = fps;
    this.#total = Math.max(1, total);
    this.seek(this.#frame, nowMs);
  }

  /** Advances to the frame due at `nowMs` (looping in the range, or stopping at its end); returns it. */
  tick(nowMs: number): number {
    if (!this.#playing) return this.#frame;
    const { rate, loop } = this.#settings;
    const { start, end } = this.range;
    // Seeked outside the range while playing (or the range moved): playback goes on inside it.
    if (this.#anchorFrame < start || this.#anchorFrame >= end) {
      this.#anchorFrame = rate > 0 ? start : end - 1;
      this.#anchorMs = nowMs;
    }
    const elapsed = Math.max(0, nowMs - this.#anchorMs);
    const target =
      this.#anchorFrame + Math.floor((elapsed * this.#fps * Math.abs(rate)) / 1000) * Math.sign(rate);
    if (target >= start && target < end) {
      this.#frame = target;
    } else if (loop) {
      const length = end - start;
      this.#frame = start + ((((target - start) % length) + length) % length);
    } else {
      this.#frame = rate > 0 ? end - 1 : start;
      this.#playing = false;
    }
    return this.#frame;
  }

  #anchor(nowMs: number): void {
    this.#anchorFrame = this.#frame;
    this.#anchorMs = nowMs;
  }

  #clamp(frame: number): number {
    return Math.min(this.#total - 1, Math.max(0, Math.round(frame)));
  }
}

/** "1.23s / 10.80s": the shown frame's time against the video's length. */
export function formatTime(frame: number, total: number, fps: number): string {
  return `${(frame / fps).toFixed(2)}s / ${(total / fps).toFixed(2)}s`;
}
