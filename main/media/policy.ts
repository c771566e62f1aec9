// Which remote media a render may download, and how much of it. Embedded in the project config.
import { z } from 'zod';
import { MediaError } from './media-error.ts';

const HOST_PATTERN = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$|^\[[0-9a-f:.]+\]$/;

/** Skia's own ceiling for one bitmap is 2^29 bytes: 2^27 RGBA pixels. */
export const MAX_IMAGE_PIXELS_CEILING = 2 ** 27;

export const MediaPolicySchema = z.strictObject({
  allowHosts: z
    .array(
      z
        .string()
        .transform((host) => host.trim().toLowerCase())
        .pipe(z.string().regex(HOST_PATTERN, 'expected a host like "cdn.example.com" or "*.example.com"')),
    )
    .default([])
    .describe('Hosts remote media may come from: exact hosts, or "*.example.com" for any subdomain.'),
  maxBytes: z
    .number()
    .int()
    .positive()
    .default(50 * 1024 * 1024)
    .describe('Largest download accepted, in bytes (default 50 MiB).'),
  timeoutMs: z
    .number()
    .int()
    .positive()
    .default(15_000)
    .describe('Time allowed per download (default 15 s).'),
  maxRedirects: z
    .number()
    .int()
    .min(0)
    .max(20)
    .default(3)
    .describe('Redirects followed per download (default 3).'),
  maxImagePixels: z
    .number()
    .int()
    .positive()
    .max(MAX_IMAGE_PIXELS_CEILING)
    .default(40_000_000)
    .describe(
      'Largest still image decoded, in pixels (width × height; default 40 million). Read from the header before decoding; SVGs are rasterised under it.',
    ),
});
export type MediaPolicy = z.output<typeof MediaPolicySchema>;

/** No remote hosts: remote media must be allowed explicitly. */
export const DEFAULT_MEDIA_POLICY: MediaPolicy = MediaPolicySchema.parse({});

/** The host as a URL spells it: lower case, punycode, canonical IP literals (IPv6 in brackets), no trailing dot. */
export function normalizeHost(hostname: string): string {
  const bare = hostname.trim().replace(/\.$/, '');
  const bracketed = bare.includes(':') && !bare.startsWith('[') ? `[${bare}]` : bare;
  try {
    return new URL(`http://${bracketed}/`).hostname;
  } catch {
    return bracketed.toLowerCase();
  }
}

export function isHostAllowed(hostname: string, allowHosts: readonly string[]): boolean {
  const host = normalizeHost(hostname);
  return allowHosts.some((pattern) =>
    pattern.startsWith('*.')
      ? host.endsWith(`.${normalizeHost(pattern.slice(2))}`)
      : host === normalizeHost(pattern),
  );
}

/** Throws the error a user sees when a source (or a redirect it took) names a host outside the allowlist. */
export function assertHostAllowed(
  hostname: string,
  policy: MediaPolicy,
  source: string,
  redirected = false,
): void {
  if (isHostAllowed(hostname, policy.allowHosts)) return;
  const host = normalizeHost(hostname);
  throw new MediaError(
    'media_host_not_allowed',
    `media host "${host}" is not allowed (${redirected ? 'redirected to from ' : ''}"${source}"); ` +
      `add "${host}" to media.allowHosts in the project config to allow it`,
    { source },
  );
}
