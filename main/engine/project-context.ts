// What the render pipeline needs to know about the project a model came from.
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { FontFace } from '../../shared/spec/schema.ts';
import { DEFAULT_MEDIA_POLICY } from '../media/policy.ts';
import type { MediaPolicy } from '../media/policy.ts';
import type { RenderProject } from '../project/load.ts';

export interface MediaContext {
  root: string;
  assetsDir: string;
  policy: MediaPolicy;
  cacheDir: string;
}

export interface RenderProjectContext {
  root: string;
  assetsDir: string;
  /** Fonts declared by the project config; a spec may declare more. */
  fonts: FontFace[];
  media: MediaContext;
}

export function mediaCacheDir(): string {
  return process.env.KINO_CACHE_DIR
    ? join(process.env.KINO_CACHE_DIR, 'media')
    : join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kino', 'media');
}

export async function projectContext(project: RenderProject): Promise<RenderProjectContext> {
  return {
    root: project.root,
    assetsDir: project.assetsDir,
    fonts: project.fonts ?? [],
    media: {
      root: project.root,
      assetsDir: project.assetsDir,
      policy: { ...DEFAULT_MEDIA_POLICY, ...(project.media ?? {}) },
      cacheDir: mediaCacheDir(),
    },
  };
}
