// The render project's templates: its keys whose spec declares `variables`, or whose composition's
// default export is a template(). Listing them means reading every key, and a code key means
// compiling it, so a catalog keeps what it read until the file (or a module it imports) changes.
import { stat } from 'node:fs/promises';
import { compositionEntryKind } from '../../shared/project/config.ts';
import type { Variables } from '../../shared/spec/variable-schema.ts';
import { parseVariables } from '../../shared/spec/variables.ts';
import { SERVER_SECRET_ENV, forkWorker, killWorkerGroup } from '../workers/worker-process.ts';
import { compositionDeclarations } from './composition-declarations.ts';
import type { CompositionDeclarations } from './composition-declarations.ts';
import type { DeclarationsReply } from './template-declarations-worker.ts';
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

/** How long reading the code templates may take in a worker before it is stopped. */
const DECLARATIONS_TIMEOUT_MS = 120_000;
const DECLARATIONS_WORKER = new URL('./template-declarations-worker.ts', import.meta.url).pathname;

type DeclarationsRead = { ok: true; declarations: CompositionDeclarations } | { ok: false; message: string };

/** Reads code compositions' declarations in one worker process without the server's secrets. */
function declarationsInWorker(entries: string[]): Promise<DeclarationsReply> {
  return new Promise((resolve, reject) => {
    const child = forkWorker(DECLARATIONS_WORKER, { withholdEnv: SERVER_SECRET_ENV });
    const timer = setTimeout(() => {
      killWorkerGroup(child);
      reject(new Error(`reading its variables took over ${DECLARATIONS_TIMEOUT_MS / 1000}s`));
    }, DECLARATIONS_TIMEOUT_MS);
    const settle = () => clearTimeout(timer);
    child.once('message', (reply: DeclarationsReply) => {
      settle();
      resolve(reply);
    });
    child.once('error', (error) => {
      settle();
      reject(error);
    });
    child.once('exit', (code) => {
      settle();
      reject(new Error(`the worker reading its variables exited (code ${code})`));
    });
    child.send({ entries });
  });
}

async function readCompositions(entries: string[], isolate: boolean): Promise<DeclarationsRead[]> {
  if (entries.length === 0) return [];
  if (isolate) return declarationsInWorker(entries);
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
  const { title } = read.declarations;
  return {
    declarations: {
      kind: 'composition',
      variables: parsed.variables,
      ...(title !== undefined ? { title } : {}),
    },
    files,
  };
}

export class TemplateCatalog {
  readonly #isolate: boolean;
  readonly #read = new Map<string, Reading & { mtimes: number[] }>();

  /**
   * `isolate`: read code compositions in a worker process, as a server must (its environment holds
   * secrets that a project's code could read); the CLI reads them in its own process.
   */
  constructor(options: { isolate: boolean }) {
    this.#isolate = options.isolate;
  }

  /** Reads again each entry not read yet, or whose file or imported modules changed since. */
  async #refresh(entries: string[]): Promise<void> {
    const stale: string[] = [];
    for (const entry of new Set(entries)) {
      const cached = this.#read.get(entry);
      const mtimes = cached ? await Promise.all(cached.files.map(mtimeOf)) : [];
      if (!cached || mtimes.some((mtime, index) => mtime !== cached.mtimes[index])) stale.push(entry);
    }
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
      this.#read.set(entry, { ...reading, mtimes: await Promise.all(reading.files.map(mtimeOf)) });
    }
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
