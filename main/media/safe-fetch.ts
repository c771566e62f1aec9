// Downloads remote media without letting a spec reach the render machine's network: only allowed
// hosts, only public unicast addresses, the checked address is the one connected to (no DNS rebinding),
// every redirect hop checked again, and hard caps on size and time.
import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import ipaddr from 'ipaddr.js';
import { MediaError } from './media-error.ts';
import { assertHostAllowed } from './policy.ts';
import type { MediaPolicy } from './policy.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface SafeFetchOptions {
  policy: MediaPolicy;
  signal?: AbortSignal | undefined;
  /** The spec's source string, named in errors (defaults to the URL). */
  source?: string | undefined;
  /** DNS resolution; tests replace it to map made-up hosts to chosen addresses. */
  resolveHost?: ((hostname: string) => Promise<ResolvedAddress[]>) | undefined;
  /** Which resolved addresses may be connected to; tests use it to admit their loopback server. */
  isAddressAllowed?: ((address: string) => boolean) | undefined;
}

export interface FetchedFile {
  path: string;
  bytes: number;
  /** The URL after redirects. */
  finalUrl: string;
  contentType: string | undefined;
}

/**
 * The IPv4 address an IPv6 address carries, for the forms that reach it: IPv4-compatible (::/96,
 * deprecated but still routed to the IPv4 host by some stacks), NAT64 (64:ff9b::/96) and 6to4
 * (2002::/16). IPv4-mapped addresses (::ffff:0:0/96) are unwrapped by ipaddr.process already.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const parts = address.parts;
  const fromWords = (high: number, low: number) =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  if (parts.slice(0, 6).every((part) => part === 0)) return fromWords(parts[6]!, parts[7]!);
  const range = address.range();
  if (range === 'rfc6052') return fromWords(parts[6]!, parts[7]!);
  if (range === '6to4') return fromWords(parts[1]!, parts[2]!);
  return undefined;
}

/** True only for public unicast addresses; an IPv6 address that carries an IPv4 one is judged as it. */
export function isPublicUnicastAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  const judged = parsed.kind() === 'ipv6' ? (embeddedIPv4(parsed as ipaddr.IPv6) ?? parsed) : parsed;
  return judged.range() === 'unicast';
}

async function systemResolve(hostname: string): Promise<ResolvedAddress[]> {
  const results = await lookup(hostname, { all: true, verbatim: true });
  return results.map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 }));
}

function parseRemoteUrl(url: string, source: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new MediaError('media_unsupported_scheme', `media source "${source}" is not a valid URL`, {
      source,
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new MediaError(
      'media_unsupported_scheme',
      `media source "${source}" uses ${parsed.protocol} — only http(s) URLs, "asset:<path>" or project-relative paths are allowed`,
      { source },
    );
  }
  if (parsed.username || parsed.password) {
    throw new MediaError('media_unsupported_scheme', `media URL "${source}" must not carry credentials`, {
      source,
    });
  }
  return parsed;
}

function ipLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || /^\d+\.\d+\.\d+\.\d+$/.test(bare)) ? bare : undefined;
}

function rejectOnAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Resolves the host and returns the one address to connect to, after checking every address it has. */
async function checkedAddress(
  url: URL,
  options: SafeFetchOptions,
  signal: AbortSignal,
): Promise<ResolvedAddress> {
  const source = options.source ?? url.href;
  const allowed = options.isAddressAllowed ?? isPublicUnicastAddress;
  const literal = ipLiteral(url.hostname);
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [{ address: literal, family: literal.includes(':') ? 6 : 4 }];
  } else {
    try {
      addresses = await rejectOnAbort((options.resolveHost ?? systemResolve)(url.hostname), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new MediaError(
        'media_dns_failed',
        `could not resolve host "${url.hostname}" for media "${source}"`,
        {
          source,
          cause: error,
        },
      );
    }
  }
  if (addresses.length === 0) {
    throw new MediaError('media_dns_failed', `host "${url.hostname}" has no address (media "${source}")`, {
      source,
    });
  }
  // A host with any internal address is refused outright rather than trusting its public ones.
  const refused = addresses.find((a) => !allowed(a.address));
  if (refused) {
    const range = ipaddr.isValid(refused.address) ? ipaddr.process(refused.address).range() : 'invalid';
    throw new MediaError(
      'media_address_not_allowed',
      `media host "${url.hostname}" resolves to ${refused.address} (${range}), which is not a public address; ` +
        `media is only fetched from public hosts`,
      { source },
    );
  }
  return addresses[0]!;
}

