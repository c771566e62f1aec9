// The studio's live preview: plays the composition on a canvas with the shared drawing code (the same
// modules as `kino preview`), and swaps in every new build the workspace announces, keeping the frame.
// It lives outside React: it owns a requestAnimationFrame loop and tells the preview store what it shows.
import { drawFrame } from '../../shared/draw/frame.ts';
import { transformedBounds } from '../../shared/canvas/device-rect.ts';
import type { FrameRect } from '../../shared/canvas/device-rect.ts';
import type { DrawEnv, DrawnElement } from '../../shared/canvas/types.ts';
import type { AspectName } from '../../shared/spec/sizes.ts';
import type { FontFace } from '../../shared/spec/schema.ts';
import { planMedia } from '../../shared/timeline/media-plan.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import type { ResolvedVideo } from '../../shared/timeline/types.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import { context2d, createBrowserDrawEnv } from './browser-env.ts';
import { loadHighlighterFor } from '../../shared/code/highlighter.ts';
import { loadBundledFonts, loadCustomFonts } from './fonts.ts';
import { declaredVariables, importExport, mountExport } from './load-composition.ts';
import type { Variables } from '../../shared/spec/variable-schema.ts';
import { VariableBindingError } from '../../shared/spec/variables.ts';
import type { VariableValues } from '../../shared/spec/variables.ts';
import { SpecValidationError } from '../../shared/spec/validate.ts';
import type { SpecIssue } from '../../shared/spec/validate.ts';
import { PlaybackClock } from './playback-clock.ts';
import type { PlaybackSettings } from './playback-clock.ts';
import { PreviewMedia } from './preview-media.ts';
import { PreviewSound } from './preview-sound.ts';
import type { SoundState } from './preview-sound.ts';
import type { MissingSource } from './preview-media.ts';
import { BUILD_EVENT, PREVIEW_ROUTES } from '../../shared/protocol/preview.ts';
import { previewRoute, setPreviewRouteBase } from './route-base.ts';
import type { BuildState } from '../../shared/protocol/preview.ts';
import type { CompileProblem } from '../../shared/protocol/problem.ts';
import { describeThrownFrames } from './stack-map.ts';
import type { StackFrame } from './stack-map.ts';

export type PlayerStatus = 'connecting' | 'loading' | 'ready' | 'error';

/** What the composition threw, its stack mapped to the author's files. */
export interface RuntimeError {
  /** 'load': importing the build or making its model threw (nothing of it can play); 'draw': a frame threw. */
  phase: 'load' | 'draw';
  title: string;
  message: string;
  frames: StackFrame[];
}

export interface PlayerState {
  status: PlayerStatus;
  frame: number;
  total: number;
  fps: number;
  playing: boolean;
  width: number;
  height: number;
  title: string | undefined;
  /** The composition's own aspect (when it names one). */
  modelAspect: string | undefined;
  buildId: string | undefined;
  /** The build does not compile: where and why (the last good build is shown, paused). */
  problems: CompileProblem[];
  /** It compiled but threw while loading (the canvas is blanked) or drawing (paused on that frame). */
  runtimeError: RuntimeError | undefined;
  missing: MissingSource[];
  connected: boolean;
  /** The sound: muted or playing, and how many voices sound now. */
  sound: SoundState;
  /** The timeline the preview plays (for the size shown): what the studio's Timeline lists. */
  video: ResolvedVideo | undefined;
  /** Where the selected element is drawn on the frame shown, in canvas pixels; none when it is not. */
  selectionBox: DrawnBox | undefined;
  /** What the composition declares when it is a template (a JSON spec's or a template()'s variables). */
  declared: Variables | undefined;
  /** A JSON spec that does not check: each issue at its JSON pointer (the last good video keeps playing). */
  specIssues: SpecIssue[];
}

export interface DrawnBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Loaded {
  model: VideoModel;
  video: ResolvedVideo;
  env: DrawEnv;
  media: PreviewMedia;
}

export interface PlayerOptions {
  canvas: HTMLCanvasElement;
  /** /studio/preview/<key> */
  routeBase: string;
  projectFonts: FontFace[];
  /** Starts muted (until a user's click unmutes it, browsers keep pages silent anyway). */
  muted: boolean;
  /** The source is a JSON spec: its data is bound and checked as a render checks it. */
  spec?: boolean;
  /** The template's values to start with (see setVariables). */
  variables?: VariableValues;
  onState: (state: Partial<PlayerState>) => void;
}

let fontSheet: Promise<void> | undefined;

