// Makes every font a render uses available to Skia before the first frame is drawn.
import { isTextualType } from '../../shared/spec/elements.ts';
import { registerBundledFonts, registerFontFile } from '../fonts/register.ts';
import { BUNDLED_FAMILIES, isBundledFamily } from '../../shared/fonts/fonts.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import { elementLists } from '../../shared/spec/element-lists.ts';
import { KinoInputError } from '../project/input-error.ts';
import { MediaError } from '../media/media-error.ts';
import { resolveMediaSource } from '../media/source.ts';
import type { RenderProjectContext } from './project-context.ts';

const registered = new Set<string>();

/** A font file the project or the spec declared, as loaded for the render. */
export interface FontFileUse {
  role: 'font';
  family: string;
  source: string;
  path: string;
}

/**
 * With `onMissing`, a font file that cannot be had is reported there instead of failing. Returns the
 * declared font files loaded (the bundled families are Kino's own and not listed).
 */
export async function prepareFonts(
  model: VideoModel,
  project: RenderProjectContext,
  signal?: AbortSignal,
  onMissing?: (src: string, error: MediaError) => void,
): Promise<FontFileUse[]> {
  registerBundledFonts();
  const loaded: FontFileUse[] = [];
  for (const face of [...project.fonts, ...(model.fonts ?? [])]) {
    let path: string;
    try {
      ({ path } = await resolveMediaSource(face.src, project.media, signal));
    } catch (error) {
      if (!onMissing || !(error instanceof MediaError)) throw error;
      onMissing(face.src, error);
      continue;
    }
    loaded.push({ role: 'font', family: face.family, source: face.src, path });
    const key = `${face.family}\n${path}`;
    if (registered.has(key)) continue;
    registerFontFile(path, face.family);
    registered.add(key);
  }
  if (!onMissing) assertFontsKnown(model, project);
  return loaded;
}

/**
 * Each text-drawing element's font families, at the pointer of each `font` field (its own and its
 * per-aspect overrides'), groups included.
 */
function textFonts(model: VideoModel): { family: string; pointer: string }[] {
  const found: { family: string; pointer: string }[] = [];
  const pending = elementLists<unknown>(model).map((list) => ({ elements: list.elements, at: list.pointer }));
  for (let next = pending.pop(); next; next = pending.pop()) {
    next.elements.forEach((element, index) => {
      const { type, font, children, aspects } = element as {
        type?: string;
        font?: unknown;
        children?: unknown;
        aspects?: Record<string, { font?: unknown } | undefined>;
      };
      const at = `${next.at}/${index}`;
      if (type && isTextualType(type)) {
        if (typeof font === 'string') found.push({ family: font, pointer: `${at}/font` });
        for (const [aspect, patch] of Object.entries(aspects ?? {})) {
          if (typeof patch?.font === 'string')
            found.push({ family: patch.font, pointer: `${at}/aspects/${aspect}/font` });
        }
      }
      if (Array.isArray(children)) pending.push({ elements: children, at: `${at}/children` });
    });
  }
  return found;
}

/**
 * A family that is neither bundled nor declared would be drawn in whatever face the machine has,
 * so the same spec would draw different pixels on different machines: a render refuses it. (Review
 * reports it as font_not_bundled and draws on.)
 */
function assertFontsKnown(model: VideoModel, project: RenderProjectContext): void {
  const declared = new Set([...project.fonts, ...(model.fonts ?? [])].map((face) => face.family));
  const unknown = textFonts(model).filter(({ family }) => !isBundledFamily(family) && !declared.has(family));
  if (unknown.length === 0) return;
  const available = [...Object.keys(BUNDLED_FAMILIES), ...declared].map((f) => `"${f}"`).join(', ');
  const families = [...new Set(unknown.map(({ family }) => `"${family}"`))].join(', ');
  throw new KinoInputError(
    `unknown font ${families}: the fonts available are ${available}; declare another in fonts with its file, e.g. { "family": ${JSON.stringify(unknown[0]!.family)}, "src": "asset:fonts/<file>.ttf" }`,
    {
      issues: unknown.map(({ family, pointer }) => ({
        pointer,
        message: `unknown font "${family}"; available: ${available}`,
      })),
    },
  );
}