/** A DNS lookup that always answers with the address already checked, so the connection cannot be re-pointed. */
export function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as LookupFunction;
}

async function writeCapped(body: Readable, destination: string, maxBytes: number, url: URL, source: string) {
  const temp = `${destination}.${randomBytes(6).toString('hex')}.part`;
  let bytes = 0;
  try {
    await pipeline(
      body,
      async function* capped(chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          bytes += chunk.length;
          if (bytes > maxBytes) throw tooLarge(url, source, maxBytes);
          yield chunk;
        }
      },
      createWriteStream(temp, { flags: 'wx' }),
    );
    await rename(temp, destination);
    return bytes;
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

function tooLarge(url: URL, source: string, maxBytes: number): MediaError {
  return new MediaError(
    'media_too_large',
    `media "${source}" from ${url.host} is larger than the ${maxBytes}-byte limit; raise media.maxBytes in the project config`,
    { source },
  );
}

/** Drops a response body we will not read; destroying it emits an abort error nobody needs. */
function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Downloads `url` into `destination` (written to a temp file, then renamed) under `options.policy`. */
export async function safeFetchToFile(
  url: string,
  destination: string,
  options: SafeFetchOptions,
): Promise<FetchedFile> {
  const { policy } = options;
  const source = options.source ?? url;
  const timeout = AbortSignal.timeout(policy.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  let current = parseRemoteUrl(url, source);
  // undici is imported on the first download: a render without remote media (and every `kino
  // frame` start-up) does not pay for loading it.
  const { Agent, request } = await import('undici');
  try {
    for (let redirects = 0; ; redirects++) {
      assertHostAllowed(current.hostname, policy, source, redirects > 0);
      const pinned = await checkedAddress(current, options, signal);
      const agent = new Agent({ connect: { lookup: pinnedLookup(pinned) }, pipelining: 0 });
      try {
        const response = await request(current, {
          dispatcher: agent,
          method: 'GET',
          signal,
          headers: { 'user-agent': 'kino-media-fetch', accept: '*/*' },
        });
        const location = response.headers.location;
        if (REDIRECT_STATUSES.has(response.statusCode) && typeof location === 'string') {
          discard(response.body);
          if (redirects >= policy.maxRedirects) {
            throw new MediaError(
              'media_too_many_redirects',
              `media "${source}" redirected more than ${policy.maxRedirects} times; raise media.maxRedirects or use the final URL`,
              { source },
            );
          }
          current = parseRemoteUrl(new URL(location, current).href, source);
          continue;
        }
        if (response.statusCode < 200 || response.statusCode >= 300) {
          discard(response.body);
          throw new MediaError(
            'media_http_error',
            `media "${source}" could not be downloaded: ${current.host} answered HTTP ${response.statusCode}`,
            { source },
          );
        }
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > policy.maxBytes) {
          discard(response.body);
          throw tooLarge(current, source, policy.maxBytes);
        }
        const bytes = await writeCapped(response.body, destination, policy.maxBytes, current, source);
        const contentType = response.headers['content-type'];
        return {
          path: destination,
          bytes,
          finalUrl: current.href,
          contentType: typeof contentType === 'string' ? contentType : undefined,
        };
      } finally {
        await agent.destroy();
      }
    }
  } catch (error) {
    if (error instanceof MediaError) throw error;
    if (timeout.aborted) {
      throw new MediaError(
        'media_timeout',
        `media "${source}" took longer than ${policy.timeoutMs} ms to download; raise media.timeoutMs in the project config`,
        { source, cause: error },
      );
    }
    if (options.signal?.aborted) throw options.signal.reason;
    throw new MediaError(
      'media_fetch_failed',
      `media "${source}" could not be downloaded from ${current.host}: ${error instanceof Error ? error.message : String(error)}`,
      { source, cause: error },
    );
  }
}
