// The type libraries are enough for Monaco: a composition checked against ONLY them (and TypeScript's
// own lib files), with the compiler options configureKinoTypeScript sets, type-checks cleanly, its
// mistakes are reported, and 'kino' completes. Checked twice: with the repository's TypeScript over
// a host that behaves like Monaco's worker, and with Monaco's own worker (its bundled TypeScript).
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as Monaco from 'monaco-editor';
import { KINO_TYPES_ROOT } from '../shared/studio/type-library.ts';
import { KINO_COMPILER_OPTIONS, configureKinoTypeScript } from '../renderer/studio/editor/kino-typescript.ts';
import type { TypeLibrary } from '../main/composition/builder-types.ts';
import { builderTypeLibraries, loadBuilderTypeLibraries } from '../main/composition/builder-types.ts';

const require = createRequire(import.meta.url);
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COMPOSITION = 'file:///composition.ts';
const EXAMPLES = ['brand-intro', 'data-story', 'product-launch', 'travel-reel'];

interface Problem {
  code: number;
  message: string;
  /** The file the problem is in (a library when a declaration is broken). */
  file: string | undefined;
}

/** A TypeScript language service as the studio's editor would run it, over one composition file. */
interface Checker {
  name: string;
  /** Syntactic + semantic diagnostics of the composition, as Monaco's markers would show them. */
  problems(source: string): Promise<Problem[]>;
  completions(source: string, position: number): Promise<string[]>;
}

function toProblem(d: {
  code: number;
  messageText: string | ts.DiagnosticMessageChain;
  file?: { fileName: string } | undefined;
}): Problem {
  return {
    code: d.code,
    message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    file: d.file?.fileName,
  };
}

// TypeScript's lib files, which Monaco's worker has built in.
const TS_LIB_DIR = path.dirname(require.resolve('typescript/lib/lib.d.ts'));
function builtInLib(fileName: string): string | undefined {
  if (!/^lib\.[\w.]+\.d\.ts$/.test(fileName)) return undefined;
  return ts.sys.readFile(path.join(TS_LIB_DIR, fileName));
}

/**
 * The repository's TypeScript over a host that answers like Monaco's worker (tsWorker.js): the
 * composition and the extra libs are the root files, the current directory is '', the lib files are
 * served by bare name, readFile/fileExists see exactly those files.
 */
function typeScriptChecker(libraries: readonly TypeLibrary[]): Checker {
  const files = new Map(libraries.map((library) => [library.path, library.content]));
  let composition = '';
  let version = 0;
  const text = (fileName: string): string | undefined =>
    fileName === COMPOSITION ? composition : (files.get(fileName) ?? builtInLib(fileName));
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => ({ ...KINO_COMPILER_OPTIONS }) as ts.CompilerOptions,
    getScriptFileNames: () => [COMPOSITION, ...files.keys()],
    getScriptVersion: (fileName) => (fileName === COMPOSITION ? String(version) : '1'),
    getScriptSnapshot: (fileName) => {
      const content = text(fileName);
      return content === undefined ? undefined : ts.ScriptSnapshot.fromString(content);
    },
    // Monaco's worker: by extension, anything else (package.json) as TypeScript.
    getScriptKind: (fileName) =>
      fileName.endsWith('.tsx')
        ? ts.ScriptKind.TSX
        : fileName.endsWith('.js')
          ? ts.ScriptKind.JS
          : ts.ScriptKind.TS,
    getCurrentDirectory: () => '',
    getDefaultLibFileName: () => 'lib.es2023.full.d.ts',
    readFile: text,
    fileExists: (fileName) => text(fileName) !== undefined,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  const update = (source: string) => {
    composition = source;
    version++;
  };
  return {
    name: `TypeScript ${ts.version}, Monaco-like host`,
    async problems(source) {
      update(source);
      return [
        ...service.getSyntacticDiagnostics(COMPOSITION),
        ...service.getSemanticDiagnostics(COMPOSITION),
      ].map(toProblem);
    },
    async completions(source, position) {
      update(source);
      return (service.getCompletionsAtPosition(COMPOSITION, position, undefined)?.entries ?? []).map(
        (e) => e.name,
      );
    },
  };
}

interface MonacoWorker {
  getSyntacticDiagnostics(fileName: string): Promise<Parameters<typeof toProblem>[0][]>;
  getSemanticDiagnostics(fileName: string): Promise<Parameters<typeof toProblem>[0][]>;
  getCompletionsAtPosition(fileName: string, position: number): Promise<ts.CompletionInfo | undefined>;
}
interface MonacoWorkerModule {
  create(
    ctx: { getMirrorModels(): unknown[] },
    createData: { compilerOptions: object; extraLibs: object; inlayHintsOptions: object },
  ): MonacoWorker;
}

