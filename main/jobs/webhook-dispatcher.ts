// Delivers each ended job's event to its webhook, signed the Standard Webhooks way (webhook-id,
// webhook-timestamp, webhook-signature: HMAC-SHA256 with WEBHOOK_SECRET, through the standardwebhooks
// package). At least once: a failed attempt is retried on WEBHOOK_RETRY_SCHEDULE (about a day by
// default) with jitter, every attempt is recorded in the job, and the schedule lives in the job store,
// so retries survive a restart. The URL gets the remote-media rules: https only, and only public
// addresses, checked at connect (the address checked is the one connected to, so DNS cannot move it).
import { lookup } from 'node:dns/promises';
import type { Logger } from 'pino';
import { Webhook } from 'standardwebhooks';
import { Agent, request } from 'undici';
import { isPublicUnicastAddress, pinnedLookup } from '../media/safe-fetch.ts';
import type { ResolvedAddress } from '../media/safe-fetch.ts';
import type { JobStore, RenderJob } from './job-store.ts';
import type { DueWebhook, WebhookOutbox } from './webhook-outbox.ts';

/** The Standard Webhooks (Svix) schedule after the first attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS = [5, 300, 1800, 7200, 18000, 36000, 36000].map(
  (s) => s * 1000,
);
const TICK_MS = 500;
const ATTEMPT_TIMEOUT_MS = 10_000;
const PARALLEL = 4;
/** Of a delivery's answer, only this much is kept in the error. */
const MAX_ERROR_CHARS = 200;

export interface WebhookDispatcherOptions {
  /** The outbox, and the job each delivery announces. */
  store: WebhookOutbox & Pick<JobStore, 'get'>;
  /** A Standard Webhooks secret: "whsec_" and base64. */
  secret: string;
  /** Delays before each retry (the first attempt is immediate). */
  retryScheduleMs: readonly number[];
  /** Tests and intranets: plain http and any address. Dangerous on a server that reaches a private network. */
  allowPrivate: boolean;
  /** The event's body: the job as GET returns it. */
  body: (job: RenderJob) => unknown;
  log: Logger;
  now?: () => number;
}

/** Why the URL may not be called, or undefined when it may (checked at submit; again at connect). */
export function webhookUrlProblem(url: string, allowPrivate: boolean): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a URL';
  }
  if (parsed.protocol !== 'https:' && !(allowPrivate && parsed.protocol === 'http:')) {
    return 'webhooks are sent over https only (WEBHOOK_ALLOW_PRIVATE=true also allows http)';
  }
  if (parsed.username || parsed.password) return 'a webhook URL may not carry credentials';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) {
    return 'webhooks go to public hosts only';
  }
  if (!allowPrivate && /^[\d.]+$|:/.test(host) && !isPublicUnicastAddress(host)) {
    return 'webhooks go to public addresses only';
  }
  return undefined;
}

/** The start of a response body (an error's explanation), the rest discarded unread. */
async function cappedText(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  max: number,
): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= max) break;
    }
  } catch {
    // An answer cut short still has its status.
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, max);
}

/** Standard Webhooks' jitter: ±20 % of each delay. */
const jittered = (ms: number) => Math.round(ms * (0.8 + Math.random() * 0.4));

export class WebhookDispatcher {
  readonly #options: WebhookDispatcherOptions;
  readonly #signer: Webhook;
  readonly #now: () => number;
  /** Deliveries in flight, by job id: each runs on its own, so one slow receiver holds up no other. */
  readonly #sending = new Map<string, Promise<void>>();
  readonly #stopping = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  #ticking = false;

  constructor(options: WebhookDispatcherOptions) {
    this.#options = options;
    this.#signer = new Webhook(options.secret);
    this.#now = options.now ?? Date.now;
  }

  start(): void {
    this.#timer = setInterval(() => void this.#tick(), TICK_MS);
    this.#timer.unref();
  }

  /** Stops sending: attempts in flight are aborted (and recorded as such, to be retried after a restart). */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#stopping.abort();
    await Promise.all(this.#sending.values());
  }

