// The source revision: a content fingerprint of everything a composition's pixels depend on — the
// entry source, its local import graph, the packages it imports (name + version), the project
// config and the declared resources (the assets folder, the project's font files). Files are hashed
// once and re-hashed only when their size, mtime or inode change, so checking the revision before
// and after every capture costs a few stat calls.
import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { CompositionCompileError, scanComposition } from '../composition/compile.ts';
import type { CompositionGraph, PackageRef } from '../composition/compile.ts';
import type { CompileProblem } from '../../shared/protocol/problem.ts';
import type { RenderProject } from '../project/load.ts';
import { sha256File } from '../fs/hash-file.ts';

export interface SourceRevision {
  /** 16 hex digits of a SHA-256 over the fingerprinted content. */
  id: string;
  /** Every file the fingerprint covers (and the watcher watches). */
  files: string[];
  packages: PackageRef[];
  /** Set when the source does not compile: the revision then covers the files known so far. */
  compileProblems: CompileProblem[] | undefined;
}

interface HashedFile {
  identity: string;
  sha256: string;
}

async function fileIdentity(file: string): Promise<string | undefined> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  return `${info.size}:${info.mtimeMs}:${info.ino}`;
}

/** Regular files under `dir` (recursively), sorted; none when it does not exist. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  // Symlinks count: the media resolver follows those that stay inside the assets folder.
  return entries
    .filter((entry) => entry.isFile() || entry.isSymbolicLink())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** Local font files the project declares (remote ones are fetched, not fingerprinted). */
function declaredFontFiles(project: RenderProject): string[] {
  return project.fonts
    .map((face) => face.src)
    .filter((src) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(src))
    .map((src) =>
      src.startsWith('asset:')
        ? path.resolve(project.assetsDir, src.slice('asset:'.length))
        : path.resolve(project.root, src),
    );
}

export class SourceRevisionTracker {
  readonly #entry: string;
  #project: RenderProject;
  #configIdentity: string | undefined;
  readonly #hashes = new Map<string, HashedFile>();
  #graph: CompositionGraph | undefined;
  #compileProblems: CompileProblem[] | undefined;
  /** Identities of the graph's files when it was last scanned: any change means a rescan. */
  #graphIdentities = new Map<string, string | undefined>();
  #last: SourceRevision | undefined;
  #rescan = false;

  readonly #reloadProject: () => Promise<RenderProject>;

  constructor(entry: string, project: RenderProject, reloadProject: () => Promise<RenderProject>) {
    this.#entry = path.resolve(entry);
    this.#project = project;
    this.#reloadProject = reloadProject;
  }

  /** The project as its config says now (the assets folder can move). */
  get project(): RenderProject {
    return this.#project;
  }

  /** The revision now; rescans the import graph only when one of its files changed. */
  async current(): Promise<SourceRevision> {
    const configPath = this.#project.configPath;
    const configIdentity = configPath ? await fileIdentity(configPath) : undefined;
    if (configIdentity !== this.#configIdentity) {
      this.#configIdentity = configIdentity;
      // A broken config keeps the last good one: the worker reports the error on the next request.
      this.#project = await this.#reloadProject().catch(() => this.#project);
    }
    if (await this.#graphChanged()) await this.#scan();
    const graph = this.#graph ?? { inputs: [this.#entry], packages: [], packageManifests: [] };
    const resources = [
      ...(await filesUnder(this.#project.assetsDir)),
      ...declaredFontFiles(this.#project),
      ...(this.#project.configPath ? [this.#project.configPath] : []),
    ];
    const kinds = new Map<string, string>();
    for (const [kind, list] of [
      ['source', graph.inputs],
      ['manifest', graph.packageManifests],
      ['resource', resources],
    ] as const) {
      for (const file of list) if (!kinds.has(file)) kinds.set(file, kind);
    }
    const files = new Set(kinds.keys());
    // Checked all at once: this runs before and after every capture, and one stat at a time through
    // the thread pool took as long as the stats themselves several times over.
    const lines = await Promise.all(
      [...kinds].map(
        async ([file, kind]) => `${kind} ${this.#name(file)} ${(await this.#hash(file)) ?? 'missing'}`,
      ),
    );
    for (const pkg of graph.packages) lines.push(`package ${pkg.name}@${pkg.version}`);
    const id = createHash('sha256').update(lines.sort().join('\n')).digest('hex').slice(0, 16);
    this.#last = {
      id,
      files: [...files].sort(),
      packages: graph.packages,
      compileProblems: this.#compileProblems,
    };
    return this.#last;
  }

  /**
   * `file` was just written (a save through the workspace): its hash and the import graph are
   * worked out afresh next time, whatever its size, mtime and inode say.
   */
  invalidate(...files: string[]): void {
    for (const file of files) this.#hashes.delete(path.resolve(file));
    this.#rescan = true;
  }

  /** The last computed revision, without touching the disk. */
  get last(): SourceRevision | undefined {
    return this.#last;
  }

  /** Paths named relative to the project, so the fingerprint does not depend on where it is checked out. */
  #name(file: string): string {
    const relative = path.relative(this.#project.root, file);
    return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative.split(path.sep).join('/');
  }

  async #hash(file: string): Promise<string | undefined> {
    const identity = await fileIdentity(file);
    if (identity === undefined) {
      this.#hashes.delete(file);
      return undefined;
    }
    const known = this.#hashes.get(file);
    if (known?.identity === identity) return known.sha256;
    const sha256 = await sha256File(file).catch(() => undefined);
    if (sha256 === undefined) return undefined;
    // Re-stat: a write that landed while hashing must not be cached under the older identity.
    if ((await fileIdentity(file)) === identity) this.#hashes.set(file, { identity, sha256 });
    return sha256;
  }

  async #graphChanged(): Promise<boolean> {
    // A failed compile may be fixed by a file it could not find, which no identity covers yet.
    if (!this.#graph || this.#compileProblems || this.#rescan) return true;
    const known = [...this.#graphIdentities];
    const now = await Promise.all(known.map(([file]) => fileIdentity(file)));
    return known.some(([, identity], i) => now[i] !== identity);
  }

  async #scan(): Promise<void> {
    // Identities taken before the scan: a save landing during it shows as a change next time.
    const before = new Map<string, string | undefined>();
    for (const file of [
      ...(this.#graph?.inputs ?? [this.#entry]),
      ...(this.#graph?.packageManifests ?? []),
    ]) {
      before.set(file, await fileIdentity(file));
    }
    this.#rescan = false;
    try {
      this.#graph = await scanComposition(this.#entry);
      this.#compileProblems = undefined;
    } catch (error) {
      if (!(error instanceof CompositionCompileError)) throw error;
      // Keep fingerprinting what was known: the entry (and the last good graph) still change.
      this.#compileProblems = error.problems;
      const known = this.#graph?.inputs ?? [this.#entry];
      this.#graph = {
        inputs: [...new Set([this.#entry, ...known, ...error.problems.map((p) => p.file)])],
        packages: this.#graph?.packages ?? [],
        packageManifests: this.#graph?.packageManifests ?? [],
      };
    }
    const identities = new Map<string, string | undefined>();
    for (const file of [...this.#graph.inputs, ...this.#graph.packageManifests]) {
      identities.set(file, before.has(file) ? before.get(file) : await fileIdentity(file));
    }
    this.#graphIdentities = identities;
  }
}
