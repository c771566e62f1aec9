// Type-checks a composition source against Kino's builder API without running it: the TypeScript
// compiler over an in-memory file system holding the composition, the builder's declaration files
// (the ones the studio's editor gets) and TypeScript's own lib files. Nothing is emitted, bundled or
// imported, so a composition that would write a file or open a socket when run does neither here.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type TypeScript from 'typescript';
import { COMPOSITION_COMPILER_OPTIONS, KINO_TYPES_ROOT } from '../../shared/studio/type-library.ts';
import { builderTypeLibraries } from './builder-types.ts';

export interface TypeDiagnostic {
  /** 1-based, in the composition source. */
  line: number;
  /** 1-based. */
  column: number;
  message: string;
  /** TypeScript's error number, e.g. 2322 (TS2322). */
  code: number;
  severity: 'error' | 'warning';
}

/** The longest composition source checked, in characters. */
export const MAX_COMPOSITION_SOURCE = 200_000;

const COMPOSITION_FILE = '/composition.ts';
/** The libraries' file URIs without the scheme: plain absolute paths for the compiler host. */
const toHostPath = (uri: string) => uri.slice('file://'.length);
const LIBRARY_ROOT = toHostPath(KINO_TYPES_ROOT);

const require = createRequire(import.meta.url);

async function loadTypeScript(): Promise<typeof TypeScript> {
  return import('typescript').then(
    (module) => module.default,
    (error: unknown) => {
      throw new Error(`checking a composition needs the typescript package: ${String(error)}`);
    },
  );
}

let libraryFiles: Promise<Map<string, string>> | undefined;

function builderFiles(): Promise<Map<string, string>> {
  libraryFiles ??= builderTypeLibraries().then(
    (libraries) => new Map(libraries.map((library) => [toHostPath(library.path), library.content])),
    (error: unknown) => {
      libraryFiles = undefined;
      throw error;
    },
  );
  return libraryFiles;
}

const sourceFileCache = new Map<string, TypeScript.SourceFile>();

/** TypeScript's diagnostics of `code` as a composition; an empty list means it type-checks. */
export async function checkCompositionTypes(code: string): Promise<TypeDiagnostic[]> {
  if (code.length > MAX_COMPOSITION_SOURCE) {
    throw new RangeError(
      `the composition is ${code.length} characters long; at most ${MAX_COMPOSITION_SOURCE} are checked`,
    );
  }
  const ts = await loadTypeScript();
  const files = await builderFiles();
  const libDir = path.dirname(require.resolve('typescript/lib/lib.d.ts'));
  const options = {
    ...COMPOSITION_COMPILER_OPTIONS,
    lib: [...COMPOSITION_COMPILER_OPTIONS.lib],
  } as unknown as TypeScript.CompilerOptions;

  const read = (fileName: string): string | undefined => {
    if (fileName === COMPOSITION_FILE) return code;
    if (fileName.startsWith(LIBRARY_ROOT)) return files.get(fileName);
    // TypeScript's own lib files, and nothing else from the real disk.
    if (path.dirname(fileName) === libDir && /^lib\.[\w.]+\.d\.ts$/.test(path.basename(fileName))) {
      try {
        return readFileSync(fileName, 'utf8');
      } catch {
        return undefined;
      }
    }
    return undefined;
  };
  const host: TypeScript.CompilerHost = {
    getSourceFile(fileName, languageVersion) {
      // The builder's declarations and the lib files never change within a process: parse them once.
      const cacheable = fileName !== COMPOSITION_FILE;
      const cached = cacheable ? sourceFileCache.get(fileName) : undefined;
      if (cached) return cached;
      const text = read(fileName);
      if (text === undefined) return undefined;
      const file = ts.createSourceFile(fileName, text, languageVersion, true);
      if (cacheable) sourceFileCache.set(fileName, file);
      return file;
    },
    getDefaultLibFileName: (compilerOptions) => path.join(libDir, ts.getDefaultLibFileName(compilerOptions)),
    getDefaultLibLocation: () => libDir,
    writeFile: () => {},
    getCurrentDirectory: () => '/',
    getDirectories: () => [],
    getCanonicalFileName: (fileName) => fileName,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (fileName) => read(fileName) !== undefined,
    readFile: read,
    directoryExists: (dir) =>
      dir === '/' ||
      dir === libDir ||
      LIBRARY_ROOT.startsWith(`${dir}/`) ||
      [...files.keys()].some((file) => file.startsWith(`${dir}/`)),
  };
  const program = ts.createProgram({ rootNames: [COMPOSITION_FILE], options, host });
  const source = program.getSourceFile(COMPOSITION_FILE)!;
  const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
  return diagnostics
    .filter((d) => d.category === ts.DiagnosticCategory.Error || d.category === ts.DiagnosticCategory.Warning)
    .map((d) => {
      const at =
        d.file && d.start !== undefined
          ? d.file.getLineAndCharacterOfPosition(d.start)
          : { line: 0, character: 0 };
      return {
        line: at.line + 1,
        column: at.character + 1,
        message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
        code: d.code,
        severity: d.category === ts.DiagnosticCategory.Error ? ('error' as const) : ('warning' as const),
      };
    });
}
