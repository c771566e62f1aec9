// The composition keys a client may render: those registered in the render project's kino.json.
// Read again when the file changes, so a new key is live without a restart. Which keys are
// templates, and their variables, come from a catalog that re-reads a key when its files change.
import { stat } from 'node:fs/promises';
import { findProjectConfig, loadProject } from '../project/load.ts';
import type { RenderProject } from '../project/load.ts';
import { TemplateCatalog } from '../project/templates.ts';
import type { TemplateListing } from '../project/templates.ts';
import type { Variables } from '../../shared/spec/variable-schema.ts';

export class KeyRegistry {
  readonly #projectDir: string;
  readonly #catalog = new TemplateCatalog({ isolate: true });
  #cached: { project: RenderProject; keys: string[]; configMtimeMs: number; checkedAt: number } | undefined;

  constructor(projectDir: string) {
    this.#projectDir = projectDir;
  }

  async #project(now: number): Promise<{ project: RenderProject; keys: string[] }> {
    // Re-checking the config's mtime at most once a second keeps POST cheap under load.
    if (this.#cached && now - this.#cached.checkedAt < 1000) return this.#cached;
    const configPath = await findProjectConfig(this.#projectDir);
    const mtime = configPath ? (await stat(configPath)).mtimeMs : -1;
    if (this.#cached && this.#cached.configMtimeMs === mtime) {
      this.#cached.checkedAt = now;
      return this.#cached;
    }
    const project = await loadProject(this.#projectDir);
    const keys = [...project.compositions.keys()].sort();
    this.#cached = { project, keys, configMtimeMs: mtime, checkedAt: now };
    return this.#cached;
  }

  /** The registered keys, sorted; throws a KinoInputError when the project cannot be loaded. */
  async keys(now = Date.now()): Promise<string[]> {
    return (await this.#project(now)).keys;
  }

  /** The keys that are templates, with their variables, and the keys that could not be read. */
  async templates(now = Date.now()): Promise<TemplateListing> {
    return this.#catalog.list((await this.#project(now)).project);
  }

  /** What a registered key declares (undefined when it is not a template); throws when it cannot be read. */
  async variablesOf(key: string, now = Date.now()): Promise<Variables | undefined> {
    const entry = (await this.#project(now)).project.compositions.get(key);
    return entry ? (await this.#catalog.declarations(entry)).variables : undefined;
  }
}
