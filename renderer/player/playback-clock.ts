// Which frame the preview shows: a looping clock at the composition's fps, driven by the real time
// requestAnimationFrame hands in (so a slow frame skips ahead rather than slowing the video down).

export class PlaybackClock {
  #fps: number;
  #total: number;
  #frame = 0;
  #playing = false;
  /** Playback speed: 1 is real time. */
  #rate = 1;
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
    return this.#rate;
  }

  /** Plays at `rate` times real time from the frame due now (the sound follows it). */
  setRate(rate: number, nowMs: number): void {
    if (!(rate > 0) || !Number.isFinite(rate)) throw new Error(`playback rate must be positive, got ${rate}`);
    this.tick(nowMs);
    this.#rate = rate;
    this.#anchor(nowMs);
  }

  play(nowMs: number): void {
    if (this.#playing) return;
    this.#playing = true;
    this.#anchor(nowMs);
  }

  pause(nowMs: number): void {
    if (!this.#playing) return;
    this.tick(nowMs);
    this.#playing = false;
  }

  /** Shows `frame` (clamped); playback, if on, carries on from there. */
  seek(frame: number, nowMs: number): void {
    this.#frame = this.#clamp(frame);
    this.#anchor(nowMs);
  }

  /** A new build: same frame (clamped to the new length), same play state. */
  retime(fps: number, total: number, nowMs: number): void {
    this.#fps = fps;
    this.#total = Math.max(1, total);
    this.seek(this.#frame, nowMs);
  }

  /** Advances to the frame due at `nowMs`, looping at the end; returns it. */
  tick(nowMs: number): number {
    if (this.#playing) {
      const elapsed = Math.floor(((nowMs - this.#anchorMs) * this.#fps * this.#rate) / 1000);
      this.#frame = (this.#anchorFrame + Math.max(0, elapsed)) % this.#total;
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
