// Renders a resolved model to a verified file with a receipt, printing the result and showing
// progress: the end of `kino render`, `kino generate` and `kino edit` alike.
import { dirname, extname, resolve } from 'node:path';
import { formatBytes } from '../../shared/format/bytes.ts';
import { FORMAT_EXTENSIONS } from '../../shared/output/formats.ts';
import type { OutputFormat, Quality } from '../../shared/output/formats.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import type { AspectName } from '../../shared/spec/sizes.ts';
import { projectContext } from '../engine/project-context.ts';
import { buildRenderReceipt, receiptPathFor, writeReceipt } from '../engine/receipt.ts';
import type { ReceiptSubject } from '../engine/receipt.ts';
import { renderVideo } from '../engine/render-video.ts';
import type { RenderResult } from '../engine/render-video.ts';
import { ensureWritableDir } from '../fs/ensure-dir.ts';
import type { RenderProject } from '../project/load.ts';
import type { VariableValues } from '../../shared/spec/variables.ts';
import { encoderSettingsOf } from './encoder-options.ts';
import type { EncoderOptions } from './encoder-options.ts';
import { createProgressReporter } from './progress.ts';

export interface RenderCommandOptions extends EncoderOptions {
  output?: string;
  format: OutputFormat;
  quality: Quality;
  aspect?: AspectName;
  poster?: string;
  frames?: number;
  /** Rasterising threads (--concurrency); default RENDER_THREADS, else one per core. */
  concurrency?: number;
  json?: boolean;
  /** false with --no-receipt. */
  receipt: boolean;
}

/** A model to render, with what the receipt says it is. */
export interface RenderSubject {
  model: VideoModel;
  project: RenderProject;
  subject: ReceiptSubject;
  /** The composition file rasterising threads load a model with custom drawing from. */
  composition?: { path: string; variables?: VariableValues } | undefined;
}

/**
 * The file a render writes: the output option's (one without an extension gets the format's; a
 * wrong one is refused by the engine), else `<name><ext>` in the current directory. The default
 * name is kept whole: launch.v2 (from launch.v2.json) writes launch.v2.mp4, not a file named as
 * though ".v2" were its extension.
 */
export function outputPathFor(requested: string | undefined, name: string, format: OutputFormat): string {
  if (requested === undefined) return resolve(`${name}${FORMAT_EXTENSIONS[format]}`);
  return resolve(extname(requested) ? requested : `${requested}${FORMAT_EXTENSIONS[format]}`);
}

/**
 * Renders to the output the options name (default `<name><ext>`), writes the receipt, and prints
 * the result, with progress on stderr. Shared by render, generate, edit and captions.
 */
export async function renderToFile(
  what: RenderSubject,
  name: string,
  request: Record<string, unknown>,
  opts: RenderCommandOptions,
): Promise<void> {
  const outputPath = outputPathFor(opts.output, name, opts.format);
  await ensureWritableDir(dirname(outputPath));
  const posterPath = opts.poster ? outputPath.replace(/\.[^.]+$/, '') + '.poster.png' : undefined;
  const abort = new AbortController();
  const onSignal = () => abort.abort(new Error('render canceled'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const progress = opts.json ? undefined : createProgressReporter();
  // Checked against the format before the command ran (addEncoderOptions).
  const encoder = encoderSettingsOf(opts);
  try {
    const result = await renderVideo({
      model: what.model,
      composition: what.composition,
      project: await projectContext(what.project),
      outputPath,
      options: {
        format: opts.format,
        quality: opts.quality,
        aspect: opts.aspect,
        poster: opts.poster,
        posterPath,
        frames: opts.frames,
        concurrency: opts.concurrency,
        encoder,
      },
      signal: abort.signal,
      onProgress: (p) => progress?.update(p),
    });
    let receiptPath: string | undefined;
    let receipt;
    if (opts.receipt) {
      const { json: _json, receipt: _receipt, ...asked } = opts;
      receipt = await buildRenderReceipt({
        maker: 'cli',
        subject: what.subject,
        request: { ...request, ...asked },
        options: { format: opts.format, quality: opts.quality, poster: opts.poster, encoder },
        result,
      });
      receiptPath = receiptPathFor(outputPath);
      await writeReceipt(receiptPath, receipt);
    }
    progress?.stop();
    if (opts.json) {
      process.stdout.write(
        JSON.stringify({ ...result, receiptPath: receiptPath ?? null, receipt: receipt ?? null }, null, 2) +
          '\n',
      );
      return;
    }
    const out = result.output;
    const seconds = result.timings.totalMs / 1000;
    process.stdout.write(
      `${out.path}\n` +
        `  ${result.width}×${result.height} ${result.fps} fps, ${result.frames} frames (${result.durationSeconds.toFixed(2)}s), ${formatBytes(out.bytes)}\n` +
        `  sha256 ${out.sha256}\n` +
        `  verified: ${out.checks.map((c) => c.name).join(', ')}\n` +
        (result.poster ? `  poster ${result.poster.path}\n` : '') +
        (receiptPath ? `  receipt ${receiptPath}\n` : '') +
        `  rendered in ${seconds.toFixed(1)}s (${(result.frames / seconds).toFixed(1)} fps)\n` +
        `  ${describeDrawing(result.drawing)}\n`,
    );
  } finally {
    progress?.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Which threads drew the frames, in words: the answer to "why did it (not) use my cores?". */
function describeDrawing(drawing: RenderResult['drawing']): string {
  if (drawing.fromFrame === undefined) return `drawn on one thread: ${drawing.reason}`;
  if (drawing.fromFrame === 0) return `drawn on ${drawing.workers} threads: ${drawing.reason}`;
  return `drawn on one thread, then ${drawing.workers} from frame ${drawing.fromFrame}: ${drawing.reason}`;
}