/** The bundled fonts' @font-face sheet, once per page; faces are loaded before the first frame. */
function loadFontSheet(): Promise<void> {
  fontSheet ??= new Promise<void>((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = previewRoute(PREVIEW_ROUTES.fontsCss);
    link.onload = () => resolve();
    link.onerror = () => resolve(); // text falls back to system fonts; the rest still plays
    document.head.append(link);
  }).then(() => loadBundledFonts());
  return fontSheet;
}

export class PreviewPlayer {
  readonly #options: PlayerOptions;
  readonly #ctx;
  readonly #clock = new PlaybackClock(30, 1);
  readonly #sound: PreviewSound;
  #aspect: AspectName | undefined;
  #loaded: Loaded | undefined;
  #events: EventSource | undefined;
  #raf = 0;
  #drawnFrame = -1;
  #dirty = true;
  #lastState: BuildState | undefined;
  #pending: BuildState | undefined;
  #applying = false;
  #disposed = false;
  #reportedFrame = -1;
  #reportedPlaying = false;
  #autoplay = true;
  /** The element whose drawn box is reported (an element key), and its box on the frame drawn. */
  #selected: string | undefined;
  #selectedBounds: FrameRect | undefined;
  #reportedBox = '';
  /** Bumped by every present: a slower, older one must not replace a newer one's picture. */
  #generation = 0;
  /** The latest build failed to load: the older one it replaces must not play on under the error. */
  #blanked = false;
  /** The last good build's default export, mounted again when the values change. */
  #exported: { buildId: string; value: unknown } | undefined;
  #values: VariableValues;
  /** Mounts run one after another, in the order asked. */
  #mounting: Promise<void> = Promise.resolve();

  constructor(options: PlayerOptions) {
    this.#options = options;
    this.#values = options.variables ?? {};
    this.#ctx = context2d(options.canvas);
    this.#sound = new PreviewSound(options.muted, (sound) => options.onState({ sound }));
    setPreviewRouteBase(options.routeBase);
  }

