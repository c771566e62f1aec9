// The preview page: plays the composition on a canvas with the shared drawing code, and swaps in each
// new build the server announces, keeping the frame on screen.
import { drawFrame } from '../../shared/draw/frame.ts';
import type { DrawEnv } from '../../shared/canvas/types.ts';
import { ASPECT_NAMES } from '../../shared/spec/sizes.ts';
import type { AspectName } from '../../shared/spec/sizes.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import type { ResolvedVideo } from '../../shared/timeline/types.ts';
import { context2d, createBrowserDrawEnv } from './browser-env.ts';
import { loadHighlighterFor } from '../../shared/code/highlighter.ts';
import { Controls } from './controls.ts';
import { ErrorOverlay } from './error-overlay.ts';
import { loadBundledFonts, loadCustomFonts } from './fonts.ts';
import { importModel } from './load-composition.ts';
import { planMedia } from '../../shared/timeline/media-plan.ts';
import { PlaybackClock } from './playback-clock.ts';
import { PreviewMedia } from './preview-media.ts';
import { PreviewSound } from './preview-sound.ts';
import type { MissingSource } from './preview-media.ts';
import { BUILD_EVENT, CONFIG_ELEMENT_ID, PREVIEW_ROUTES } from '../../shared/protocol/preview.ts';
import type { BuildState, PreviewConfig } from '../../shared/protocol/preview.ts';
import { describeThrown } from './stack-map.ts';
import { previewRoute, setPreviewRouteBase } from './route-base.ts';

// The server puts every route under the page's own folder (a session key): reach them from there.
setPreviewRouteBase(new URL('.', location.href).pathname);

interface Loaded {
  video: ResolvedVideo;
  env: DrawEnv;
  media: PreviewMedia;
}

const config = JSON.parse(document.getElementById(CONFIG_ELEMENT_ID)?.textContent ?? '{}') as PreviewConfig;
const params = new URLSearchParams(location.search);
/** ?aspect=square previews another of the composition's sizes, as `kino render --aspect` would. */
const aspect = ASPECT_NAMES.find((name) => name === params.get('aspect')) as AspectName | undefined;

const canvas = document.getElementById('canvas') as HTMLCanvasElement;
const ctx = context2d(canvas);
const overlay = new ErrorOverlay(document.getElementById('error-overlay')!);
const clock = new PlaybackClock(30, 1);
// ?frame=<n> starts there, ?paused on a still frame: handy for links and screenshots.
let firstLoad = true;

let loaded: Loaded | undefined;
let shownBuild: string | undefined;
let drawnFrame = -1;
/** Something besides the frame number changed (a new build, a video seek landed). */
let dirty = true;
let missingMedia: MissingSource[] = [];

/** Muted until a click unmutes it (browsers start audio only from a gesture); kept for the tab. */
const MUTED_KEY = 'kino.preview.muted';
let muted = sessionStorage.getItem(MUTED_KEY) !== 'false';

function followSound(force: boolean): void {
  sound.follow(clock.frame / clock.fps, clock.playing && loaded !== undefined, clock.rate, force);
}

/** Runs a control's intent and shows its effect at once rather than on the next animation frame. */
function act(intent: (now: number) => void): () => void {
  return () => {
    intent(performance.now());
    dirty = true; // redraw even on the same frame: videos must pause or play along
    controls.show(clock.frame, clock.total, clock.fps, clock.playing);
    followSound(true);
  };
}

const controls: Controls = new Controls({
  togglePlay: act((now) => (clock.playing ? clock.pause(now) : clock.play(now))),
  seek: (frame) => act((now) => clock.seek(frame, now))(),
  step: (delta) =>
    act((now) => {
      clock.pause(now);
      clock.seek(clock.frame + delta, now);
    })(),
  toggleMute: () => {
    muted = !muted;
    sessionStorage.setItem(MUTED_KEY, String(muted));
    sound.setMuted(muted);
    followSound(true);
  },
});
// After the controls it reports to (the constructor reports at once).
const sound = new PreviewSound(muted, (state) => controls.sound(muted, state));

