// The render receipt, built the same way by every maker: `kino render`, the render API's worker and
// the authoring workspace. It names what was rendered and hashes every file the render read (the
// spec or composition and its local modules, media, font files), then records the resolved options,
// the toolchain, the ffprobe probe, the verification and the timings. Written next to the video as
// <name>.render.json (receiptPathFor).
import { createHash } from 'node:crypto';
import type { QualityGate, ReviewFinding } from '../../shared/protocol/finding.ts';
import type {
  ReceiptInputFile,
  ReceiptMaker,
  RenderReceipt,
  RenderReceiptPoster,
  Toolchain,
} from '../../shared/protocol/receipt.ts';
import { compositionEntryKind } from '../../shared/project/config.ts';
import type { Time } from '../../shared/spec/time.ts';
import { encoderSettingsUsed } from '../encoder/encoder-args.ts';
import { writeFileAtomically } from '../fs/atomic-write.ts';
import type { ResolvedRenderInput } from '../project/resolve-input.ts';
import type { RenderOptions, RenderResult } from './render-video.ts';
import { toolchainVersions } from './toolchain.ts';
import { hashFile } from '../fs/hash-file.ts';
import type { FileDigest } from '../fs/hash-file.ts';

/** What was rendered. */
export interface ReceiptSubject {
  kind: 'spec' | 'composition';
  /** The spec or composition file, absolute; absent for a spec sent as data. */
  path?: string | undefined;
  /** The render key it was asked for by, when it was. */
  key?: string | undefined;
  /** A spec sent as data (an API request): its JSON text is hashed in place of a file. */
  specText?: string | undefined;
  /** The composition's local modules besides its entry, absolute (Kino's own left out). */
  modules?: readonly string[] | undefined;
}

/** The subject of a render input resolved from a file or a key (`kino render`, API keys). */
export function subjectOf(resolved: ResolvedRenderInput): ReceiptSubject {
  const kind = resolved.sourcePath === undefined ? 'spec' : compositionEntryKind(resolved.sourcePath);
  return { kind, path: resolved.sourcePath, key: resolved.key, modules: resolved.modules };
}

/** What only the workspace knows: the source revision and the review run before the render. */
export interface WorkspaceReceiptPart {
  sourceRevision: string;
  findings: ReviewFinding[];
  qualityGate: QualityGate;
  reviewMilliseconds: number;
}

export interface ReceiptRequest {
  maker: ReceiptMaker;
  subject: ReceiptSubject;
  /** What was asked for, as sent. */
  request: Readonly<Record<string, unknown>>;
  /** The options renderVideo was given, and what it returned. */
  options: Pick<RenderOptions, 'format' | 'quality' | 'poster' | 'encoder'>;
  result: RenderResult;
  /** Default: the versions installed here (toolchainVersions). */
  toolchain?: Toolchain | undefined;
  /**
   * How a file read by the render is named in the receipt; undefined leaves its path out (the API
   * names files relative to its render project and hides the rest). Default: the absolute path.
   */
  displayPath?: ((file: string) => string | undefined) | undefined;
  /** How the video and the poster are named; default their paths. */
  outputName?: string | undefined;
  posterName?: string | undefined;
  workspace?: WorkspaceReceiptPart | undefined;
}

/** Each distinct file hashed once, however many inputs name it. */
export class FileHashes {
  readonly #known = new Map<string, Promise<FileDigest>>();

  digest(file: string): Promise<FileDigest> {
    let known = this.#known.get(file);
    if (!known) {
      known = hashFile(file);
      this.#known.set(file, known);
    }
    return known;
  }
}

/** The receipt's name beside the video: out/launch.mp4 → out/launch.render.json. */
export function receiptPathFor(videoPath: string): string {
  return videoPath.replace(/\.[^./\\]+$/, '') + '.render.json';
}

function timeText(time: Time): string {
  return typeof time === 'number' ? `${time}s` : time;
}

interface PendingInput {
  role: ReceiptInputFile['role'];
  file: string;
  source?: string;
  family?: string;
}

/** Every file the render read, subject first, in a stable order. */
function pendingInputs(subject: ReceiptSubject, result: RenderResult): PendingInput[] {
  const pending: PendingInput[] = [];
  if (subject.path !== undefined) pending.push({ role: subject.kind, file: subject.path });
  for (const module of subject.modules ?? []) {
    if (module !== subject.path) pending.push({ role: 'module', file: module });
  }
  for (const input of result.inputs) {
    pending.push({
      role: input.role,
      file: input.path,
      source: input.source,
      ...(input.role === 'font' ? { family: input.family } : {}),
    });
  }
  return pending;
}

