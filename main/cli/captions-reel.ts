// The work of `kino captions <clip> <subtitles>` (registered in captions-command.ts, which imports
// this only when the command runs): a captioned reel in one command. The spec is built in memory
// (the clip full-bleed with its sound, a captions element over it) and rendered like `kino render`,
// receipt included, in the render project around the clip (its kino.json above it, else its own
// folder): the clip is named inside it and read through the gate every spec's media passes.
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { describeCaptionFault, parseCaptions } from '../../shared/captions/parse.ts';
import type { CaptionCue, CaptionFault, CaptionFormat } from '../../shared/captions/parse.ts';
import type { Quality } from '../../shared/output/formats.ts';
import { isInlineCaptionText } from '../../shared/spec/captions-element.ts';
import type { CaptionStyle } from '../../shared/spec/captions-element.ts';
import type { Aspect, AspectName } from '../../shared/spec/sizes.ts';
import { projectContext } from '../engine/project-context.ts';
import type { MediaContext } from '../engine/project-context.ts';
import { readCaptionFile } from '../media/caption-files.ts';
import { demuxerName, probeMedia } from '../media/probe-media.ts';
import type { MediaProbe } from '../media/probe-media.ts';
import { resolveMediaSource } from '../media/source.ts';
import { KinoInputError, describeIssues } from '../project/input-error.ts';
import { projectForFile } from '../project/load.ts';
import type { RenderProject } from '../project/load.ts';
import { checkSpec } from '../project/resolve-input.ts';
import type { EncoderOptions } from './encoder-options.ts';
import { outputPathFor, renderToFile } from './render-to-file.ts';

export interface CaptionsCommandOptions extends EncoderOptions {
  style: CaptionStyle;
  output?: string;
  aspect?: AspectName;
  quality: Quality;
  frames?: number;
  json?: boolean;
}

const SUBTITLE_FORMATS: Record<string, CaptionFormat> = { '.srt': 'srt', '.vtt': 'vtt' };
/** A file with many faults would fill the terminal; the first few say what is wrong. */
const FAULTS_SHOWN = 3;
const FALLBACK_FPS = 30;
const MAX_FPS = 120;

/** The real path of a file the user named, or an error saying what is wrong with the path. */
async function existingFile(given: string, what: string): Promise<string> {
  const file = path.resolve(given);
  const found = await stat(file).catch(() => undefined);
  if (!found) throw new KinoInputError(`${what} ${given} not found: check the path`);
  if (!found.isFile()) throw new KinoInputError(`${what} ${given} is a folder, not a file`);
  return realpath(file);
}

function subtitleFormat(given: string): CaptionFormat {
  const format = SUBTITLE_FORMATS[path.extname(given).toLowerCase()];
  if (!format) throw new KinoInputError(`${given}: expected an .srt or .vtt subtitle file`);
  return format;
}

function isInside(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return !rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel);
}

/** A project-relative source; "./" keeps a name like "a:b.mp4" from reading as a URL scheme. */
function sourceIn(project: RenderProject, file: string): string {
  return `./${path.relative(project.root, file).split(path.sep).join('/')}`;
}

function describeFaults(format: CaptionFormat, faults: readonly CaptionFault[]): string {
  const shown = faults.slice(0, FAULTS_SHOWN).map((fault) => describeCaptionFault(format, fault));
  const more = faults.length - shown.length;
  return shown.join('; ') + (more > 0 ? ` (and ${more} more)` : '');
}

/**
 * What the captions element is given: the file by its path in the clip's project, so the render
 * reads it through the media gate and the receipt hashes it; or, for a file outside that project,
 * its text, since a project is never widened to take in a file from elsewhere. A malformed file
 * fails here, named as the user named it, before the clip is probed.
 */
async function subtitleSource(
  project: RenderProject,
  file: string,
  format: CaptionFormat,
  given: string,
): Promise<{ source: string; cues: CaptionCue[] }> {
  const text = await readCaptionFile(given, file, path.dirname(file));
  const parsed = parseCaptions(format, text);
  if (!parsed.ok) throw new KinoInputError(`${given}: ${describeFaults(format, parsed.faults)}`);
  const src = sourceIn(project, file);
  // A path with a timing line in it would read as the captions themselves.
  const source = isInside(project.root, file) && !isInlineCaptionText(src) ? src : text;
  return { source, cues: parsed.cues };
}

/**
 * Subtitles timed past the clip are not an error (a transcript of a longer take is common), but
 * the user should know which cues the reel leaves out or cuts.
 */
