// Signed download links: an HMAC-SHA256 over the render id, the file kind and the link's expiry,
// so a token opens exactly one file until exactly one moment.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The files of a render's first output; the others' carry their index: video-1 … receipt-7. */
export type BaseFileKind = 'video' | 'poster' | 'receipt';
export type FileKind = BaseFileKind | `${BaseFileKind}-${1 | 2 | 3 | 4 | 5 | 6 | 7}`;
export const FILE_KIND_PATTERN = '^(video|poster|receipt)(-[1-7])?$';

/** The kind of output `index`'s file: video, video-1, … */
export function fileKind(base: BaseFileKind, index: number): FileKind {
  return (index === 0 ? base : `${base}-${index}`) as FileKind;
}

/** The base kind and output index of a kind. */
export function splitFileKind(kind: FileKind): { base: BaseFileKind; index: number } {
  const [base, index] = kind.split('-') as [BaseFileKind, string | undefined];
  return { base, index: index === undefined ? 0 : Number(index) };
}

export interface DownloadGrant {
  id: string;
  kind: FileKind;
  /** Epoch milliseconds; the token carries it in whole seconds, rounded up. */
  expiresAt: number;
}

export type TokenCheck = 'valid' | 'malformed' | 'forged' | 'expired';

// One grant has exactly one valid token string: the expiry without leading zeros, and the signature
// compared as its canonical base64url text (decoding would ignore the last character's spare bits).
const TOKEN_PATTERN = /^(0|[1-9]\d{0,11})\.([A-Za-z0-9_-]{43})$/;

function mac(secret: string, id: string, kind: FileKind, expiresSeconds: number): Buffer {
  return createHmac('sha256', secret).update(`kino-download\n${id}\n${kind}\n${expiresSeconds}`).digest();
}

/** "<expiry in epoch seconds>.<base64url HMAC>". */
export function signDownloadToken(secret: string, grant: DownloadGrant): string {
  // Rounded up: a link never stops working before the render's expiresAt (the render itself
  // answers 410 from then on, so the spare fraction of a second opens nothing).
  const expiresSeconds = Math.ceil(grant.expiresAt / 1000);
  return `${expiresSeconds}.${mac(secret, grant.id, grant.kind, expiresSeconds).toString('base64url')}`;
}

/**
 * Checks a token for one file. The signature is compared in constant time and checked before the
 * expiry, so a forged token never learns whether its expiry would have passed.
 */
export function verifyDownloadToken(
  secret: string,
  token: string,
  file: { id: string; kind: FileKind },
  now: number,
): TokenCheck {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return 'malformed';
  const expiresSeconds = Number(match[1]);
  const given = Buffer.from(match[2]!, 'ascii');
  const expected = Buffer.from(
    mac(secret, file.id, file.kind, expiresSeconds).toString('base64url'),
    'ascii',
  );
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forged';
  return expiresSeconds * 1000 <= now ? 'expired' : 'valid';
}
