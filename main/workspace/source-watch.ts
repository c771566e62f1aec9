// Watches what the source revision covers (filesystem metadata, through chokidar) and says when
// something changed, so the worker is retired before the next request rather than during it.
import { watch } from 'chokidar';
import type { FSWatcher } from 'chokidar';

export class SourceWatch {
  readonly #watcher: FSWatcher;
  readonly #watched = new Set<string>();

  constructor(onChange: (file: string) => void) {
    this.#watcher = watch([], { ignoreInitial: true, persistent: true });
    this.#watcher.on('all', (_event, file) => onChange(file));
    // A watcher error (a folder removed under it) must not take the workspace down.
    this.#watcher.on('error', () => undefined);
  }

  /** Watches these paths (and stops watching ones no longer listed). */
  sync(paths: readonly string[]): void {
    const wanted = new Set(paths);
    const added = [...wanted].filter((p) => !this.#watched.has(p));
    const removed = [...this.#watched].filter((p) => !wanted.has(p));
    if (added.length > 0) this.#watcher.add(added);
    if (removed.length > 0) this.#watcher.unwatch(removed);
    for (const p of added) this.#watched.add(p);
    for (const p of removed) this.#watched.delete(p);
  }

  async close(): Promise<void> {
    await this.#watcher.close();
  }
}
