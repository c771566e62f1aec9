// What files a video reads, as facts: each media source and font face with the file behind it, its
// size, hash and dimensions, or why a render could not read it. Nothing is downloaded; hashes and
// probes are cached per file version, so inspecting again after an edit only reads what changed.
import type { VideoModel } from '../../shared/spec/model.ts';
import type { FontFace } from '../../shared/spec/schema.ts';
import { BUNDLED_FAMILIES, isBundledFamily } from '../../shared/fonts/fonts.ts';
import type { ResolvedVideo } from '../../shared/timeline/types.ts';
import type { RenderProjectContext } from '../engine/project-context.ts';
import { bundledFontFiles } from '../fonts/bundled.ts';
import type { BundledFontFile } from '../fonts/bundled.ts';
import { loadImages } from '../media/images.ts';
import { MediaError } from '../media/media-error.ts';
import { probeMedia } from '../media/probe-media.ts';
import { cachedSha256, fileVersion, perFileVersion } from './file-cache.ts';
import type { FileVersion } from './file-cache.ts';
import { locateSource } from './locate-source.ts';
import type { LocatedSource } from './locate-source.ts';
import { endAudioUsesAtSource, mediaSourceUses, textFontUses } from './source-uses.ts';
import type { MediaSourceUses } from './source-uses.ts';
import type { MediaKind, TextFontUse } from '../../shared/protocol/inspect.ts';
import type { FileFacts, AssetFact, FontFact, ResourceFacts } from '../../shared/protocol/inspect.ts';

/** Files read at once: hashing and probing are I/O and ffprobe bound. */
const CONCURRENCY = 4;

async function mapLimited<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return results;
}

function describeMissing(error: MediaError): Pick<FileFacts, 'missing' | 'missingCode'> {
  return { missing: `${error.code}: ${error.message}`, missingCode: error.code };
}

/** The located file's size and hash, or the reason it cannot be read. */
async function fileFacts(
  located: LocatedSource,
  signal: AbortSignal | undefined,
): Promise<{ facts: FileFacts; version?: FileVersion }> {
  const facts: FileFacts = {};
  if (located.remote) facts.remote = located.remote;
  if (located.suggestion !== undefined) facts.suggestion = located.suggestion;
  if (located.missing) {
    facts.missing = `${located.missing.code}: ${located.missing.reason}`;
    facts.missingCode = located.missing.code;
    return { facts };
  }
  if (located.path === undefined) return { facts };
  try {
    const version = await fileVersion(located.path);
    facts.path = located.path;
    facts.bytes = version.bytes;
    facts.sha256 = await cachedSha256(version, signal);
    return { facts, version };
  } catch (error) {
    signal?.throwIfAborted();
    facts.missing = `media_unreadable: ${located.path} cannot be read (${(error as Error).message})`;
    facts.missingCode = 'media_unreadable';
    return { facts };
  }
}

type MediaDetails = Pick<AssetFact, 'width' | 'height' | 'durationSeconds' | 'hasAudio'>;

/** Picture size or length, decoded the way the render will (so a corrupt file shows up here). */
async function mediaDetails(src: string, kind: MediaKind, version: FileVersion): Promise<MediaDetails> {
  return perFileVersion(`details:${kind}`, version, async () => {
    if (kind === 'image') {
      const image = (await loadImages(new Map([[src, version.path]]))).get(src)!;
      return { width: image.width, height: image.height };
    }
    // Caption and data files are text: whether they parse is the render's check, with cue and line
    // (or row and column).
    if (kind === 'captions' || kind === 'data') return {};
    const probe = await probeMedia(version.path, src);
    const details: MediaDetails = { durationSeconds: probe.durationSeconds, hasAudio: probe.hasAudio };
    if (kind === 'video') {
      if (!probe.hasVideo)
        throw new MediaError('media_no_video', `"${src}" has no video stream`, { source: src });
      if (probe.width !== undefined) details.width = probe.width;
      if (probe.height !== undefined) details.height = probe.height;
    } else if (!probe.hasAudio) {
      throw new MediaError('media_probe_failed', `"${src}" has no audio stream`, { source: src });
    }
    return details;
  });
}

