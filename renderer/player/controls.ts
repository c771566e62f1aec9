// The control bar: play/pause (also the space key), a scrubber over frames, the frame counter
// "frame / total" and the time. It only reports intents; the player owns the state.
import { formatTime } from './playback-clock.ts';

export interface ControlHandlers {
  togglePlay(): void;
  seek(frame: number): void;
  /** One frame back or forward (arrow keys). */
  step(delta: number): void;
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

  constructor(handlers: ControlHandlers) {
    this.#button.addEventListener('click', () => handlers.togglePlay());
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

  /** A short note beside the controls (missing media, a lost connection); empty clears it. */
  status(text: string, detail = text): void {
    this.#status.textContent = text;
    this.#status.title = detail;
  }
}
