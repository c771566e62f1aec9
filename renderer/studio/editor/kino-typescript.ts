// Sets Monaco's TypeScript language service up for compositions: compiler options like the ones
// compositions compile with, and Kino's declaration files (from the host, see
// main/studio/builder-types.ts) as extra libraries, so `import { ... } from 'kino'` completes and
// type-checks.
//
// monaco-editor ≥ 0.55 has the TypeScript API at the top level: `monaco.typescript.typescriptDefaults`.
// `monaco.languages.typescript` is only a deprecated stub ({ deprecated: true }).
//
// The composition's model must have a file URI outside file:///node_modules/kino/ (for example
// file:///composition.ts): the 'kino' import is found by looking for node_modules next to it.
import type * as Monaco from 'monaco-editor';
import type { TypeLibrary } from '../../../shared/studio/type-library.ts';

export type { TypeLibrary } from '../../../shared/studio/type-library.ts';

type CompilerOptions = Monaco.typescript.CompilerOptions;
type IDisposable = Monaco.IDisposable;

// TypeScript's own enum values. Monaco's enums only name a few of them (no ES2023 target, no Bundler
// resolution) but pass any value through to the worker.
const SCRIPT_TARGET_ES2023 = 10 as Monaco.typescript.ScriptTarget;
const MODULE_KIND_ESNEXT = 99 as Monaco.typescript.ModuleKind;
const MODULE_RESOLUTION_BUNDLER = 100 as Monaco.typescript.ModuleResolutionKind;
const MODULE_DETECTION_FORCE = 3;

/** The compiler options Monaco checks compositions with (also what the tests check against). */
export const KINO_COMPILER_OPTIONS: Readonly<CompilerOptions> = Object.freeze({
  target: SCRIPT_TARGET_ES2023,
  module: MODULE_KIND_ESNEXT,
  // Finds file:///node_modules/kino/package.json from the composition, as a bundler (esbuild) would.
  moduleResolution: MODULE_RESOLUTION_BUNDLER,
  // Every file is a module, even before its first import: its top-level names never clash with
  // the DOM's globals (`name`, `top`, ...).
  moduleDetection: MODULE_DETECTION_FORCE,
  // Lib file names, which Monaco's worker and the TypeScript API both accept.
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  strict: true,
  allowImportingTsExtensions: true,
  noEmit: true,
  skipLibCheck: true,
  // Monaco's own default: a model whose URI has no .ts extension is still checked.
  allowNonTsExtensions: true,
});

// What each Monaco instance was given last, so a second call replaces it instead of adding to it.
const added = new WeakMap<object, IDisposable[]>();

/**
 * Configures Monaco's TypeScript defaults for compositions and loads Kino's type libraries as extra
 * libs. Calling it again replaces the libraries added by the previous call.
 */
export function configureKinoTypeScript(monaco: typeof Monaco, libraries: readonly TypeLibrary[]): void {
  const typescript = monaco.typescript as typeof Monaco.typescript | undefined;
  if (!typescript?.typescriptDefaults) {
    throw new Error(
      "Monaco's TypeScript support is missing (monaco.typescript): load the full monaco-editor",
    );
  }
  const defaults = typescript.typescriptDefaults;

  defaults.setCompilerOptions({ ...KINO_COMPILER_OPTIONS, lib: [...(KINO_COMPILER_OPTIONS.lib ?? [])] });
  defaults.setDiagnosticsOptions({
    ...defaults.getDiagnosticsOptions(),
    noSyntaxValidation: false,
    noSemanticValidation: false,
  });

  // Dispose first: addExtraLib ignores a file that is already there with the same content, and
  // disposing the old one afterwards would then remove it.
  for (const disposable of added.get(defaults) ?? []) disposable.dispose();
  added.set(
    defaults,
    libraries.map((library) => defaults.addExtraLib(library.content, library.path)),
  );
}
