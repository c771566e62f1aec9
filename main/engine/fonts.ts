// Makes every font a render uses available to Skia before the first frame is drawn.
import { registerBundledFonts, registerFontFile } from '../fonts/register.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
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
  return loaded;
}
