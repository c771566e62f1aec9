// The control bar: play/pause (also the space key), a scrubber over frames, the frame counter
// "frame / total", the time and Mute/Unmute. It only reports intents; the player owns the state.
import { formatTime } from './playback-clock.ts';
import type { SoundState } from './preview-sound.ts';

export interface ControlHandlers {
  togglePlay(): void;
  seek(frame: number): void;
  /** One frame back or forward (arrow keys). */
  step(delta: number): void;
  /** Mute/Unmute clicked (runs inside the click: browsers start audio only from a gesture). */
  toggleMute(): void;
}

function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the preview page has no #${id}`);
  return element as T;
}

/** Called every animation frame: touch the DOM only when the text really changes. */
function setText(element: HTMLElement, text: string): void {
  if (element.textContent !== text) element.textContent = text;
}

export class Controls {
  readonly #button = byId<HTMLButtonElement>('play-pause');
  readonly #scrubber = byId<HTMLInputElement>('scrubber');
  readonly #counter = byId<HTMLElement>('frame-counter');
  readonly #time = byId<HTMLElement>('time');
  readonly #status = byId<HTMLElement>('status');
  readonly #mute = byId<HTMLButtonElement>('mute');

  constructor(handlers: ControlHandlers) {
    this.#button.addEventListener('click', () => handlers.togglePlay());
    this.#mute.addEventListener('click', () => handlers.toggleMute());
    this.#scrubber.addEventListener('input', () => handlers.seek(Number(this.#scrubber.value)));
    window.addEventListener('keydown', (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      // A focused button already answers space with a click; do not toggle twice.
      if (event.code === 'Space' && event.target !== this.#button) {
        event.preventDefault();
        handlers.togglePlay();
      } else if (
        (event.code === 'ArrowLeft' || event.code === 'ArrowRight') &&
        event.target !== this.#scrubber
      ) {
        event.preventDefault();
        handlers.step(event.code === 'ArrowLeft' ? -1 : 1);
      }
    });
  }

  show(frame: number, total: number, fps: number, playing: boolean): void {
    this.#scrubber.max = String(Math.max(0, total - 1));
    // Rewriting the value while the user drags it would fight the drag.
    if (Number(this.#scrubber.value) !== frame) this.#scrubber.value = String(frame);
    setText(this.#counter, `${frame} / ${total}`);
    setText(this.#time, formatTime(frame, total, fps));
    setText(this.#button, playing ? 'Pause' : 'Play');
  }

  /** Names the button for what a click does; aria-pressed and data- attributes say what plays. */
  sound(muted: boolean, state: SoundState): void {
    setText(this.#mute, muted ? 'Unmute' : 'Mute');
    this.#mute.setAttribute('aria-pressed', String(muted));
    this.#mute.dataset.sound = state.status;
    this.#mute.dataset.voices = String(state.voices);
    this.#mute.dataset.starts = String(state.starts);
    this.#mute.dataset.from = state.from.toFixed(3);
  }

  /** A short note beside the controls (missing media, a lost connection); empty clears it. */
  status(text: string, detail = text): void {
    this.#status.textContent = text;
    this.#status.title = detail;
  }
}
