// The studio's live preview: plays the composition on a canvas with the shared drawing code (the same
// modules as `kino preview`), and swaps in every new build the workspace announces, keeping the frame.
// It lives outside React: it owns a requestAnimationFrame loop and tells the preview store what it shows.
import { drawFrame } from '../../shared/draw/frame.ts';
import type { DrawEnv } from '../../shared/canvas/types.ts';
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
import { PreviewMedia } from './preview-media.ts';
import type { MissingSource } from './preview-media.ts';
import { BUILD_EVENT, PREVIEW_ROUTES } from '../../shared/protocol/preview.ts';
import { previewRoute, setPreviewRouteBase } from './route-base.ts';
import type { BuildState } from '../../shared/protocol/preview.ts';
import type { CompileProblem } from '../../shared/protocol/problem.ts';
import { describeThrown } from './stack-map.ts';

export type PlayerStatus = 'connecting' | 'loading' | 'ready' | 'error';

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
  /** The build does not compile: where and why (the last good build keeps playing). */
  problems: CompileProblem[];
  /** It compiled but threw while loading or drawing. */
  runtimeError: { title: string; detail: string } | undefined;
  missing: MissingSource[];
  connected: boolean;
  /** What the composition declares when it is a template (a JSON spec's or a template()'s variables). */
  declared: Variables | undefined;
  /** A JSON spec that does not check: each issue at its JSON pointer (the last good video keeps playing). */
  specIssues: SpecIssue[];
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
  /** Bumped by every present: a slower, older one must not replace a newer one's picture. */
  #generation = 0;
  /** The last good build's default export, mounted again when the values change. */
  #exported: { buildId: string; value: unknown } | undefined;
  #values: VariableValues;
  /** Mounts run one after another, in the order asked. */
  #mounting: Promise<void> = Promise.resolve();

  constructor(options: PlayerOptions) {
    this.#options = options;
    this.#values = options.variables ?? {};
    this.#ctx = context2d(options.canvas);
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
  }

  get frame(): number {
    return this.#clock.frame;
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

  /** Shows another of the composition's sizes, as `kino render --aspect` would render it. */
  async setAspect(aspect: AspectName | undefined): Promise<void> {
    this.#aspect = aspect;
    if (this.#loaded) await this.#present(this.#loaded.model);
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
    this.#raf = requestAnimationFrame((next) => this.#animate(next));
  }

  #draw(frame: number): void {
    const loaded = this.#loaded;
    if (!loaded) return;
    try {
      loaded.media.sync(frame, this.#clock.playing);
      drawFrame(this.#ctx, loaded.video, frame, loaded.env);
    } catch (error) {
      // An author's custom draw threw: stop on that frame rather than throw 60 times a second.
      this.#clock.pause(performance.now());
      void describeThrown(error).then((detail) =>
        this.#options.onState({
          status: 'error',
          runtimeError: { title: `The composition threw while drawing frame ${frame}`, detail },
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
      this.#options.onState({ status: 'error', problems: state.problems, specIssues: [], buildId: state.id });
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
    void describeThrown(error).then((detail) =>
      this.#options.onState({
        status: 'error',
        problems: [],
        specIssues: [],
        buildId,
        runtimeError: { title: 'The composition failed to load', detail },
      }),
    );
  }

  async #present(model: VideoModel): Promise<void> {
    const generation = ++this.#generation;
    const video = resolveTimeline(model, this.#aspect ? { aspect: this.#aspect } : {});
    await loadFontSheet();
    const missingFonts = await loadCustomFonts([...this.#options.projectFonts, ...(model.fonts ?? [])]);
    const [media, code] = await Promise.all([
      PreviewMedia.load(planMedia(video), video.fps, () => (this.#dirty = true)),
      loadHighlighterFor(model),
    ]);
    if (this.#disposed || generation !== this.#generation) {
      media.dispose();
      return;
    }
    this.#loaded?.media.dispose();
    this.#loaded = { model, video, env: createBrowserDrawEnv(video.size, video.fps, media, code), media };
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
      missing: [...missingFonts, ...media.missing],
    });
    this.#report(true);
  }
}