  async #tick(): Promise<void> {
    const { store, log } = this.#options;
    // A slow store must not stack ticks on top of each other.
    if (this.#ticking) return;
    this.#ticking = true;
    try {
      await store.enqueueWebhookEvents(this.#now());
      const free = PARALLEL - this.#sending.size;
      if (free <= 0) return;
      const due = (await store.dueWebhooks(this.#now(), PARALLEL * 2)).filter(
        (d) => !this.#sending.has(d.jobId),
      );
      for (const delivery of due.slice(0, free)) {
        this.#sending.set(
          delivery.jobId,
          this.#deliver(delivery)
            .catch((error: unknown) =>
              log.error({ err: error, jobId: delivery.jobId }, 'webhook delivery failed'),
            )
            .finally(() => this.#sending.delete(delivery.jobId)),
        );
      }
    } catch (error) {
      log.error({ err: error }, 'webhook dispatch failed');
    } finally {
      this.#ticking = false;
    }
  }

  async #deliver(delivery: DueWebhook): Promise<void> {
    const { store, log, retryScheduleMs } = this.#options;
    {
      const job = await store.get(delivery.jobId);
      if (!job || this.#stopping.signal.aborted) return;
      const at = this.#now();
      const outcome = await this.#send(delivery, job, at);
      // Cut short by a stop: not the receiver's failure; the delivery stays due for the next start.
      if (this.#stopping.signal.aborted) return;
      const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
      const delay = retryScheduleMs[delivery.attempts];
      const nextAt = delivered || delay === undefined ? null : this.#now() + jittered(delay);
      await store.recordWebhookAttempt(delivery.jobId, { at, ...outcome }, delivered, nextAt);
      const fields = {
        jobId: delivery.jobId,
        event: delivery.event,
        status: outcome.status,
        attempt: delivery.attempts + 1,
      };
      if (delivered) log.info(fields, 'webhook delivered');
      else if (nextAt === null)
        log.warn({ ...fields, error: outcome.error }, 'webhook failed; no retries left');
      else
        log.info(
          { ...fields, error: outcome.error, retryInMs: nextAt - this.#now() },
          'webhook failed; will retry',
        );
    }
  }

  async #send(
    delivery: DueWebhook,
    job: RenderJob,
    at: number,
  ): Promise<{ status: number | null; error: string | null }> {
    const { allowPrivate, body } = this.#options;
    const problem = webhookUrlProblem(delivery.url, allowPrivate);
    if (problem) return { status: null, error: problem };
    const url = new URL(delivery.url);
    // The body is the job as GET /v1/renders/{id} answers it; its status names the event.
    const payload = JSON.stringify(body(job));
    // One id per event, the same on every retry, so a receiver can drop duplicates.
    const id = `msg_${delivery.jobId}_${delivery.event}`;
    const signature = this.#signer.sign(id, new Date(at), payload);
    let agent: Agent | undefined;
    try {
      if (!allowPrivate) {
        const pinned = await this.#publicAddress(url.hostname.replace(/^\[|\]$/g, ''));
        if (typeof pinned === 'string') return { status: null, error: pinned };
        agent = new Agent({ connect: { lookup: pinnedLookup(pinned) }, pipelining: 0 });
      }
      const response = await request(url, {
        method: 'POST',
        ...(agent ? { dispatcher: agent } : {}),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'kino-webhooks',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(at / 1000)),
          'webhook-signature': signature,
          'kino-event': delivery.event,
        },
        body: payload,
        signal: AbortSignal.any([AbortSignal.timeout(ATTEMPT_TIMEOUT_MS), this.#stopping.signal]),
      });
      const text = await cappedText(response.body, MAX_ERROR_CHARS);
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return {
        status: response.statusCode,
        error: ok ? null : `HTTP ${response.statusCode}${text ? `: ${text.slice(0, MAX_ERROR_CHARS)}` : ''}`,
      };
    } catch (error) {
      const reason =
        error instanceof Error
          ? error.cause instanceof Error
            ? error.cause.message
            : error.message
          : String(error);
      return { status: null, error: reason.slice(0, MAX_ERROR_CHARS) };
    } finally {
      await agent?.destroy();
    }
  }

  /** The host's address when all of them are public; else why not. */
  async #publicAddress(hostname: string): Promise<ResolvedAddress | string> {
    let addresses: ResolvedAddress[];
    try {
      addresses =
        isPublicUnicastAddress(hostname) || /^[\d.]+$|:/.test(hostname)
          ? [{ address: hostname, family: hostname.includes(':') ? 6 : 4 }]
          : ((await Promise.race([
              lookup(hostname, { all: true, verbatim: true }),
              new Promise<never>((_, reject) =>
                setTimeout(() => reject(new Error('DNS timeout')), ATTEMPT_TIMEOUT_MS).unref(),
              ),
            ])) as ResolvedAddress[]);
    } catch {
      return `could not resolve ${hostname}`;
    }
    const refused = addresses.find((a) => !isPublicUnicastAddress(a.address));
    if (refused || addresses.length === 0) {
      return `${hostname} resolves to ${refused?.address ?? 'nothing'}, not a public address; webhooks go to public addresses only`;
    }
    return addresses[0]!;
  }
}
