// The render project's templates: its keys whose spec declares `variables`, or whose composition's
// default export is a template(). Listing them means reading every key, and a code key means
// compiling it, so a catalog keeps what it read until the file (or a module it imports) changes.
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { compositionEntryKind } from '../../shared/project/config.ts';
import type { Variables } from '../../shared/spec/variable-schema.ts';
import { parseVariables } from '../../shared/spec/variables.ts';
import { SERVER_SECRET_ENV, forkChild, killChildGroup } from '../processes/child-process.ts';
import { compositionDeclarations } from './composition-declarations.ts';
import type { CompositionDeclarations } from './composition-declarations.ts';
import type { DeclarationsReply } from './template-declarations-process.ts';
import { describeIssues } from './input-error.ts';
import { readJsonFile } from './json-file.ts';
import type { RenderProject } from './load.ts';

export interface TemplateSummary {
  key: string;
  kind: 'spec' | 'composition';
  title?: string;
  variables: Variables;
}

/** What one key declares: its title and variables (none for a key that is not a template). */
interface KeyDeclarations {
  kind: 'spec' | 'composition';
  title?: string;
  variables: Variables | undefined;
}

export interface TemplateListing {
  templates: TemplateSummary[];
  /** Keys that could not be read, each with why: listed so that a broken template does not just vanish. */
  failures: { key: string; message: string }[];
}

async function mtimeOf(file: string): Promise<number> {
  return (await stat(file).catch(() => undefined))?.mtimeMs ?? -1;
}

/** How long reading the code templates may take in a child process before it is stopped. */
const DECLARATIONS_TIMEOUT_MS = 120_000;
/** A key that failed to read is tried again after this, or as soon as its file changes. */
const FAILURE_RETRY_MS = 30_000;
/** The end of what a failing child process printed, kept for its error message. */
const STDERR_TAIL_CHARS = 2000;
const DECLARATIONS_PROCESS = fileURLToPath(new URL('./template-declarations-entry.mjs', import.meta.url));

type DeclarationsRead = { ok: true; declarations: CompositionDeclarations } | { ok: false; message: string };

/**
 * Reads code compositions' declarations in one child process without the server's secrets. The
 * child is killed once it has answered (a composition may leave a timer or socket open) and when
 * it runs out of time; if it fails, every entry it was reading fails with why.
 */
function declarationsInChild(entries: string[]): Promise<DeclarationsRead[]> {
  return new Promise((resolve) => {
    const child = forkChild(DECLARATIONS_PROCESS, { withholdEnv: SERVER_SECRET_ENV });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    let settled = false;
    const settle = (reads: DeclarationsRead[]) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      killChildGroup(child);
      resolve(reads);
    };
    const failAll = (message: string) => settle(entries.map(() => ({ ok: false, message })));
    const timer = setTimeout(
      () => failAll(`reading its variables took over ${DECLARATIONS_TIMEOUT_MS / 1000}s`),
      DECLARATIONS_TIMEOUT_MS,
    );
    child.once('message', (reply: DeclarationsReply) => settle(reply));
    child.once('error', (error) => failAll(`the worker reading its variables failed: ${error.message}`));
    // 'close' comes after the last IPC message, so a reply is never taken for a crash.
    child.once('close', (code, signal) => {
      const said = stderr.trim().split('\n').at(-1);
      failAll(
        `the worker reading its variables exited (${signal ?? `code ${code}`})${said ? `: ${said}` : ''}`,
      );
    });
    child.send({ entries });
  });
}

async function readCompositions(entries: string[], isolate: boolean): Promise<DeclarationsRead[]> {
  if (entries.length === 0) return [];
  if (isolate) return declarationsInChild(entries);
  const reads: DeclarationsRead[] = [];
  for (const entry of entries) {
    reads.push(
      await compositionDeclarations(entry).then(
        (declarations): DeclarationsRead => ({ ok: true, declarations }),
        (error: unknown): DeclarationsRead => ({
          ok: false,
          message: error instanceof Error ? error.message : String(error),
        }),
      ),
    );
  }
  return reads;
}

type Reading = { declarations: KeyDeclarations; files: string[] } | { failure: string; files: string[] };

async function readSpec(entry: string): Promise<Reading> {
  try {
    const raw = await readJsonFile(entry, 'spec');
    const parsed = parseVariables(raw);
    if (!parsed.ok)
      return { failure: `invalid variables (${describeIssues(parsed.issues)})`, files: [entry] };
    const title = (raw as { title?: unknown }).title;
    const declarations: KeyDeclarations = {
      kind: 'spec',
      variables: parsed.variables,
      ...(typeof title === 'string' ? { title } : {}),
    };
    return { declarations, files: [entry] };
  } catch (error) {
    return { failure: error instanceof Error ? error.message : String(error), files: [entry] };
  }
}

