// Review checks on the files a video reads: a media or font source that cannot be had (the render
// fails) and text whose font is not part of the project (Skia silently draws another face).
import { basename, join, posix } from 'node:path';
import type { ResolvedVideo } from '../../shared/timeline/types.ts';
import { BUNDLED_FAMILIES } from '../../shared/fonts/fonts.ts';
import type { AssetFact, FontFact, ResourceFacts } from '../../shared/protocol/inspect.ts';
import type { SourceUse, TextFontUse } from '../../shared/protocol/inspect.ts';
import type { FindingDraft } from './finding.ts';

const BUNDLED_NAMES = Object.keys(BUNDLED_FAMILIES).join(', ');

const FILE_TYPES: Record<AssetFact['kind'] | 'font', string> = {
  image: 'PNG, JPEG, WebP, GIF, AVIF or SVG image',
  video: 'video file (mp4, webm or mov)',
  audio: 'audio file (wav, m4a, mp3 or ogg)',
  captions: 'caption file (.srt or .vtt)',
  data: 'data file (.csv or .json)',
  font: 'font file (.ttf, .otf or .woff2)',
};

interface Interval {
  startFrame: number;
  endFrame: number;
}

/** A finding's interval inside the video and at least one frame long. */
function clampInterval(interval: Interval, video: ResolvedVideo): Interval {
  const last = Math.max(1, video.durationFrames);
  const startFrame = Math.min(Math.max(0, interval.startFrame), last - 1);
  return { startFrame, endFrame: Math.min(last, Math.max(startFrame + 1, interval.endFrame)) };
}

function wholeVideo(video: ResolvedVideo): Interval {
  return { startFrame: 0, endFrame: Math.max(1, video.durationFrames) };
}

/** A file name for a family: "Brand Sans" → "BrandSans.ttf". */
function fontFileName(family: string): string {
  return `${family.replace(/[^A-Za-z0-9_-]+/g, '') || 'Font'}.ttf`;
}

/** Where a source is looked for on disk, to name it in a remedy (undefined: not a project file). */
function expectedPath(src: string, resources: ResourceFacts): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(src) && !src.startsWith('asset:')) return undefined;
  if (src.startsWith('asset:')) return join(resources.assetsDir, src.slice('asset:'.length));
  return join(resources.root, src);
}

/** The name a remote or outside file would get in the assets folder. */
function assetNameFor(src: string, fallback: string): string {
  let name: string;
  try {
    name = posix.basename(new URL(src).pathname);
  } catch {
    name = basename(src);
  }
  return /^[\w.-]+\.[A-Za-z0-9]{1,5}$/.test(name) ? name : fallback;
}

/** What to do about a source that cannot be had, by why it cannot. */
function missingRemedy(
  fact: { src?: string; missingCode?: string; suggestion?: string; path?: string },
  kind: AssetFact['kind'] | 'font',
  resources: ResourceFacts,
  where: string,
): string {
  const src = fact.src ?? '';
  const fileType = FILE_TYPES[kind];
  const copyIn = (fallback: string) => {
    const name = assetNameFor(src, fallback);
    return `copy the file into ${resources.assetsDir} as ${name} and change ${where} to "asset:${name}"`;
  };
  switch (fact.missingCode) {
    case 'missing_asset': {
      const path = expectedPath(src, resources);
      const put = `put the ${fileType} at ${path ?? src}`;
      return fact.suggestion !== undefined
        ? `change ${where} to "${fact.suggestion}" (a file with a similar name exists), or ${put}`
        : `${put}, or change ${where} to a file that exists`;
    }
    case 'media_host_not_allowed': {
      let host = src;
      try {
        host = new URL(src).hostname;
      } catch {
        // keep the source
      }
      return `add "${host}" to media.allowHosts in kino.json, or ${copyIn(kind === 'font' ? 'font.ttf' : 'media')}`;
    }
    case 'media_private_file':
      return `point ${where} at a ${fileType} of its own in ${resources.assetsDir}: dotfiles, the project config and source files are never media`;
    case 'media_outside_project':
    case 'media_absolute_path':
    case 'media_unsupported_scheme':
      return copyIn(kind === 'font' ? 'font.ttf' : 'media');
    default:
      return `replace ${fact.path ?? expectedPath(src, resources) ?? src} with a valid ${fileType}, or change ${where} to one`;
  }
}

