// Makes every font a render uses available to Skia before the first frame is drawn.
import { registerBundledFonts, registerFontFile } from '../fonts/register.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import { resolveMediaSource } from '../media/source.ts';
import type { RenderProjectContext } from './project-context.ts';

const registered = new Set<string>();

export async function prepareFonts(
  model: VideoModel,
  project: RenderProjectContext,
  signal?: AbortSignal,
): Promise<void> {
  registerBundledFonts();
  for (const face of [...project.fonts, ...(model.fonts ?? [])]) {
    const { path } = await resolveMediaSource(face.src, project.media, signal);
    const key = `${face.family}\n${path}`;
    if (registered.has(key)) continue;
    registerFontFile(path, face.family);
    registered.add(key);
  }
}
