// One video use (a clip or a video background) played by a muted <video> element. The drawing code
// reads the element's current picture. While the preview plays, the element plays along at the
// use's rate and is re-seeked only when it drifts; while paused or scrubbing, it is seeked to the
// exact moment and the page redraws once the seek lands.
import type { DrawableImage } from '../../shared/canvas/types.ts';
import type { VideoUse } from '../../shared/timeline/media-plan.ts';
import { mediaUrl } from './route-base.ts';
import { isActive, sourceMoment } from './video-time.ts';

/** How far a playing element may drift from the preview clock before it is seeked back. */
const PLAYING_DRIFT_SECONDS = 0.25;
/** How long the first picture may take before the preview starts without it. */
const FIRST_PICTURE_TIMEOUT_MS = 10_000;

export class PreviewVideo {
  readonly use: VideoUse;
  readonly element: HTMLVideoElement;
  readonly #fps: number;
  #failed = false;
  #active = false;

  constructor(use: VideoUse, fps: number, onSeeked: () => void) {
    this.use = use;
    this.#fps = fps;
    const element = document.createElement('video');
    element.muted = true;
    element.playsInline = true;
    element.preload = 'auto';
    // drawImage copies the source rectangle in the video's own pixels; fitting code reads
    // width/height for that size, which for a <video> are attributes, so they are set to match.
    element.addEventListener('loadedmetadata', () => {
      element.width = element.videoWidth;
      element.height = element.videoHeight;
    });
    element.addEventListener('seeked', onSeeked);
    element.addEventListener('error', () => (this.#failed = true));
    element.src = mediaUrl(use.src);
    element.currentTime = use.sourceStartSeconds;
    this.element = element;
  }

  /** Resolves when the first picture is decoded, or the source failed, or it took too long. */
  firstPicture(): Promise<void> {
    const element = this.element;
    if (element.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA || this.#failed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        element.removeEventListener('loadeddata', done);
        element.removeEventListener('error', done);
        resolve();
      };
      const timer = setTimeout(done, FIRST_PICTURE_TIMEOUT_MS);
      element.addEventListener('loadeddata', done);
      element.addEventListener('error', done);
    });
  }

  get failed(): boolean {
    return this.#failed;
  }

  /** The picture for the frame last synced, if this use is on screen and has one. */
  get picture(): DrawableImage | undefined {
    const element = this.element;
    if (!this.#active || this.#failed || element.readyState < HTMLMediaElement.HAVE_CURRENT_DATA)
      return undefined;
    return element;
  }

  /**
   * Puts the element where output frame `frame` needs it; `rate` is the preview's (2× plays the element
   * twice as fast; backwards, which an element cannot play, it is seeked frame by frame).
   */
  sync(frame: number, playing: boolean, rate = 1): void {
    const element = this.element;
    this.#active = isActive(this.use, frame);
    if (!this.#active || this.#failed) {
      if (!element.paused) element.pause();
      return;
    }
    const { seconds, holding } = sourceMoment(this.use, frame, this.#fps, element.duration);
    if (playing && rate > 0 && !holding) {
      element.playbackRate = this.use.rate * rate;
      if (element.paused || Math.abs(element.currentTime - seconds) > PLAYING_DRIFT_SECONDS) {
        element.currentTime = seconds;
      }
      // Muted playback needs no user gesture; a refusal just leaves seeking to do the work.
      if (element.paused) element.play().catch(() => undefined);
      return;
    }
    if (!element.paused) element.pause();
    if (Math.abs(element.currentTime - seconds) > 0.5 / this.#fps) element.currentTime = seconds;
  }

  dispose(): void {
    this.element.pause();
    this.element.removeAttribute('src');
    this.element.load(); // releases the decoder and the connection
  }
}