/**
 * Monaco's own TypeScript worker (the module its ts.worker.js runs), given what its WorkerManager
 * passes: the compiler options and extra libs from typescriptDefaults, and the editor's model.
 */
async function monacoChecker(libraries: readonly TypeLibrary[]): Promise<Checker> {
  // Monaco's worker internals have no typings: imported by computed names.
  const features = 'monaco-editor/languages/features/typescript';
  const { create } = (await import(/* @vite-ignore */ `${features}/tsWorker.js`)) as MonacoWorkerModule;
  const { typescriptVersion } = (await import(
    /* @vite-ignore */ `${features}/lib/typescriptServicesMetadata.js`
  )) as { typescriptVersion: string };
  let model = {
    uri: { path: '/composition.ts', toString: () => COMPOSITION },
    version: 0,
    getValue: () => '',
  };
  const worker = create(
    { getMirrorModels: () => [model] },
    {
      compilerOptions: { ...KINO_COMPILER_OPTIONS },
      extraLibs: Object.fromEntries(libraries.map((l) => [l.path, { content: l.content, version: 1 }])),
      inlayHintsOptions: {},
    },
  );
  const update = (source: string) => {
    model = { ...model, version: model.version + 1, getValue: () => source };
  };
  return {
    name: `Monaco's worker, TypeScript ${typescriptVersion}`,
    async problems(source) {
      update(source);
      const found = [
        ...(await worker.getSyntacticDiagnostics(COMPOSITION)),
        ...(await worker.getSemanticDiagnostics(COMPOSITION)),
      ];
      return found.map(toProblem);
    },
    async completions(source, position) {
      update(source);
      return ((await worker.getCompletionsAtPosition(COMPOSITION, position))?.entries ?? []).map(
        (e) => e.name,
      );
    },
  };
}

const WRONG_PROPERTY = `import { scene, text, video } from 'kino';

export default video({ fps: 30, aspect: 'reels' }, [
  scene({ duration: '2s' }, [text('Hello', { colour: 'red' })]),
]);
`;

const WRONG_TYPE = `import { scene, text, video } from 'kino';

export default video({ fps: 30, aspect: 'reels' }, [
  scene({ duration: '2s' }, [text('Hello', { size: 120, italic: 'yes' })]),
]);
`;

const WRONG_ENUM = `import { scene, text, video } from 'kino';

export default video({ fps: 30, aspect: 'reels' }, [
  scene({ duration: '2s' }, [text('Hello', { align: 'middle' })]),
]);
`;

let libraries: TypeLibrary[];
const checkers: Partial<Record<'typescript' | 'monaco', Checker>> = {};

beforeAll(async () => {
  libraries = await builderTypeLibraries();
  checkers.typescript = typeScriptChecker(libraries);
  checkers.monaco = await monacoChecker(libraries);
});

describe('builderTypeLibraries', () => {
  it('lays out a kino package under file:///node_modules/kino/', () => {
    const paths = libraries.map((l) => l.path);
    expect(paths).toContain(`${KINO_TYPES_ROOT}package.json`);
    expect(paths).toContain(`${KINO_TYPES_ROOT}index.d.ts`);
    expect(paths).toContain(`${KINO_TYPES_ROOT}shared/builder/index.d.ts`);
    expect(
      JSON.parse(libraries.find((l) => l.path === `${KINO_TYPES_ROOT}package.json`)!.content),
    ).toMatchObject({
      name: 'kino',
      types: 'index.d.ts',
    });
    for (const p of paths) {
      expect(p.startsWith(KINO_TYPES_ROOT), p).toBe(true);
      expect(p.includes('/../') || p.includes('/./') || p.includes('\\'), p).toBe(false);
    }
    expect(new Set(paths).size).toBe(paths.length);
  });

  it("carries nothing of this machine's file system", () => {
    const roots = [REPO_ROOT, REPO_ROOT.split(path.sep).join('/'), tmpdir()];
    for (const library of libraries) {
      for (const root of roots) expect(library.content.includes(root), library.path).toBe(false);
    }
  });

  it('is computed once per process', async () => {
    expect(await builderTypeLibraries()).toBe(libraries);
  });

  it('is reused from the disk cache while its inputs are unchanged', async () => {
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'kino-types-test-'));
    try {
      const first = await loadBuilderTypeLibraries({ cacheDir });
      expect(first.source).toBe('generated');
      const second = await loadBuilderTypeLibraries({ cacheDir });
      expect(second.source).toBe('disk');
      expect(second.libraries).toEqual(first.libraries);

      // The entry lists every file the result depends on, with the hash of its content.
      const [entryFile] = await readdir(cacheDir);
      const entryPath = path.join(cacheDir, entryFile!);
      const entry = JSON.parse(await readFile(entryPath, 'utf8')) as { inputs: Record<string, string> };
      const inputs = Object.keys(entry.inputs);
      const builderIndex = path.join(REPO_ROOT, 'shared', 'builder', 'index.ts');
      expect(inputs).toEqual(
        expect.arrayContaining([
          builderIndex,
          path.join(REPO_ROOT, 'shared', 'spec', 'schema.ts'),
          path.join(REPO_ROOT, 'main', 'composition', 'builder-types.ts'),
          path.join(REPO_ROOT, 'tsconfig.json'),
        ]),
      );
      expect(inputs.some((f) => f.endsWith(path.join('node_modules', 'zod', 'package.json')))).toBe(true);
      expect(inputs.some((f) => f.endsWith(path.join('node_modules', 'typescript', 'package.json')))).toBe(
        true,
      );

      // A changed input (here: a recorded hash that no longer matches) means generating afresh.
      entry.inputs[builderIndex] = 'stale';
      await writeFile(entryPath, JSON.stringify(entry));
      expect((await loadBuilderTypeLibraries({ cacheDir })).source).toBe('generated');
      expect((await loadBuilderTypeLibraries({ cacheDir })).source).toBe('disk');
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });
});