function setStatus(status: 'loading' | 'ready' | 'error'): void {
  document.body.dataset.status = status;
}

function drawCurrent(frame: number): void {
  if (!loaded) return;
  try {
    loaded.media.sync(frame, clock.playing);
    drawFrame(ctx, loaded.video, frame, loaded.env);
  } catch (error) {
    // An author's custom draw threw: stop on that frame rather than throw 60 times a second.
    clock.pause(performance.now());
    setStatus('error');
    void describeThrown(error).then((text) =>
      overlay.showError(`The composition threw while drawing frame ${frame}`, text),
    );
  }
}

function animate(now: number): void {
  const frame = clock.tick(now);
  if (frame !== drawnFrame || dirty) {
    dirty = false;
    drawnFrame = frame;
    drawCurrent(frame);
  }
  controls.show(frame, clock.total, clock.fps, clock.playing);
  followSound(false);
  // Tests and scripts read the frame shown from here.
  if (document.body.dataset.frame !== String(frame)) document.body.dataset.frame = String(frame);
  requestAnimationFrame(animate);
}

function showMissing(missing: MissingSource[]): void {
  missingMedia = missing;
  if (missing.length === 0) return controls.status('');
  const detail = missing.map((m) => `${m.src}: ${m.message}`).join('\n');
  controls.status(
    `${missing.length} source${missing.length === 1 ? '' : 's'} missing (hover for why)`,
    detail,
  );
  console.warn(`Kino preview: drawn without\n${detail}`);
}

async function load(state: BuildState & { ok: true }): Promise<void> {
  const model = await importModel(state.id);
  const video = resolveTimeline(model, aspect ? { aspect } : {});
  await loadBundledFonts();
  const missingFonts = await loadCustomFonts([...config.projectFonts, ...(model.fonts ?? [])]);
  const [media, code, missingSounds] = await Promise.all([
    PreviewMedia.load(planMedia(video), video.fps, () => (dirty = true)),
    loadHighlighterFor(model),
    sound.setVideo(video.audio, video.durationSeconds),
  ]);
  loaded?.media.dispose();
  loaded = { video, env: createBrowserDrawEnv(video.size, video.fps, media, code), media };
  if (canvas.width !== video.size.width) canvas.width = video.size.width;
  if (canvas.height !== video.size.height) canvas.height = video.size.height;
  clock.retime(video.fps, video.durationFrames, performance.now());
  if (firstLoad) {
    firstLoad = false;
    clock.seek(Number(params.get('frame') ?? 0) || 0, performance.now());
    if (!params.has('paused')) clock.play(performance.now());
  }
  document.title = `${model.title ?? config.file} · Kino preview`;
  showMissing([...missingFonts, ...media.missing, ...missingSounds]);
}

async function apply(state: BuildState): Promise<void> {
  if (state.id === shownBuild) return; // a reconnect repeats the current state
  setStatus('loading');
  try {
    if (!state.ok) {
      // The last good build keeps playing underneath, so the fix can be seen as soon as it compiles.
      overlay.showProblems('The composition does not compile', state.problems);
      setStatus('error');
      return;
    }
    await load(state);
    overlay.hide();
    dirty = true;
    setStatus('ready');
  } catch (error) {
    overlay.showError('The composition failed to load', await describeThrown(error));
    setStatus('error');
  } finally {
    shownBuild = state.id;
    document.body.dataset.build = state.id;
  }
}

/** Builds arrive faster than they load while someone types: load them one at a time, newest last. */
let pending: BuildState | undefined;
let applying = false;
async function enqueue(state: BuildState): Promise<void> {
  pending = state;
  if (applying) return;
  applying = true;
  while (pending) {
    const next = pending;
    pending = undefined;
    await apply(next);
  }
  applying = false;
}

const events = new EventSource(previewRoute(PREVIEW_ROUTES.events));
events.addEventListener(BUILD_EVENT, (event) => {
  void enqueue(JSON.parse((event as MessageEvent<string>).data) as BuildState);
});
events.addEventListener('error', () => controls.status('disconnected from kino preview: retrying'));
events.addEventListener('open', () => showMissing(missingMedia));

requestAnimationFrame(animate);