function warnOfCuesPastClip(cues: CaptionCue[], seconds: number, given: string): void {
  const left = cues.filter((cue) => cue.start >= seconds);
  const cut = cues.filter((cue) => cue.start < seconds && cue.end > seconds + 0.05);
  const at = (cue: CaptionCue) => `cue ${cue.number} at ${cue.start.toFixed(2)} s`;
  const clipEnd = `the clip ends at ${seconds.toFixed(2)} s`;
  if (left.length > 0) {
    const named = left.slice(0, 3).map(at).join(', ') + (left.length > 3 ? ', …' : '');
    process.stderr.write(
      `kino: warning: ${left.length} of ${cues.length} cues in ${given} start after ${clipEnd} and will not show (${named})\n`,
    );
  }
  if (cut.length > 0) {
    process.stderr.write(`kino: warning: ${at(cut[0]!)} in ${given} is cut short: ${clipEnd}\n`);
  }
}

/** ffprobe reads a still image as a one-frame video through these demuxers. */
function isStillImage(probe: MediaProbe): boolean {
  const demuxer = demuxerName(probe.formatName) ?? '';
  return demuxer === 'image2' || demuxer.endsWith('_pipe');
}

/** Probes the clip where the render will find it, through the same media gate. */
async function probeClip(src: string, media: MediaContext, given: string): Promise<MediaProbe> {
  const probe = await probeMedia((await resolveMediaSource(src, media)).path, given);
  if (!probe.hasVideo) {
    throw new KinoInputError(`clip ${given} has no video stream: give a video file (mp4, mov, webm)`);
  }
  if (isStillImage(probe) || !(clipSeconds(probe) > 0)) {
    throw new KinoInputError(`clip ${given} is a still image: give a video file (mp4, mov, webm)`);
  }
  return probe;
}

/** The picture's length: a longer audio track would otherwise end the reel on a frozen frame. */
function clipSeconds(probe: MediaProbe): number {
  return probe.videoDurationSeconds ?? probe.durationSeconds;
}

/** The clip's own size, made even for H.264 and kept inside what a spec allows. */
function clipAspect(probe: MediaProbe): Aspect {
  if (!probe.width || !probe.height) return 'reels';
  const even = (n: number) => Math.min(7680, Math.max(16, Math.floor(n / 2) * 2));
  return { width: even(probe.width), height: even(probe.height) };
}

function reelSpec(
  clipSrc: string,
  subtitles: { format: CaptionFormat; source: string },
  style: CaptionStyle,
  probe: MediaProbe,
): unknown {
  return {
    kinoSpec: 1,
    fps: Math.min(MAX_FPS, Math.max(1, Math.round(probe.fps ?? FALLBACK_FPS))),
    aspect: clipAspect(probe),
    background: '#000000',
    scenes: [
      {
        id: 'captioned',
        duration: clipSeconds(probe),
        elements: [
          {
            type: 'clip',
            id: 'clip',
            src: clipSrc,
            box: 'frame',
            width: '100%',
            height: '100%',
            fit: 'cover',
          },
          { type: 'captions', id: 'captions', [subtitles.format]: subtitles.source, style },
        ],
      },
    ],
  };
}

export async function captionsCommand(
  clip: string,
  subtitles: string,
  opts: CaptionsCommandOptions,
): Promise<void> {
  const clipFile = await existingFile(clip, 'clip');
  const format = subtitleFormat(subtitles);
  const subtitleFile = await existingFile(subtitles, 'subtitle file');
  const project = await projectForFile(clipFile);
  const { source, cues } = await subtitleSource(project, subtitleFile, format, subtitles);
  const clipSrc = sourceIn(project, clipFile);
  const probe = await probeClip(clipSrc, (await projectContext(project)).media, clip);
  warnOfCuesPastClip(cues, clipSeconds(probe), subtitles);
  const checked = checkSpec(reelSpec(clipSrc, { format, source }, opts.style, probe));
  if (!checked.ok) {
    throw new KinoInputError(`cannot caption ${clip}: ${describeIssues(checked.issues)}`, {
      issues: checked.issues,
    });
  }
  const name = `${path.basename(clip, path.extname(clip))}.captioned`;
  const output = outputPathFor(opts.output, name, 'mp4');
  const inputs = [clipFile, subtitleFile, path.resolve(clip), path.resolve(subtitles)];
  if (inputs.includes(output)) {
    throw new KinoInputError(
      `-o ${opts.output ?? path.basename(output)} would overwrite an input: choose another output`,
    );
  }
  await renderToFile(
    {
      model: checked.spec,
      project,
      subject: { kind: 'spec', specText: JSON.stringify(checked.spec) },
    },
    name,
    { clip, subtitles },
    { ...opts, format: 'mp4', receipt: true },
  );
}