function compositionReading(entry: string, read: DeclarationsRead): Reading {
  if (!read.ok) return { failure: read.message, files: [entry] };
  const parsed = parseVariables({ variables: read.declarations.variables });
  const files = [entry, ...read.declarations.modules];
  if (!parsed.ok) return { failure: `invalid variables (${describeIssues(parsed.issues)})`, files };
  // The child's reply is not trusted to be well formed.
  const { title } = read.declarations;
  return {
    declarations: {
      kind: 'composition',
      variables: parsed.variables,
      ...(typeof title === 'string' ? { title } : {}),
    },
    files,
  };
}

type CachedReading = Reading & { mtimes: number[]; readAt: number };

export class TemplateCatalog {
  readonly #isolate: boolean;
  readonly #read = new Map<string, CachedReading>();
  /** The refresh under way: refreshes run one after another, so no file is read twice at once. */
  #refreshing: Promise<void> = Promise.resolve();

  /**
   * `isolate`: read code compositions in a child process. A process that holds secrets (the
   * render API, an MCP server) must, since a project's code could read its environment; the CLI
   * runs the user's own code anyway and reads them in its own process.
   */
  constructor(options: { isolate: boolean }) {
    this.#isolate = options.isolate;
  }

  async #isStale(entry: string, now: number): Promise<boolean> {
    const cached = this.#read.get(entry);
    if (!cached) return true;
    if ('failure' in cached && now - cached.readAt >= FAILURE_RETRY_MS) return true;
    const mtimes = await Promise.all(cached.files.map(mtimeOf));
    return mtimes.some((mtime, index) => mtime !== cached.mtimes[index]);
  }

  /** Reads again each entry not read yet, whose files changed since, or that failed a while ago. */
  #refresh(entries: string[]): Promise<void> {
    const next = this.#refreshing.then(async () => {
      const now = Date.now();
      const stale: string[] = [];
      for (const entry of new Set(entries)) if (await this.#isStale(entry, now)) stale.push(entry);
      // Times taken before reading: a file written during the read makes the cache stale, not wrong.
      const before = new Map(
        await Promise.all(stale.map(async (entry) => [entry, await mtimeOf(entry)] as const)),
      );
      const specs = stale.filter((entry) => compositionEntryKind(entry) === 'spec');
      const compositions = stale.filter((entry) => compositionEntryKind(entry) !== 'spec');
      const readings = [
        ...(await Promise.all(specs.map((entry) => readSpec(entry)))).map(
          (reading, i) => [specs[i]!, reading] as const,
        ),
        ...(await readCompositions(compositions, this.#isolate)).map(
          (read, i) => [compositions[i]!, compositionReading(compositions[i]!, read)] as const,
        ),
      ];
      for (const [entry, reading] of readings) {
        const [, ...modules] = reading.files;
        const mtimes = [before.get(entry)!, ...(await Promise.all(modules.map(mtimeOf)))];
        this.#read.set(entry, { ...reading, mtimes, readAt: now });
      }
    });
    this.#refreshing = next.catch(() => undefined);
    return next;
  }

  /** The declarations of the file `entry`; throws when it cannot be read. */
  async declarations(entry: string): Promise<KeyDeclarations> {
    await this.#refresh([entry]);
    const reading = this.#read.get(entry)!;
    if ('failure' in reading) throw new Error(reading.failure);
    return reading.declarations;
  }

  /** Every key of `project` that is a template, sorted by key, and the keys that could not be read. */
  async list(project: RenderProject): Promise<TemplateListing> {
    const keys = [...project.compositions.keys()].sort();
    await this.#refresh(keys.map((key) => project.compositions.get(key)!));
    const listing: TemplateListing = { templates: [], failures: [] };
    for (const key of keys) {
      const reading = this.#read.get(project.compositions.get(key)!)!;
      if ('failure' in reading) {
        listing.failures.push({ key, message: reading.failure });
        continue;
      }
      const found = reading.declarations;
      if (!found.variables) continue;
      listing.templates.push({
        key,
        kind: found.kind,
        ...(found.title !== undefined ? { title: found.title } : {}),
        variables: found.variables,
      });
    }
    return listing;
  }
}
