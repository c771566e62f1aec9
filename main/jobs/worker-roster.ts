// Who processes the shared queue: each worker process writes a heartbeat (its host, slots and busy
// slots) to one Redis hash. A render uses it to ask how many slots are free to split into chunks,
// and a start uses it to warn when workers on several hosts share local storage.
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';

const HEARTBEAT_MS = 5_000;
/** A worker not heard from for this long is gone (killed, or cut off). */
const STALE_MS = 3 * HEARTBEAT_MS;

export interface RosterEntry {
  host: string;
  pid: number;
  slots: number;
  busy: number;
  seenAt: number;
}

export class WorkerRoster {
  readonly #redis: Redis;
  readonly #key: string;
  readonly #id: string;
  #timer: NodeJS.Timeout | undefined;

  constructor(redis: Redis, prefix: string, id: string) {
    this.#redis = redis;
    this.#key = `${prefix}:workers`;
    this.#id = id;
  }

  /** Writes this worker's entry now and every few seconds, reading `busy` each time. */
  start(slots: number, busy: () => number): void {
    const beat = () =>
      this.#write({ host: hostname(), pid: process.pid, slots, busy: busy(), seenAt: Date.now() }).catch(
        () => undefined,
      );
    void beat();
    this.#timer = setInterval(beat, HEARTBEAT_MS);
    this.#timer.unref();
  }

  /** Writes the entry at once (a slot was just taken or freed). */
  async update(slots: number, busy: number): Promise<void> {
    await this.#write({ host: hostname(), pid: process.pid, slots, busy, seenAt: Date.now() });
  }

  async #write(entry: RosterEntry): Promise<void> {
    await this.#redis.hset(this.#key, this.#id, JSON.stringify(entry));
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#redis.hdel(this.#key, this.#id).catch(() => undefined);
  }

  /** Every live worker, stale entries dropped. */
  async entries(): Promise<(RosterEntry & { id: string })[]> {
    const all = await this.#redis.hgetall(this.#key);
    const now = Date.now();
    const live: (RosterEntry & { id: string })[] = [];
    for (const [id, text] of Object.entries(all)) {
      const entry = JSON.parse(text) as RosterEntry;
      if (now - entry.seenAt > STALE_MS) await this.#redis.hdel(this.#key, id);
      else live.push({ ...entry, id });
    }
    return live;
  }

  /** Free slots on every live worker but this one. */
  async freeSlotsElsewhere(): Promise<number> {
    const entries = await this.entries();
    return entries
      .filter((entry) => entry.id !== this.#id)
      .reduce((sum, entry) => sum + Math.max(0, entry.slots - entry.busy), 0);
  }
}
