// The worker's hold on the composition: compiled and imported once, mounted afresh for every request
// (its default export called again, so state one request leaves behind cannot leak into the next).
import { rm } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { assertModel } from '../../shared/builder/validate-model.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import { compileComposition } from '../composition/compile.ts';
import { CompositionLoadError } from '../composition/load.ts';

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export class LoadedComposition {
  readonly source: string;
  readonly #exported: unknown;

  private constructor(source: string, exported: unknown) {
    this.source = source;
    this.#exported = exported;
  }

  /** Compiles with esbuild into `stagingDir` and imports the bundle (then deletes it). */
  static async load(source: string, stagingDir: string): Promise<LoadedComposition> {
    const { bundlePath } = await compileComposition(source, { outDir: stagingDir });
    process.setSourceMapsEnabled(true);
    let module: Record<string, unknown>;
    try {
      module = (await import(pathToFileURL(bundlePath).href)) as Record<string, unknown>;
    } catch (error) {
      throw new CompositionLoadError(source, `failed while loading: ${errorText(error)}`, { cause: error });
    } finally {
      await rm(bundlePath, { force: true });
    }
    if (!('default' in module) || module.default === undefined) {
      throw new CompositionLoadError(
        source,
        'no default export: end the file with `export default video({...}, [scene(...)])`',
      );
    }
    return new LoadedComposition(source, module.default);
  }

  /** A fresh video model: a function export is called again; a plain model is deep-copied. */
  async mount(): Promise<VideoModel> {
    let value: unknown;
    try {
      const exported = this.#exported;
      value = typeof exported === 'function' ? await (exported as () => unknown)() : await exported;
    } catch (error) {
      throw new CompositionLoadError(this.source, `the default export failed: ${errorText(error)}`, {
        cause: error,
      });
    }
    if (typeof value === 'function') {
      throw new CompositionLoadError(this.source, 'the default export returned a function, not a video');
    }
    return assertModel(typeof this.#exported === 'function' ? value : structuredCopy(value));
  }
}

/** A copy that keeps functions (custom draw) by reference: structuredClone would refuse them. */
function structuredCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(structuredCopy);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, structuredCopy(v)]));
  }
  return value;
}
