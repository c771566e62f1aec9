// The composition keys a client may render: those registered in the render project's kino.json.
// Read again when the file changes, so a new key is live without a restart.
import { stat } from 'node:fs/promises';
import { findProjectConfig, loadProject } from '../project/load.ts';

export class KeyRegistry {
  readonly #projectDir: string;
  #cached: { keys: string[]; configMtimeMs: number; checkedAt: number } | undefined;

  constructor(projectDir: string) {
    this.#projectDir = projectDir;
  }

  /** The registered keys, sorted; throws a KinoInputError when the project cannot be loaded. */
  async keys(now = Date.now()): Promise<string[]> {
    // Re-checking the config's mtime at most once a second keeps POST cheap under load.
    if (this.#cached && now - this.#cached.checkedAt < 1000) return this.#cached.keys;
    const configPath = await findProjectConfig(this.#projectDir);
    const mtime = configPath ? (await stat(configPath)).mtimeMs : -1;
    if (this.#cached && this.#cached.configMtimeMs === mtime) {
      this.#cached.checkedAt = now;
      return this.#cached.keys;
    }
    const project = await loadProject(this.#projectDir);
    const keys = [...project.compositions.keys()].sort();
    this.#cached = { keys, configMtimeMs: mtime, checkedAt: now };
    return keys;
  }
}
