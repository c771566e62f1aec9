// Loads a code composition: compile, import the bundle, take its default export (a video model, or a
// function or promise giving one) and validate it like a JSON spec.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { assertModel } from '../../shared/builder/validate-model.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import { compileComposition } from './compile.ts';
import type { CompileOptions } from './compile.ts';

/** The composition compiled but could not give a video: it threw, or exported nothing usable. */
export class CompositionLoadError extends Error {
  readonly file: string;

  constructor(file: string, message: string, options?: { cause?: unknown }) {
    super(`${file}: ${message}`, options);
    this.name = 'CompositionLoadError';
    this.file = file;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

async function importBundle(file: string, bundlePath: string): Promise<Record<string, unknown>> {
  // The bundle's inline source map then points stack traces at the composition's own lines.
  process.setSourceMapsEnabled(true);
  try {
    return (await import(pathToFileURL(bundlePath).href)) as Record<string, unknown>;
  } catch (error) {
    throw new CompositionLoadError(file, `failed while loading: ${errorText(error)}`, { cause: error });
  } finally {
    await rm(bundlePath, { force: true });
  }
}

async function resolveDefault(file: string, exported: unknown): Promise<unknown> {
  try {
    const value = typeof exported === 'function' ? await (exported as () => unknown)() : await exported;
    if (typeof value === 'function') throw new Error('the default export returned a function, not a video');
    return value;
  } catch (error) {
    throw new CompositionLoadError(file, `the default export failed: ${errorText(error)}`, { cause: error });
  }
}

export async function loadComposition(entryPath: string, opts: CompileOptions = {}): Promise<VideoModel> {
  const file = path.resolve(entryPath);
  const { bundlePath } = await compileComposition(file, opts);
  const module = await importBundle(file, bundlePath);
  if (!('default' in module) || module.default === undefined) {
    throw new CompositionLoadError(
      file,
      'no default export: end the file with `export default video({...}, [scene(...)])`',
    );
  }
  return assertModel(await resolveDefault(file, module.default));
}