describe.each(['typescript', 'monaco'] as const)('the libraries, checked by %s', (which) => {
  const checker = () => checkers[which]!;

  it.each(EXAMPLES)('type-check the example composition %s without a problem', async (name) => {
    const source = await readFile(path.join(REPO_ROOT, 'examples', 'compositions', `${name}.ts`), 'utf8');
    expect(await checker().problems(source), checker().name).toEqual([]);
  });

  it('report a property the element does not have, by name', async () => {
    const problems = await checker().problems(WRONG_PROPERTY);
    expect(problems, checker().name).toHaveLength(1);
    expect(problems[0]!.file).toBe(COMPOSITION);
    expect(problems[0]!.message).toMatch(/'colour' does not exist in type/);
  });

  it('report a known property given the wrong type', async () => {
    const problems = await checker().problems(WRONG_TYPE);
    expect(problems, checker().name).toHaveLength(1);
    expect(problems[0]!.message).toMatch(/Type 'string' is not assignable to type 'boolean \| undefined'/);
    const enumProblems = await checker().problems(WRONG_ENUM);
    expect(enumProblems).toHaveLength(1);
    expect(enumProblems[0]!.message).toMatch(
      /'"middle"' is not assignable to type '"center" \| "left" \| "right" \| undefined'/,
    );
  });

  it("report a name 'kino' does not export", async () => {
    const problems = await checker().problems(`import { txt } from 'kino';\nexport default txt;\n`);
    expect(problems.map((p) => p.code)).toEqual([2724]);
    expect(problems[0]!.message).toMatch(/has no exported member named 'txt'. Did you mean 'text'\?/);
  });

  it("complete the builder's names inside import { } from 'kino'", async () => {
    const source = `import {  } from 'kino';\n`;
    const names = await checker().completions(source, source.indexOf('{ ') + 2);
    expect(names).toEqual(
      expect.arrayContaining(['video', 'scene', 'text', 'fadeIn', 'crossFade', 'seconds']),
    );
    expect(names).not.toContain('TextElementSchema'); // kino's internals stay out of its API
  });

  it("complete an element's props", async () => {
    const source = `import { text } from 'kino';\ntext('Hi', {  });\n`;
    const names = await checker().completions(source, source.indexOf('{  }') + 2);
    expect(names).toEqual(expect.arrayContaining(['font', 'size', 'color', 'align', 'x', 'y', 'animate']));
  });
});

