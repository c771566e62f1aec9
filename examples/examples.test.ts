// The examples project: its config resolves, its specs validate and fit every aspect, together they
// show every part of the spec, and the sample media are what the specs and compositions expect.
import { execFile } from 'node:child_process';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { ffmpegPath, ffprobePath } from '../main/ffmpeg/binaries.ts';
import { loadProject } from '../main/project/load.ts';
import { loadSpecFile, resolveKey } from '../main/project/resolve-input.ts';
import { projectContext } from '../main/engine/project-context.ts';
import { reviewComposition } from '../main/review/review-composition.ts';
import { ELEMENT_KINDS } from '../shared/spec/elements.ts';
import { parseProjectConfig } from '../shared/project/config.ts';
import type { Background } from '../shared/spec/background.ts';
import type { ModelElement, VideoModel } from '../shared/spec/model.ts';
import { ANIMATION_PRESETS } from '../shared/spec/primitives.ts';
import { TRANSITION_TYPES } from '../shared/spec/schema.ts';
import { ASPECT_NAMES } from '../shared/spec/sizes.ts';
import { parseSpec } from '../shared/spec/validate.ts';
import { bindVariables } from '../shared/spec/variables.ts';
import { resolveTimeline } from '../shared/timeline/resolve.ts';

const run = promisify(execFile);
const examplesDir = fileURLToPath(new URL('.', import.meta.url));
const assetsDir = path.join(examplesDir, 'assets');
const SPEC_NAMES = [
  'launch',
  'travel',
  'stats',
  'promo-square',
  'promo-landscape',
  'captions-subtitle',
  'captions-pop',
  'captions-karaoke',
  'text-effects',
  'chart-story',
  'code-walkthrough',
  'product-explainer',
];
/** Specs with variables: checked and reviewed with their defaults. */
const TEMPLATE_SPEC_NAMES = ['product-promo', 'quote-card', 'talking-head'];
const COMPOSITION_KEYS = [
  'product-launch',
  'travel-reel',
  'data-story',
  'brand-intro',
  'interview-clip',
  'stats-recap',
  'release-notes',
];

async function loadSpecs(): Promise<Map<string, VideoModel>> {
  const specs = new Map<string, VideoModel>();
  for (const name of SPEC_NAMES)
    specs.set(name, await loadSpecFile(path.join(examplesDir, 'specs', `${name}.json`)));
  return specs;
}

function elementsOf(model: VideoModel): ModelElement[] {
  const walk = (list: readonly ModelElement[]): ModelElement[] =>
    list.flatMap((element) => [element, ...(element.type === 'group' ? walk(element.children) : [])]);
  return walk(model.scenes.flatMap((scene) => scene.elements ?? []));
}

function backgroundKind(background: Background): string {
  return typeof background === 'string' ? 'color' : background.type;
}

/** Every "asset:" source a file mentions, whether JSON or code. */
function assetReferences(text: string): string[] {
  return [...text.matchAll(/asset:([A-Za-z0-9_./-]+)/g)].map((match) => match[1]!);
}

async function probe(file: string): Promise<{
  format: { duration: string };
  streams: {
    codec_type: string;
    codec_name: string;
    width?: number;
    height?: number;
    r_frame_rate?: string;
  }[];
}> {
  const { stdout } = await run(ffprobePath(), [
    '-v',
    'error',
    '-show_format',
    '-show_streams',
    '-of',
    'json',
    file,
  ]);
  return JSON.parse(stdout);
}

async function peakDb(file: string): Promise<number> {
  const { stderr } = await run(ffmpegPath(), [
    '-hide_banner',
    '-i',
    file,
    '-af',
    'volumedetect',
    '-f',
    'null',
    '-',
  ]);
  const match = /max_volume: (-?[\d.]+) dB/.exec(stderr);
  if (!match) throw new Error(`no volume reading for ${file}`);
  return Number(match[1]);
}

