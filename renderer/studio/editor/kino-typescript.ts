// Sets Monaco's TypeScript language service up for compositions: compiler options like the ones
// compositions compile with, and Kino's declaration files (from the host, see
// main/composition/builder-types.ts) as extra libraries, so `import { ... } from 'kino'` completes and
// type-checks.
//
// monaco-editor ≥ 0.55 has the TypeScript API at the top level: `monaco.typescript.typescriptDefaults`.
// `monaco.languages.typescript` is only a deprecated stub ({ deprecated: true }).
//
// The composition's model must have a file URI outside file:///node_modules/kino/ (for example
// file:///composition.ts): the 'kino' import is found by looking for node_modules next to it.
import type * as Monaco from 'monaco-editor';
import type { TypeLibrary } from '../../../shared/studio/type-library.ts';
import { COMPOSITION_COMPILER_OPTIONS } from '../../../shared/studio/type-library.ts';

export type { TypeLibrary } from '../../../shared/studio/type-library.ts';

type CompilerOptions = Monaco.typescript.CompilerOptions;
type IDisposable = Monaco.IDisposable;

/** The compiler options Monaco checks compositions with (the host's validate_code uses the same). */
export const KINO_COMPILER_OPTIONS = COMPOSITION_COMPILER_OPTIONS as unknown as Readonly<CompilerOptions>;

// What each Monaco instance was given last, so a second call replaces it instead of adding to it.
const added = new WeakMap<object, IDisposable[]>();

/**
 * Configures Monaco's TypeScript defaults for compositions and loads Kino's type libraries as extra
 * libs. Calling it again replaces the libraries added by the previous call.
 */
export function configureKinoTypeScript(
  monaco: Pick<typeof Monaco, 'typescript'>,
  libraries: readonly TypeLibrary[],
): void {
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