async function hashInputs(request: ReceiptRequest): Promise<ReceiptInputFile[]> {
  const { subject, result } = request;
  const hashes = new FileHashes();
  const display = request.displayPath ?? ((file: string) => file);
  const files: ReceiptInputFile[] = [];
  if (subject.path === undefined && subject.specText !== undefined) {
    const text = Buffer.from(subject.specText, 'utf8');
    files.push({
      role: 'spec',
      source: 'request',
      bytes: text.byteLength,
      sha256: createHash('sha256').update(text).digest('hex'),
    });
  }
  const pending = pendingInputs(subject, result);
  const digests = await Promise.all(pending.map((input) => hashes.digest(input.file)));
  pending.forEach((input, index) => {
    const path = display(input.file);
    files.push({
      role: input.role,
      ...(path === undefined ? {} : { path }),
      ...(input.source === undefined ? {} : { source: input.source }),
      ...(input.family === undefined ? {} : { family: input.family }),
      ...digests[index]!,
    });
  });
  return files;
}

/** The encoder settings used; the audio ones only when the file has sound (a silent mix has none). */
function encoderUsed(
  options: ReceiptRequest['options'],
  result: RenderResult,
): RenderReceipt['options']['encoder'] {
  // From the encoded size and rate, which is what the encoder was given (a GIF's already capped).
  const used = encoderSettingsUsed({
    format: options.format,
    quality: options.quality,
    width: result.width,
    height: result.height,
    fps: result.fps,
    outputPath: result.output.path,
    encoder: options.encoder,
  });
  if (result.output.probe.audio) return used;
  const { audioCodec: _codec, audioBitrate: _bitrate, ...video } = used;
  return video;
}

export async function buildRenderReceipt(request: ReceiptRequest): Promise<RenderReceipt> {
  const { subject, result, options, workspace } = request;
  const hashStarted = performance.now();
  const [files, toolchain] = await Promise.all([
    hashInputs(request),
    request.toolchain ?? toolchainVersions(),
  ]);
  const hashMilliseconds = performance.now() - hashStarted;
  const output = result.output;
  const sourcePath = subject.path === undefined ? undefined : (request.displayPath ?? String)(subject.path);
  const poster: RenderReceiptPoster | undefined =
    result.poster && options.poster !== undefined
      ? {
          path: request.posterName ?? result.poster.path,
          bytes: result.poster.bytes,
          time: timeText(options.poster),
          frame: result.poster.frame,
        }
      : undefined;
  return {
    receipt: 'kino.render',
    version: 2,
    createdAt: new Date().toISOString(),
    maker: request.maker,
    source: {
      kind: subject.kind,
      ...(sourcePath === undefined ? {} : { path: sourcePath }),
      ...(subject.key === undefined ? {} : { key: subject.key }),
      ...(workspace ? { sourceRevision: workspace.sourceRevision } : {}),
    },
    inputs: { request: request.request, files },
    options: {
      format: options.format,
      quality: options.quality,
      aspect: result.aspect,
      frames: result.frames,
      framesTotal: result.framesTotal,
      width: result.width,
      height: result.height,
      fps: result.fps,
      durationSeconds: result.durationSeconds,
      encoder: encoderUsed(options, result),
    },
    toolchain,
    output: {
      path: request.outputName ?? output.path,
      bytes: output.bytes,
      sha256: output.sha256,
      probe: output.probe,
    },
    ...(poster ? { poster } : {}),
    verification: {
      ok: output.ok,
      checks: output.checks,
      mismatches: output.checks.filter((check) => !check.ok),
    },
    timings: {
      ...(workspace ? { reviewMilliseconds: Math.round(workspace.reviewMilliseconds) } : {}),
      renderMilliseconds: Math.round(result.timings.totalMs - result.timings.verifyMs),
      verifyMilliseconds: Math.round(result.timings.verifyMs),
      hashMilliseconds: Math.round(hashMilliseconds),
    },
    ...(workspace ? { findings: workspace.findings, qualityGate: workspace.qualityGate } : {}),
  };
}

/** Writes the receipt whole or not at all (a reader never sees half of one). */
export async function writeReceipt(path: string, receipt: RenderReceipt): Promise<void> {
  await writeFileAtomically(path, JSON.stringify(receipt, null, 2) + '\n');
}