describe('kino.json', () => {
  it('validates and registers the specs and the code compositions, each an existing file', async () => {
    const raw: unknown = JSON.parse(await readFile(path.join(examplesDir, 'kino.json'), 'utf8'));
    expect(parseProjectConfig(raw).ok).toBe(true);
    const project = await loadProject(examplesDir);
    expect([...project.compositions.keys()].sort()).toEqual(
      [...SPEC_NAMES, ...TEMPLATE_SPEC_NAMES, ...COMPOSITION_KEYS].sort(),
    );
    for (const [key, file] of project.compositions) {
      const found = await stat(file).catch(() => undefined);
      expect(found?.isFile(), `${key} → ${file}`).toBe(true);
    }
    expect(project.assetsDir).toBe(assetsDir);
  });
});

describe('example specs', () => {
  it.each([...SPEC_NAMES, ...TEMPLATE_SPEC_NAMES])(
    '%s validates, and lasts 6–12 s in every aspect',
    async (name) => {
      const file = path.join(examplesDir, 'specs', `${name}.json`);
      const raw: unknown = JSON.parse(await readFile(file, 'utf8'));
      // A template validates once its variables are bound (here to their defaults).
      const bound = bindVariables(raw);
      expect(bound.ok && parseSpec(bound.spec).ok).toBe(true);
      const model = await loadSpecFile(file); // schema + timeline checks
      for (const aspect of ASPECT_NAMES) {
        const { durationSeconds } = resolveTimeline(model, { aspect });
        expect(durationSeconds).toBeGreaterThanOrEqual(6);
        expect(durationSeconds).toBeLessThanOrEqual(12);
      }
    },
  );

  it('together show every element, background, transition and animation preset', async () => {
    const specs = [...(await loadSpecs()).values()];
    const elements = specs.flatMap(elementsOf);
    expect(new Set(elements.map((element) => element.type))).toEqual(
      new Set(ELEMENT_KINDS.map((definition) => definition.type)),
    );
    const backgrounds = specs.flatMap((spec) => [
      ...(spec.background ? [spec.background] : []),
      ...spec.scenes.flatMap((scene) => (scene.background ? [scene.background] : [])),
    ]);
    expect(new Set(backgrounds.map(backgroundKind))).toEqual(
      new Set(['color', 'linear', 'radial', 'image', 'video', 'noise']),
    );
    const transitions = specs.flatMap((spec) => spec.scenes.flatMap((scene) => scene.transition?.type ?? []));
    expect(new Set(transitions)).toEqual(new Set(TRANSITION_TYPES));
    const presets = elements.flatMap((element) =>
      (element.animate ?? []).map((animation) => animation.preset),
    );
    expect(new Set(presets)).toEqual(new Set(ANIMATION_PRESETS));
  });

  it('use springs, stagger, every kind of trigger, repeats and keyframes on numbers and colors', async () => {
    const specs = [...(await loadSpecs()).values()];
    const elements = specs.flatMap(elementsOf);
    const animations = elements.flatMap((element) => element.animate ?? []);
    const triggers = animations
      .map((animation) => animation.trigger)
      .filter((trigger) => trigger !== undefined);
    expect(triggers).toContain('sceneEnd');
    expect(triggers.some((trigger) => typeof trigger === 'object' && 'at' in trigger)).toBe(true);
    expect(triggers.some((trigger) => typeof trigger === 'object' && 'after' in trigger)).toBe(true);
    expect(
      animations.some((animation) => typeof animation.easing === 'object' && 'spring' in animation.easing),
    ).toBe(true);
    expect(animations.some((animation) => animation.repeat !== undefined)).toBe(true);
    expect(animations.some((animation) => animation.preset === 'wordByWord' && animation.stagger)).toBe(true);
    expect(elements.some((element) => element.type === 'group' && element.stagger !== undefined)).toBe(true);
    const keyframeValues = elements.flatMap((element) =>
      Object.values(element.keyframes ?? {}).flatMap((track) =>
        (track ?? []).map((keyframe) => keyframe.value),
      ),
    );
    expect(keyframeValues.some((value) => typeof value === 'number')).toBe(true);
    expect(keyframeValues.some((value) => typeof value === 'string')).toBe(true);
  });

  it('mix music, sound effects and a clip’s own audio', async () => {
    const specs = [...(await loadSpecs()).values()];
    expect(specs.some((spec) => (spec.audio ?? []).some((track) => track.src.includes('music')))).toBe(true);
    expect(specs.some((spec) => spec.scenes.some((scene) => (scene.audio ?? []).length > 0))).toBe(true);
    const clips = specs.flatMap(elementsOf).filter((element) => element.type === 'clip');
    expect(clips.some((clip) => !clip.muted)).toBe(true);
  });
});