function useLabel(use: SourceUse): string {
  if (use.isElement) return `element ${use.key}`;
  if (use.key.endsWith('/background')) return `the background of scene ${use.key.split('/')[0]}`;
  return `soundtrack entry ${use.key}`;
}

function assetFindings(asset: AssetFact, resources: ResourceFacts, video: ResolvedVideo): FindingDraft[] {
  if (asset.missing === undefined) return [];
  const remedyFor = (use: SourceUse | undefined) =>
    missingRemedy(asset, asset.kind, resources, use?.isElement ? `the src of ${use.key}` : 'its src');
  if (asset.uses.length === 0) {
    return [
      {
        code: 'missing_asset',
        severity: 'error',
        ...wholeVideo(video),
        message: `${asset.kind} "${asset.src}" cannot be used, so the render fails: ${asset.missing}`,
        remedy: remedyFor(undefined),
      },
    ];
  }
  return asset.uses.map((use) => ({
    code: 'missing_asset',
    severity: 'error',
    ...clampInterval(use, video),
    element: use.isElement ? use.key : undefined,
    message: `${asset.kind} "${asset.src}" used by ${useLabel(use)} cannot be used, so the render fails: ${asset.missing}`,
    remedy: remedyFor(use),
  }));
}

/** Findings on each text that uses a font, or one over the whole video when none does. */
function perTextUse(
  usedBy: readonly TextFontUse[],
  video: ResolvedVideo,
  make: (use: TextFontUse | undefined) => Omit<FindingDraft, 'startFrame' | 'endFrame' | 'element'>,
): FindingDraft[] {
  if (usedBy.length === 0) return [{ ...make(undefined), ...wholeVideo(video) }];
  return usedBy.map((use) => ({ ...make(use), ...clampInterval(use, video), element: use.key }));
}

function declaredIn(font: FontFact): string {
  return font.origin === 'project' ? 'kino.json' : "the video's fonts";
}

function fontFindings(font: FontFact, resources: ResourceFacts, video: ResolvedVideo): FindingDraft[] {
  if (font.origin === 'bundled') return [];
  if (font.origin === 'undeclared') {
    const file = fontFileName(font.family);
    return font.usedBy.map((use) => ({
      code: 'font_not_bundled',
      severity: 'warning',
      ...clampInterval(use, video),
      element: use.key,
      message:
        `text ${use.key} uses font "${font.family}", which is neither bundled (${BUNDLED_NAMES}) nor declared in fonts, ` +
        'so it is drawn in a fallback face that differs between machines',
      remedy:
        `add { family: "${font.family}", src: "asset:fonts/${file}" } to the fonts of the video (or of kino.json) ` +
        `and put the font file at ${join(resources.assetsDir, 'fonts', file)}; or set font to one of ${BUNDLED_NAMES}`,
    }));
  }
  if (font.missing !== undefined) {
    const where = `the src of the "${font.family}" entry in ${declaredIn(font)}`;
    return perTextUse(font.usedBy, video, (use) => ({
      code: 'missing_asset',
      severity: 'error',
      message:
        `font file "${font.src}" (family "${font.family}", declared in ${declaredIn(font)})` +
        `${use ? `, used by text ${use.key},` : ''} cannot be used, so the render fails: ${font.missing}`,
      remedy: missingRemedy(font, 'font', resources, where),
    }));
  }
  if (font.remote !== undefined) {
    const file = assetNameFor(font.src ?? '', fontFileName(font.family));
    return perTextUse(font.usedBy, video, (use) => ({
      code: 'font_not_bundled',
      severity: 'warning',
      message:
        `font "${font.family}"${use ? ` (used by text ${use.key})` : ''} comes from the URL ${font.src}: ` +
        'it is downloaded at render time and is not part of the project',
      remedy:
        `download ${font.src} to ${join(resources.assetsDir, 'fonts', file)} and change the src of the ` +
        `"${font.family}" entry in ${declaredIn(font)} to "asset:fonts/${file}"`,
    }));
  }
  return [];
}

/**
 * font_not_bundled and missing_asset findings. A declared font whose file is missing is reported as
 * missing_asset only: naming the file to put in place is the fix, and the render fails without it.
 */
export function resourceFindings(resources: ResourceFacts, video: ResolvedVideo): FindingDraft[] {
  return [
    ...resources.assets.flatMap((asset) => assetFindings(asset, resources, video)),
    ...resources.fonts.flatMap((font) => fontFindings(font, resources, video)),
  ];
}
