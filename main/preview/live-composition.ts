// Keeps the browser bundle of a composition current: builds it once, then rebuilds whenever a file
// in its import graph (from esbuild's metafile) or a watched asset changes, and tells listeners.
import { randomBytes } from 'node:crypto';
import { sep } from 'node:path';
import { watch } from 'chokidar';
import type { FSWatcher } from 'chokidar';
import type { BuildState } from '../../shared/protocol/preview.ts';
import { bundleCompositionForBrowser } from './bundle-composition.ts';
import type { BrowserBundle } from './bundle-composition.ts';

/** Editors save in bursts (write, rename, chmod): one rebuild per burst. */
const SETTLE_MS = 60;

export interface LiveCompositionOptions {
  entry: string;
  /** Watched from the start besides the import graph: the assets folder, the project config. */
  alsoWatch?: string[];
}

export class LiveComposition {
  readonly entry: string;
  readonly #runId = randomBytes(3).toString('hex');
  readonly #listeners = new Set<(state: BuildState) => void>();
  readonly #watched = new Set<string>();
  #watcher: FSWatcher | undefined;
  #ready: Promise<void> = Promise.resolve();
  #bundle: BrowserBundle | undefined;
  #version = 0;
  #timer: NodeJS.Timeout | undefined;
  /** The build in progress; a change during it queues exactly one more. */
  #building: Promise<void> | undefined;
  #again = false;
  #closed = false;

  constructor(options: LiveCompositionOptions) {
    this.entry = options.entry;
    for (const file of options.alsoWatch ?? []) this.#watched.add(file);
  }

  /** Builds the first bundle and starts watching. */
  async start(): Promise<void> {
    await this.#build();
    this.#watcher = watch([...this.#watched], { ignoreInitial: true, atomic: true });
    this.#ready = new Promise((resolve) => this.#watcher!.once('ready', () => resolve()));
    this.#watcher.on('all', () => this.#schedule());
    this.#watcher.on('error', () => {
      // A vanished folder or a permission problem: keep serving the last build.
    });
  }

  /** Resolves once the initial watch is in place (tests wait for it before editing files). */
  ready(): Promise<void> {
    return this.#ready;
  }

  get state(): BuildState {
    const id = `${this.#runId}-${this.#version}`;
    const bundle = this.#bundle;
    if (!bundle) return { id, ok: false, problems: [{ file: this.entry, message: 'not built yet' }] };
    return bundle.ok ? { id, ok: true } : { id, ok: false, problems: bundle.problems };
  }

  /** The bundled module's code, when the last build succeeded. */
  get code(): string | undefined {
    return this.#bundle?.ok ? this.#bundle.code : undefined;
  }

  onChange(listener: (state: BuildState) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Also watch `file` (media the page loaded): editing an asset reloads the page's copy. */
  watchFile(file: string): void {
    this.#addWatched([file]);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#watcher?.close();
    await this.#building;
  }

  #addWatched(files: string[]): void {
    // Files inside node_modules only change on installs; watching them costs handles for nothing.
    const fresh = files.filter(
      (file) => !this.#watched.has(file) && !file.includes(`${sep}node_modules${sep}`),
    );
    for (const file of fresh) this.#watched.add(file);
    if (fresh.length > 0) this.#watcher?.add(fresh);
  }

  #schedule(): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#rebuild(), SETTLE_MS);
  }

  async #rebuild(): Promise<void> {
    if (this.#building) {
      this.#again = true;
      return;
    }
    this.#building = this.#build();
    await this.#building;
    this.#building = undefined;
    if (this.#closed) return;
    const state = this.state;
    for (const listener of this.#listeners) listener(state);
    if (this.#again) {
      this.#again = false;
      await this.#rebuild();
    }
  }

  async #build(): Promise<void> {
    let bundle: BrowserBundle;
    try {
      bundle = await bundleCompositionForBrowser(this.entry);
    } catch (error) {
      // esbuild itself failed (not the composition): show it like a compile error.
      const message = error instanceof Error ? error.message : String(error);
      bundle = { ok: false, problems: [{ file: this.entry, message }], inputs: [this.entry] };
    }
    this.#bundle = bundle;
    this.#version += 1;
    // A failed build knows only the files in its errors: keep watching the whole previous graph.
    this.#addWatched(bundle.inputs);
  }
}