  start(): void {
    this.#options.onState({ status: 'connecting' });
    const events = new EventSource(previewRoute(PREVIEW_ROUTES.events));
    events.addEventListener(BUILD_EVENT, (event) => {
      void this.#enqueue(JSON.parse((event as MessageEvent<string>).data) as BuildState);
    });
    events.addEventListener('error', () => this.#options.onState({ connected: false }));
    events.addEventListener('open', () => this.#options.onState({ connected: true }));
    this.#events = events;
    this.#raf = requestAnimationFrame((now) => this.#animate(now));
  }

  dispose(): void {
    this.#disposed = true;
    cancelAnimationFrame(this.#raf);
    this.#events?.close();
    this.#loaded?.media.dispose();
    this.#sound.dispose();
  }

  get frame(): number {
    return this.#clock.frame;
  }

  play(): void {
    this.#act((now) => this.#clock.play(now));
  }

  /** Rate, loop and the range playback stays in (the studio's speed and in/out points). */
  configure(settings: PlaybackSettings): void {
    this.#act((now) => this.#clock.configure(settings, now));
  }

  /** Reports where the element with this key is drawn (selectionBox) on every frame shown. */
  select(key: string | undefined): void {
    this.#selected = key;
    this.#dirty = true;
  }

  togglePlay(): void {
    this.#act((now) => (this.#clock.playing ? this.#clock.pause(now) : this.#clock.play(now)));
  }

  pause(): void {
    this.#act((now) => this.#clock.pause(now));
  }

  seek(frame: number): void {
    this.#act((now) => this.#clock.seek(frame, now));
  }

  step(delta: number): void {
    this.#act((now) => {
      this.#clock.pause(now);
      this.#clock.seek(this.#clock.frame + delta, now);
    });
  }

  /** Call from the user's click: browsers start a page's audio only inside a gesture. */
  setMuted(muted: boolean): void {
    this.#sound.setMuted(muted);
    this.#followSound(true);
  }

  /** Shows another of the composition's sizes, as `kino render --aspect` would render it. */
  async setAspect(aspect: AspectName | undefined): Promise<void> {
    this.#aspect = aspect;
    // Under a load error the model at hand is the older build's: it must not come back on screen.
    if (this.#loaded && !this.#blanked) await this.#present(this.#loaded.model);
  }

  /** Draws the template with these values (unset ones take their defaults), as a render would. */
  setVariables(values: VariableValues): void {
    this.#values = values;
    const exported = this.#exported;
    // A build that does not compile keeps its problems on screen: the values wait for the next one.
    if (exported && this.#lastState?.ok && this.#lastState.id === exported.buildId)
      this.#mounting = this.#mounting.then(() => this.#mount(exported.buildId, exported.value));
  }

  /** The next build loads paused on its current frame (Inspect frame seeks before it arrives). */
  holdPlayback(): void {
    this.#autoplay = false;
  }

  #act(intent: (now: number) => void): void {
    intent(performance.now());
    this.#dirty = true;
    this.#report(true);
    this.#followSound(true);
  }

  #followSound(force: boolean): void {
    const clock = this.#clock;
    this.#sound.follow(clock.frame / clock.fps, clock.playing && !!this.#loaded, clock.rate, force);
  }

  #report(force = false): void {
    const frame = this.#clock.frame;
    const playing = this.#clock.playing;
    if (!force && frame === this.#reportedFrame && playing === this.#reportedPlaying) return;
    this.#reportedFrame = frame;
    this.#reportedPlaying = playing;
    this.#options.onState({ frame, playing, total: this.#clock.total, fps: this.#clock.fps });
  }

  #animate(now: number): void {
    if (this.#disposed) return;
    const frame = this.#clock.tick(now);
    if (frame !== this.#drawnFrame || this.#dirty) {
      this.#dirty = false;
      this.#drawnFrame = frame;
      this.#draw(frame);
    }
    this.#report();
    this.#followSound(false);
    this.#raf = requestAnimationFrame((next) => this.#animate(next));
  }

  #draw(frame: number): void {
    const loaded = this.#loaded;
    if (!loaded || this.#blanked) return;
    try {
      loaded.media.sync(frame, this.#clock.playing, this.#clock.rate);
      this.#selectedBounds = undefined;
      drawFrame(this.#ctx, loaded.video, frame, loaded.env);
      this.#reportSelection();
    } catch (error) {
      // An author's custom draw threw: stop on that frame rather than throw 60 times a second.
      this.#clock.pause(performance.now());
      void describeThrownFrames(error).then((thrown) =>
        this.#options.onState({
          status: 'error',
          runtimeError: {
            phase: 'draw',
            title: `The composition threw while drawing frame ${frame}`,
            ...thrown,
          },
        }),
      );
    }
  }

  async #enqueue(state: BuildState): Promise<void> {
    this.#pending = state;
    if (this.#applying) return;
    this.#applying = true;
    while (this.#pending && !this.#disposed) {
      const next = this.#pending;
      this.#pending = undefined;
      await this.#apply(next);
    }
    this.#applying = false;
  }

  async #apply(state: BuildState): Promise<void> {
    if (state.id === this.#lastState?.id) return; // a reconnect repeats the current state
    this.#lastState = state;
    if (!state.ok) {
      // The picture of the last good build stays, paused: it is not what the source says any more.
      this.#pauseUntilFixed();
      this.#report(true);
      this.#options.onState({
        status: 'error',
        problems: state.problems,
        runtimeError: undefined,
        specIssues: [],
        buildId: state.id,
      });
      return;
    }
    this.#options.onState({ status: 'loading' });
    let exported: unknown;
    try {
      exported = await importExport(state.id);
    } catch (error) {
      this.#loadFailed(state.id, error);
      return;
    }
    this.#exported = { buildId: state.id, value: exported };
    this.#options.onState({ declared: declaredVariables(exported, this.#options.spec) });
    const mounted = this.#mounting.then(() => this.#mount(state.id, exported));
    this.#mounting = mounted;
    await mounted;
  }

  async #mount(buildId: string, exported: unknown): Promise<void> {
    if (this.#disposed || this.#exported?.buildId !== buildId) return;
    let model: VideoModel;
    try {
      model = await mountExport(exported, this.#declaredValues(exported), this.#options.spec);
    } catch (error) {
      // Values that do not fit: the form says why; the last good picture stays.
      const aboutValues =
        error instanceof VariableBindingError && error.issues.every((issue) => issue.in === 'variables');
      if (aboutValues) {
        this.#options.onState({ status: 'ready', buildId, specIssues: [] });
        return;
      }
      const specIssues =
        error instanceof SpecValidationError || error instanceof VariableBindingError ? error.issues : [];
      if (this.#options.spec && specIssues.length > 0) {
        // As with a compile error: the last good picture stays, paused, under the issues.
        this.#pauseUntilFixed();
        this.#report(true);
        this.#options.onState({
          status: 'error',
          problems: [],
          runtimeError: undefined,
          specIssues,
          buildId,
        });
        return;
      }
      this.#loadFailed(buildId, error);
      return;
    }
    try {
      await this.#present(model);
      this.#options.onState({
        status: 'ready',
        problems: [],
        runtimeError: undefined,
        specIssues: [],
        buildId,
      });
    } catch (error) {
      this.#loadFailed(buildId, error);
    }
  }

  /** The values of variables this build declares: an edit may have removed one the form still holds. */
  #declaredValues(exported: unknown): VariableValues {
    const declared = declaredVariables(exported, this.#options.spec) ?? {};
    return Object.fromEntries(Object.entries(this.#values).filter(([name]) => Object.hasOwn(declared, name)));
  }

  #loadFailed(buildId: string, error: unknown): void {
    this.#blank();
    void describeThrownFrames(error).then((described) =>
      this.#options.onState({
        status: 'error',
        problems: [],
        specIssues: [],
        buildId,
        runtimeError: { phase: 'load', title: 'The composition failed to load', ...described },
      }),
    );
  }

  /** Pauses under an error; the build that fixes it plays on if this one was playing. */
  #pauseUntilFixed(): void {
    if (this.#clock.playing) this.#autoplay = true;
    this.#clock.pause(performance.now());
  }

  /** Stops and clears the picture: nothing of a build that does not load can be shown. */
  #blank(): void {
    this.#blanked = true;
    this.#pauseUntilFixed();
    this.#loaded?.media.sync(this.#clock.frame, false);
    const canvas = this.#options.canvas;
    canvas.getContext('2d')?.clearRect(0, 0, canvas.width, canvas.height);
    this.#report(true);
  }

  async #present(model: VideoModel): Promise<void> {
    const generation = ++this.#generation;
    const video = resolveTimeline(model, this.#aspect ? { aspect: this.#aspect } : {});
    await loadFontSheet();
    const missingFonts = await loadCustomFonts([...this.#options.projectFonts, ...(model.fonts ?? [])]);
    const [media, code, missingSounds] = await Promise.all([
      PreviewMedia.load(planMedia(video), video.fps, () => (this.#dirty = true)),
      loadHighlighterFor(model),
      this.#sound.setVideo(video.audio, video.durationSeconds),
    ]);
    if (this.#disposed || generation !== this.#generation) {
      media.dispose();
      return;
    }
    this.#loaded?.media.dispose();
    this.#blanked = false;
    // Review's observe hook, only while an element is selected: the box inspect reports, at no cost otherwise.
    const observe = (drawn: DrawnElement) => this.#observe(drawn);
    const selected = () => this.#selected !== undefined;
    const review = {
      get observe() {
        return selected() ? observe : undefined;
      },
    };
    const env = createBrowserDrawEnv(video.size, video.fps, media, code, review);
    this.#loaded = { model, video, env, media };
    const canvas = this.#options.canvas;
    if (canvas.width !== video.size.width) canvas.width = video.size.width;
    if (canvas.height !== video.size.height) canvas.height = video.size.height;
    const now = performance.now();
    this.#clock.retime(video.fps, video.durationFrames, now);
    if (this.#autoplay) {
      this.#autoplay = false;
      this.#clock.play(now);
    }
    this.#dirty = true;
    this.#options.onState({
      width: video.size.width,
      height: video.size.height,
      title: model.title,
      modelAspect: typeof model.aspect === 'string' ? model.aspect : undefined,
      missing: [...missingFonts, ...media.missing, ...missingSounds],
      video,
    });
    this.#report(true);
    // Not forced: a build that changed no sound keeps its voices (setVideo stopped them otherwise).
    this.#followSound(false);
  }

  #observe(drawn: DrawnElement): void {
    if (drawn.key !== this.#selected) return;
    const b = transformedBounds(drawn.box, drawn.transform);
    const had = this.#selectedBounds;
    this.#selectedBounds = had
      ? {
          x0: Math.min(had.x0, b.x0),
          y0: Math.min(had.y0, b.y0),
          x1: Math.max(had.x1, b.x1),
          y1: Math.max(had.y1, b.y1),
        }
      : b;
  }

  #reportSelection(): void {
    const b = this.#selectedBounds;
    const box = b ? { x: b.x0, y: b.y0, width: b.x1 - b.x0, height: b.y1 - b.y0 } : undefined;
    const id = box ? `${box.x},${box.y},${box.width},${box.height}` : '';
    if (id === this.#reportedBox) return;
    this.#reportedBox = id;
    this.#options.onState({ selectionBox: box });
  }
}
