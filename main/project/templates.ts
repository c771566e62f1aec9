// The render project's templates: its keys whose spec declares `variables`, or whose composition's
// default export is a template(). Listing them means reading every key, and a code key means
// compiling it, so a catalog keeps what it read until the file (or a module it imports) changes.
import { stat } from 'node:fs/promises';
import { templateSpec } from '../../shared/builder/template.ts';
import { compositionEntryKind } from '../../shared/project/config.ts';
import type { Variables } from '../../shared/spec/variable-schema.ts';
import { parseVariables } from '../../shared/spec/variables.ts';
import { LoadedComposition } from '../composition/load.ts';
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

async function readDeclarations(entry: string): Promise<{ declarations: KeyDeclarations; files: string[] }> {
  if (compositionEntryKind(entry) === 'spec') {
    const raw = await readJsonFile(entry, 'spec');
    const parsed = parseVariables(raw);
    if (!parsed.ok) throw new Error(`invalid variables (${describeIssues(parsed.issues)})`);
    const title = (raw as { title?: unknown }).title;
    return {
      declarations: {
        kind: 'spec',
        variables: parsed.variables,
        ...(typeof title === 'string' ? { title } : {}),
      },
      files: [entry],
    };
  }
  const loaded = await LoadedComposition.load(entry);
  const found = loaded.template;
  const parsed = parseVariables({ variables: found?.variables });
  if (!parsed.ok) throw new Error(`invalid variables (${describeIssues(parsed.issues)})`);
  const title = found ? (await templateSpec(found)).title : undefined;
  return {
    declarations: { kind: 'composition', variables: parsed.variables, ...(title ? { title } : {}) },
    files: [entry, ...loaded.modules],
  };
}

export class TemplateCatalog {
  readonly #read = new Map<string, { declarations: KeyDeclarations; files: string[]; mtimes: number[] }>();

  /** The declarations of the file `entry`, read again when it or a module it imports has changed. */
  async declarations(entry: string): Promise<KeyDeclarations> {
    const cached = this.#read.get(entry);
    if (cached) {
      const mtimes = await Promise.all(cached.files.map(mtimeOf));
      if (mtimes.every((mtime, index) => mtime === cached.mtimes[index])) return cached.declarations;
    }
    const read = await readDeclarations(entry);
    this.#read.set(entry, { ...read, mtimes: await Promise.all(read.files.map(mtimeOf)) });
    return read.declarations;
  }

  /** Every key of `project` that is a template, sorted by key. */
  async list(project: RenderProject): Promise<TemplateListing> {
    const listing: TemplateListing = { templates: [], failures: [] };
    const keys = [...project.compositions.keys()].sort();
    for (const key of keys) {
      try {
        const found = await this.declarations(project.compositions.get(key)!);
        if (!found.variables) continue;
        listing.templates.push({
          key,
          kind: found.kind,
          ...(found.title !== undefined ? { title: found.title } : {}),
          variables: found.variables,
        });
      } catch (error) {
        listing.failures.push({ key, message: error instanceof Error ? error.message : String(error) });
      }
    }
    return listing;
  }
}