describe('the libraries as a whole', () => {
  it('resolve every import of every library file to a library file', () => {
    const files = new Map(libraries.map((l) => [l.path, l.content]));
    const host: ts.ModuleResolutionHost = {
      fileExists: (f) => files.has(f),
      readFile: (f) => files.get(f),
      getCurrentDirectory: () => '',
    };
    const options = { ...KINO_COMPILER_OPTIONS } as ts.CompilerOptions;
    const unresolved: string[] = [];
    for (const library of libraries) {
      if (!/\.d\.c?ts$/.test(library.path)) continue;
      for (const imported of ts.preProcessFile(library.content, true, true).importedFiles) {
        const found = ts.resolveModuleName(imported.fileName, library.path, options, host).resolvedModule;
        if (!found || !files.has(found.resolvedFileName))
          unresolved.push(`${library.path}: ${imported.fileName}`);
      }
    }
    expect(unresolved).toEqual([]);
  });

  it("type-check cleanly themselves (kino's declarations, with the lib check on)", () => {
    const files = new Map(libraries.map((l) => [l.path, l.content]));
    const options = { ...KINO_COMPILER_OPTIONS, skipLibCheck: false } as ts.CompilerOptions;
    const host: ts.CompilerHost = {
      getSourceFile: (fileName, languageVersion) => {
        const content = files.get(fileName) ?? builtInLib(fileName);
        return content === undefined ? undefined : ts.createSourceFile(fileName, content, languageVersion);
      },
      getDefaultLibFileName: () => 'lib.es2023.full.d.ts',
      writeFile: () => {},
      getCurrentDirectory: () => '',
      getCanonicalFileName: (f) => f,
      useCaseSensitiveFileNames: () => true,
      getNewLine: () => '\n',
      fileExists: (f) => files.has(f) || builtInLib(f) !== undefined,
      readFile: (f) => files.get(f) ?? builtInLib(f),
    };
    const own = libraries.filter(
      (l) => l.path.endsWith('.d.ts') && !l.path.includes('/node_modules/kino/node_modules/'),
    );
    const program = ts.createProgram({ rootNames: own.map((l) => l.path), options, host });
    const problems = [
      ...program.getGlobalDiagnostics(),
      ...own.flatMap((l) => {
        const file = program.getSourceFile(l.path);
        return file
          ? [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]
          : [];
      }),
    ].map(toProblem);
    expect(problems).toEqual([]);
    expect(program.getSourceFiles().length).toBeGreaterThan(own.length); // zod came in through the imports
  });
});

describe('configureKinoTypeScript', () => {
  /** typescriptDefaults as monaco-editor implements addExtraLib (same path and content: a no-op). */
  function fakeMonaco() {
    const extraLibs = new Map<string, string>();
    let compilerOptions: Monaco.typescript.CompilerOptions = {};
    let diagnosticsOptions: Monaco.typescript.DiagnosticsOptions = { noSemanticValidation: true };
    const typescriptDefaults = {
      setCompilerOptions: (options: Monaco.typescript.CompilerOptions) => (compilerOptions = options),
      getDiagnosticsOptions: () => diagnosticsOptions,
      setDiagnosticsOptions: (options: Monaco.typescript.DiagnosticsOptions) =>
        (diagnosticsOptions = options),
      addExtraLib(content: string, filePath: string) {
        if (extraLibs.get(filePath) === content) return { dispose() {} };
        extraLibs.set(filePath, content);
        return { dispose: () => extraLibs.get(filePath) === content && extraLibs.delete(filePath) };
      },
    };
    const monaco = { typescript: { typescriptDefaults } } as unknown as typeof Monaco;
    return { monaco, extraLibs, options: () => compilerOptions, diagnostics: () => diagnosticsOptions };
  }

  const sample: TypeLibrary[] = [
    { path: `${KINO_TYPES_ROOT}index.d.ts`, content: 'export declare const a: 1;' },
    { path: `${KINO_TYPES_ROOT}package.json`, content: '{"name":"kino","types":"index.d.ts"}' },
  ];

  it('sets the compiler options and turns syntax and semantic diagnostics on', () => {
    const fake = fakeMonaco();
    configureKinoTypeScript(fake.monaco, sample);
    expect(fake.options()).toEqual(KINO_COMPILER_OPTIONS);
    expect(fake.options()).toMatchObject({
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      strict: true,
      allowImportingTsExtensions: true,
      noEmit: true,
    });
    expect(fake.diagnostics()).toMatchObject({ noSemanticValidation: false, noSyntaxValidation: false });
    expect([...fake.extraLibs.keys()]).toEqual(sample.map((l) => l.path));
  });

  it('replaces the libraries of a previous call, even with the same content', () => {
    const fake = fakeMonaco();
    configureKinoTypeScript(fake.monaco, sample);
    configureKinoTypeScript(fake.monaco, sample);
    expect([...fake.extraLibs.keys()]).toEqual(sample.map((l) => l.path));
    configureKinoTypeScript(fake.monaco, [sample[0]!]);
    expect([...fake.extraLibs.keys()]).toEqual([sample[0]!.path]);
  });

  it('names the problem when monaco has no TypeScript support', () => {
    expect(() => configureKinoTypeScript({} as typeof Monaco, sample)).toThrow(/monaco\.typescript/);
  });
});