describe('sample media', () => {
  it('every asset: reference in specs and compositions names an existing file', async () => {
    const files = [
      ...[...SPEC_NAMES, ...TEMPLATE_SPEC_NAMES].map((name) =>
        path.join(examplesDir, 'specs', `${name}.json`),
      ),
      ...(await readdir(path.join(examplesDir, 'compositions')).catch(() => []))
        .filter((name) => name.endsWith('.ts'))
        .map((name) => path.join(examplesDir, 'compositions', name)),
    ];
    const missing: string[] = [];
    for (const file of files) {
      for (const asset of assetReferences(await readFile(file, 'utf8'))) {
        if (!(await stat(path.join(assetsDir, asset)).catch(() => undefined)))
          missing.push(`${file}: ${asset}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('stay small', async () => {
    const names = await readdir(assetsDir);
    const sizes = await Promise.all(names.map(async (name) => (await stat(path.join(assetsDir, name))).size));
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThan(3 * 1024 * 1024);
  });

  it('photos are 1600×1067 and the logo is an 800×800 mark on a transparent ground', async () => {
    for (const name of ['photo-mountains.jpg', 'photo-city.jpg']) {
      const photo = await loadImage(path.join(assetsDir, name));
      expect([photo.width, photo.height]).toEqual([1600, 1067]);
    }
    const logo = await loadImage(path.join(assetsDir, 'logo.png'));
    expect([logo.width, logo.height]).toEqual([800, 800]);
    const ctx = createCanvas(800, 800).getContext('2d');
    ctx.drawImage(logo, 0, 0);
    const alphaAt = (x: number, y: number) => ctx.getImageData(x, y, 1, 1).data[3];
    expect(alphaAt(4, 4)).toBe(0);
    expect(alphaAt(400, 290)).toBe(255);
  });

  it('the clip is 4 s of 1280×720 H.264 at 30 fps with AAC sound', async () => {
    const info = await probe(path.join(assetsDir, 'clip-waves.mp4'));
    const video = info.streams.find((stream) => stream.codec_type === 'video');
    const audio = info.streams.find((stream) => stream.codec_type === 'audio');
    expect(video).toMatchObject({ codec_name: 'h264', width: 1280, height: 720, r_frame_rate: '30/1' });
    expect(audio?.codec_name).toBe('aac');
    expect(Number(info.format.duration)).toBeCloseTo(4, 1);
  });

  it('the music is an 8 s AAC loop peaking below -3 dBFS', async () => {
    const file = path.join(assetsDir, 'music-loop.m4a');
    const info = await probe(file);
    expect(info.streams[0]?.codec_name).toBe('aac');
    expect(Number(info.format.duration)).toBeCloseTo(8, 1);
    expect(await peakDb(file)).toBeLessThan(-3);
  });

  it.each([
    ['whoosh.wav', 0.4, 0.8],
    ['click.wav', 0.01, 0.2],
    ['voice-hello.wav', 0.8, 3],
  ])('%s is a short sound (%s–%s s) that does not clip', async (name, min, max) => {
    const file = path.join(assetsDir, name);
    const duration = Number((await probe(file)).format.duration);
    expect(duration).toBeGreaterThan(min);
    expect(duration).toBeLessThan(max);
    const peak = await peakDb(file);
    expect(peak).toBeLessThan(-0.5);
    expect(peak).toBeGreaterThan(-20);
  });
});

// Examples are what users copy: each passes its own review with no warning or error (issue 12).
describe('every example passes review', () => {
  const project = loadProject(examplesDir);
  it.each([...COMPOSITION_KEYS, ...SPEC_NAMES, ...TEMPLATE_SPEC_NAMES])(
    '%s: no warnings, no errors',
    async (key) => {
      const loaded = await project;
      const { model } = await resolveKey(key, examplesDir);
      const review = await reviewComposition({
        model,
        project: await projectContext(loaded),
        samples: 12,
      });
      const problems = review.drafts.map(
        (draft) => `${draft.severity} ${draft.code} at frame ${draft.startFrame}: ${draft.message}`,
      );
      expect(problems).toEqual([]);
    },
  );
});
