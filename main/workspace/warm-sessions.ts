// Sessions the composition process keeps between requests. Opening a drawing session registers
// fonts, resolves and decodes images and probes videos; a clip's decoder then starts and seeks. That
// costs more than drawing a frame (a clip scene: seconds), so a frame request reuses the session the
// last one opened, and its video decoders, which read on from where they are.
//
// A kept session must draw what a fresh one would. It is keyed by the source revision and whatever
// else it was opened with (the aspect, the template values), and dropped when:
// - a request comes for another revision (the server retires the worker then anyway);
// - a file it read changed: the revision covers the assets folder, but a spec may name media
//   elsewhere in the project, and a fresh session would read the new file (size, mtime, inode
//   compared on each request: one stat a file);
// - it has been idle for IDLE_MS (it holds a frame-sized surface and maybe ffmpeg decoders);
// - more than MAX_ENTRIES are held (least recently used first);
// - it drew without a source it could not get (an inspect session is lenient): that may turn up;
// - an operation on it failed (its state is then unknown), unless the failure is known to leave it
//   as it was.
import { stat } from 'node:fs/promises';

/** What the cache needs of a session. */
export interface ReusableSession {
  close(): void;
  /** The local files the session read, checked for changes before each reuse. */
  filesRead(): readonly string[];
  /**
   * False when a fresh session might draw differently even with no file changed (it went without a
   * source it could not get, which may turn up): it is then closed after the request.
   */
  reusable?(): boolean;
}

export interface WarmSessionKey {
  sourceRevision: string;
  /** Everything else the session was opened with, as one string (kind, aspect, values). */
  variant: string;
}

export interface WarmSessionsOptions {
  /** Idle time after which a session is closed; default IDLE_MS. */
  idleMs?: number | undefined;
  /** Sessions held at most; default MAX_ENTRIES. */
  maxEntries?: number | undefined;
  /** Errors that leave a session as it was (a frame refused as out of range): it is kept. */
  keepAfter?: ((error: unknown) => boolean) | undefined;
}

/** A minute: long enough to cover an author looking at a frame and asking for the next. */
export const IDLE_MS = 60_000;
/** Two: a frame session and an inspect session, or two aspects or value sets being compared. */
export const MAX_ENTRIES = 2;

/** How many sessions were opened and reused, and how many are held (for tests and benchmarks). */
export interface WarmSessionStats {
  opened: number;
  reused: number;
  held: number;
}

interface Entry<T> {
  id: string;
  revision: string;
  session: T;
  /** Each file read, with its identity when the session was opened. */
  files: Map<string, string>;
  users: number;
  /** Dropped while in use: closed when the last user is done. */
  dropped: boolean;
  closed: boolean;
  idleTimer: NodeJS.Timeout | undefined;
}

async function fileIdentity(file: string): Promise<string> {
  const info = await stat(file).catch(() => undefined);
  return info ? `${info.size}:${info.mtimeMs}:${info.ino}` : 'missing';
}

async function identities(files: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(files)];
  return new Map(await Promise.all(unique.map(async (file) => [file, await fileIdentity(file)] as const)));
}

async function unchanged(files: ReadonlyMap<string, string>): Promise<boolean> {
  const now = await identities([...files.keys()]);
  return [...files].every(([file, identity]) => now.get(file) === identity);
}

export class WarmSessions<T extends ReusableSession> {
  readonly #idleMs: number;
  readonly #maxEntries: number;
  readonly #keepAfter: (error: unknown) => boolean;
  /** Least recently used first (an entry is moved to the end on each use). */
  readonly #entries = new Map<string, Entry<T>>();
  #opened = 0;
  #reused = 0;

  constructor(options: WarmSessionsOptions = {}) {
    this.#idleMs = options.idleMs ?? IDLE_MS;
    this.#maxEntries = Math.max(1, options.maxEntries ?? MAX_ENTRIES);
    this.#keepAfter = options.keepAfter ?? (() => false);
  }

  get stats(): WarmSessionStats {
    return { opened: this.#opened, reused: this.#reused, held: this.#entries.size };
  }

  /**
   * Runs `work` on the session kept for `key`, opened by `open` when there is none (or the kept one
   * can no longer be trusted). The session stays open for the next request unless `work` fails.
   */
  async use<R>(key: WarmSessionKey, open: () => Promise<T>, work: (session: T) => Promise<R>): Promise<R> {
    const entry = await this.#take(key, open);
    entry.users++;
    try {
      return await work(entry.session);
    } catch (error) {
      if (!this.#keepAfter(error)) this.#drop(entry);
      throw error;
    } finally {
      entry.users--;
      if (!entry.dropped && entry.session.reusable?.() === false) this.#drop(entry);
      if (entry.dropped) this.#closeWhenFree(entry);
      else if (entry.users === 0) this.#startIdleTimer(entry);
    }
  }

  /** Closes every session (the process is stopping). */
  closeAll(): void {
    for (const entry of [...this.#entries.values()]) this.#drop(entry);
  }

  async #take(key: WarmSessionKey, open: () => Promise<T>): Promise<Entry<T>> {
    for (const entry of [...this.#entries.values()]) {
      if (entry.revision !== key.sourceRevision) this.#drop(entry);
    }
    const id = JSON.stringify([key.sourceRevision, key.variant]);
    const kept = this.#entries.get(id);
    if (kept) {
      clearTimeout(kept.idleTimer);
      kept.idleTimer = undefined;
      if (await unchanged(kept.files)) {
        // Still there after the stats (nothing dropped it meanwhile): most recently used now.
        if (this.#entries.get(id) === kept) {
          this.#entries.delete(id);
          this.#entries.set(id, kept);
          this.#reused++;
          return kept;
        }
      } else {
        this.#drop(kept);
      }
    }
    const session = await open();
    this.#opened++;
    const entry: Entry<T> = {
      id,
      revision: key.sourceRevision,
      session,
      files: await identities(session.filesRead()),
      users: 0,
      dropped: false,
      closed: false,
      idleTimer: undefined,
    };
    const replaced = this.#entries.get(id);
    if (replaced) this.#drop(replaced);
    this.#entries.set(id, entry);
    for (const older of [...this.#entries.values()]) {
      if (this.#entries.size <= this.#maxEntries) break;
      if (older !== entry) this.#drop(older);
    }
    return entry;
  }

  #startIdleTimer(entry: Entry<T>): void {
    clearTimeout(entry.idleTimer);
    entry.idleTimer = setTimeout(() => this.#drop(entry), this.#idleMs);
    // An idle session never keeps the process alive.
    entry.idleTimer.unref();
  }

  #drop(entry: Entry<T>): void {
    if (this.#entries.get(entry.id) === entry) this.#entries.delete(entry.id);
    clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
    entry.dropped = true;
    this.#closeWhenFree(entry);
  }

  #closeWhenFree(entry: Entry<T>): void {
    if (entry.users > 0 || entry.closed) return;
    entry.closed = true;
    entry.session.close();
  }
}
