// The API bench's client of the render API: the renders it created (to cancel them all at the end)
// and the long renders it keeps queued so that one runs through every loaded window.
import { setTimeout as sleep } from 'node:timers/promises';
import { round } from './round.ts';
import { LONG_RENDER } from './settings.ts';

export interface JobBody {
  id: string;
  status: string;
}

interface JobTimes extends JobBody {
  startedAt?: string | null;
  finishedAt?: string | null;
}

export interface RenderEvent {
  /** Epoch ms. */
  at: number;
  id: string;
  event: string;
}

const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);

export class RenderClient {
  readonly baseUrl: string;
  readonly auth: Record<string, string>;
  /** Every render this bench created, long or tiny (the POST load adds its own). */
  readonly created = new Set<string>();
  /** The long renders, in the order queued. */
  readonly longJobs: string[] = [];

  constructor(baseUrl: string, token: string) {
    this.baseUrl = baseUrl;
    this.auth = { authorization: `Bearer ${token}` };
  }

  async api(path: string, init: { method?: string; json?: unknown } = {}): Promise<Response> {
    return fetch(`${this.baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: { ...this.auth, ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
    });
  }

  async enqueueLong(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const response = await this.api('/v1/renders', { method: 'POST', json: LONG_RENDER });
      const job = (await response.json()) as JobBody;
      if (response.status !== 202)
        throw new Error(`POST /v1/renders answered ${response.status}: ${JSON.stringify(job)}`);
      this.created.add(job.id);
      this.longJobs.push(job.id);
    }
  }

  async status(id: string): Promise<string> {
    const response = await this.api(`/v1/renders/${id}`);
    return ((await response.json()) as JobBody).status;
  }

  /** The long render running now, if any (they run first, in order: the queue is FIFO). */
  async runningLongJob(): Promise<string | null> {
    for (const id of this.longJobs) {
      const s = await this.status(id);
      if (s === 'running') return id;
      if (s === 'queued') return null;
    }
    return null;
  }

  /** Keeps enough long renders ahead in the queue to cover the next window, however fast they are. */
  async topUpLongRenders(windowSeconds: number): Promise<void> {
    let pending = 0;
    for (const id of this.longJobs) if (!TERMINAL.has(await this.status(id))) pending++;
    const wanted = 3 + Math.ceil(windowSeconds / 4); // product-launch at standard takes 6-20 s here
    if (pending < wanted) await this.enqueueLong(wanted - pending);
  }

  async waitForRunning(signal: AbortSignal): Promise<string> {
    const deadline = Date.now() + 180_000;
    for (;;) {
      const id = await this.runningLongJob();
      if (id) return id;
      if (Date.now() > deadline) throw new Error('no render started within 180 s');
      await sleep(250, undefined, { signal });
    }
  }

  /** Long renders starting or ending between `start` and `end` (epoch ms), in time order. */
  async longRenderEvents(start: number, end: number): Promise<RenderEvent[]> {
    const events: RenderEvent[] = [];
    for (const id of this.longJobs) {
      const job = await this.#job(id);
      const started = job.startedAt ? Date.parse(job.startedAt) : NaN;
      const finished = job.finishedAt ? Date.parse(job.finishedAt) : NaN;
      if (started >= start && started <= end) events.push({ at: started, id, event: 'started' });
      if (finished >= start && finished <= end) events.push({ at: finished, id, event: job.status });
    }
    return events.sort((x, y) => x.at - y.at);
  }

  /** How long the long renders that finished took, start to end (context for the windows). */
  async longRenderSeconds(): Promise<number[]> {
    const seconds: number[] = [];
    for (const id of this.longJobs) {
      const job = await this.#job(id);
      if (job.status === 'succeeded' && job.startedAt && job.finishedAt)
        seconds.push(round((Date.parse(job.finishedAt) - Date.parse(job.startedAt)) / 1000));
    }
    return seconds;
  }

  /** Cancels every render created so far, eight at a time. */
  async cancelAll(): Promise<{ canceled: number; alreadyDone: number; failed: number }> {
    const ids = [...this.created];
    const counts = { canceled: 0, alreadyDone: 0, failed: 0 };
    const lanes = Array.from({ length: 8 }, async () => {
      for (let id = ids.pop(); id !== undefined; id = ids.pop()) {
        try {
          const response = await this.api(`/v1/renders/${id}`, { method: 'DELETE' });
          await response.arrayBuffer();
          if (response.status === 200) counts.canceled++;
          else if (response.status === 409) counts.alreadyDone++;
          else counts.failed++;
        } catch {
          counts.failed++;
        }
      }
    });
    await Promise.all(lanes);
    return counts;
  }

  async #job(id: string): Promise<JobTimes> {
    const response = await this.api(`/v1/renders/${id}`);
    return (await response.json()) as JobTimes;
  }
}
