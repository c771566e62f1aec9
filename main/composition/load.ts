// Loads a code composition: compile, import the bundle, take its default export (a video model, or a
// function or promise giving one) and validate it like a JSON spec. A JSON spec (a template or not)
// loads here too, read as data, so the workspace and the studio open every input the same way.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { assertModel } from '../../shared/builder/validate-model.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import { isKinoTemplate, videoFromExport } from '../../shared/builder/template.ts';
import { VariableBindingError } from '../../shared/spec/variables.ts';
import { specModel } from '../../shared/timeline/check-spec.ts';
import type { KinoTemplate } from '../../shared/builder/template.ts';
import type { VariableValues } from '../../shared/spec/variables.ts';
import { KINO_BUILDER_ENTRY, compileComposition } from './compile.ts';
import type { CompositionGraph } from './compile.ts';
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

/** A copy that keeps functions (custom draw) by reference: structuredClone would refuse them. */
function copyModel(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyModel);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyModel(v)]));
  }
  return value;
}

/** Kino's own sources (the builder 'kino' resolves to): versioned by Kino, not the composition's. */
const KINO_SHARED_DIR = path.dirname(path.dirname(KINO_BUILDER_ENTRY));

/** The composition's own local modules: its import graph without the entry and without Kino's files. */
export function compositionModules(graph: CompositionGraph, entry: string): string[] {
  return graph.inputs.filter((file) => {
    const rel = path.relative(KINO_SHARED_DIR, file);
    const kinoOwn = rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
    return file !== entry && !kinoOwn;
  });
}

/**
 * A composition compiled and imported once, mounted as often as needed: the workspace mounts it
 * afresh for every request, so state one request leaves behind cannot leak into the next.
 */
export class LoadedComposition {
  readonly source: string;
  /** The local modules it imports, as compiled (see compositionModules). */
  readonly modules: string[];
  readonly #exported: unknown;
  /** The source is a JSON spec: `#exported` is its data. */
  readonly #isSpec: boolean;

  private constructor(source: string, modules: string[], exported: unknown, isSpec = false) {
    this.source = source;
    this.modules = modules;
    this.#exported = exported;
    this.#isSpec = isSpec;
  }

  /** A JSON spec's data, checked at every mount (its variables bound to that mount's values). */
  static async loadSpec(entryPath: string): Promise<LoadedComposition> {
    const source = path.resolve(entryPath);
    let data: unknown;
    try {
      data = JSON.parse(await readFile(source, 'utf8')) as unknown;
    } catch (error) {
      throw new CompositionLoadError(source, `is not readable JSON: ${errorText(error)}`, { cause: error });
    }
    return new LoadedComposition(source, [], data, true);
  }

  /** Compiles with esbuild and imports the bundle (then deletes it). */
  static async load(entryPath: string, opts: CompileOptions = {}): Promise<LoadedComposition> {
    const source = path.resolve(entryPath);
    if (path.extname(source).toLowerCase() === '.json') return LoadedComposition.loadSpec(source);
    const compiled = await compileComposition(source, opts);
    const { bundlePath } = compiled;
    // The bundle's inline source map then points stack traces at the composition's own lines.
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
    return new LoadedComposition(source, compositionModules(compiled, source), module.default);
  }

  /** The default export when it is a template(), which declares variables. */
  get template(): KinoTemplate | undefined {
    return isKinoTemplate(this.#exported) ? this.#exported : undefined;
  }

  /**
   * A fresh video model: a template is built with `values` (checked against its declarations, else a
   * VariableBindingError), a function export is called again, a plain model is copied.
   */
  async mount(values: VariableValues = {}): Promise<VideoModel> {
    const exported = this.#exported;
    if (this.#isSpec) return specModel(exported, values);
    let value: unknown;
    try {
      value = await videoFromExport(exported, values);
    } catch (error) {
      if (error instanceof VariableBindingError) throw error;
      throw new CompositionLoadError(this.source, `the default export failed: ${errorText(error)}`, {
        cause: error,
      });
    }
    return assertModel(typeof exported === 'object' && !isKinoTemplate(exported) ? copyModel(value) : value);
  }
}

export async function loadComposition(entryPath: string, opts: CompileOptions = {}): Promise<VideoModel> {
  return (await LoadedComposition.load(entryPath, opts)).mount();
}