async function assetFact(
  source: MediaSourceUses,
  video: ResolvedVideo,
  project: RenderProjectContext,
  signal: AbortSignal | undefined,
): Promise<AssetFact> {
  const located = await locateSource(source.src, project.media, signal);
  const { facts, version } = await fileFacts(located, signal);
  const fact: AssetFact = { src: source.src, kind: source.kind, ...facts, uses: source.uses };
  if (!version) return fact;
  try {
    Object.assign(fact, await mediaDetails(source.src, source.kind, version));
    if (fact.durationSeconds !== undefined)
      fact.uses = endAudioUsesAtSource(fact.uses, video, fact.durationSeconds);
  } catch (error) {
    if (!(error instanceof MediaError)) throw error;
    Object.assign(fact, describeMissing(error));
  }
  return fact;
}

async function declaredFontFact(
  face: FontFace,
  origin: 'project' | 'spec',
  uses: TextFontUse[],
  project: RenderProjectContext,
  signal: AbortSignal | undefined,
): Promise<FontFact> {
  const located = await locateSource(face.src, project.media, signal);
  const { facts } = await fileFacts(located, signal);
  const fact: FontFact = { family: face.family, origin, src: face.src, ...facts, usedBy: [] };
  if (face.weight !== undefined) fact.weight = face.weight;
  if (face.italic !== undefined) fact.italic = face.italic;
  fact.usedBy = uses.filter((use) => use.family === face.family);
  return fact;
}

/** The bundled file that draws a weight and style: the exact face, else the nearest weight. */
function bundledFace(files: BundledFontFile[], weight: number, italic: boolean): BundledFontFile {
  const styled = files.filter((file) => file.italic === italic);
  const pool = styled.length > 0 ? styled : files;
  return pool.reduce((best, file) =>
    Math.abs(file.weight - weight) < Math.abs(best.weight - weight) ? file : best,
  );
}

/** The spec's bundled name for a family, accepting the loaded aliases ("Kino Sans") too. */
function bundledName(family: string): keyof typeof BUNDLED_FAMILIES | undefined {
  if (isBundledFamily(family)) return family;
  const alias = Object.entries(BUNDLED_FAMILIES).find(([, loaded]) => loaded === family);
  return alias?.[0] as keyof typeof BUNDLED_FAMILIES | undefined;
}

async function bundledFontFacts(uses: TextFontUse[], signal: AbortSignal | undefined): Promise<FontFact[]> {
  const files = bundledFontFiles();
  const byFile = new Map<string, { file: BundledFontFile; usedBy: TextFontUse[] }>();
  for (const use of uses) {
    const name = bundledName(use.family);
    if (!name) continue;
    const file = bundledFace(
      files.filter((candidate) => candidate.family === name),
      use.weight,
      use.italic,
    );
    const entry = byFile.get(file.path) ?? { file, usedBy: [] };
    entry.usedBy.push(use);
    byFile.set(file.path, entry);
  }
  return mapLimited([...byFile.values()], async ({ file, usedBy }) => {
    const { facts } = await fileFacts({ path: file.path }, signal);
    return {
      family: file.family,
      origin: 'bundled',
      weight: file.weight,
      italic: file.italic,
      ...facts,
      usedBy,
    };
  });
}

export async function collectResourceFacts(
  model: VideoModel,
  video: ResolvedVideo,
  project: RenderProjectContext,
  signal?: AbortSignal,
): Promise<ResourceFacts> {
  const uses = textFontUses(video);
  const declared = [
    ...project.fonts.map((face) => ({ face, origin: 'project' as const })),
    ...(model.fonts ?? []).map((face) => ({ face, origin: 'spec' as const })),
  ];
  const declaredFamilies = new Set(declared.map(({ face }) => face.family));
  const undeclared = new Map<string, TextFontUse[]>();
  for (const use of uses) {
    if (bundledName(use.family) || declaredFamilies.has(use.family)) continue;
    undeclared.set(use.family, [...(undeclared.get(use.family) ?? []), use]);
  }
  const [assets, declaredFonts, bundledFonts] = await Promise.all([
    mapLimited(mediaSourceUses(video), (source) => assetFact(source, video, project, signal)),
    mapLimited(declared, ({ face, origin }) => declaredFontFact(face, origin, uses, project, signal)),
    bundledFontFacts(uses, signal),
  ]);
  const undeclaredFonts = [...undeclared].map(([family, usedBy]): FontFact => ({
    family,
    origin: 'undeclared',
    usedBy,
  }));
  return {
    root: project.root,
    assetsDir: project.assetsDir,
    assets,
    fonts: [...bundledFonts, ...declaredFonts, ...undeclaredFonts],
  };
}
