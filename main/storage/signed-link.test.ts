import { describe, expect, it } from 'vitest';
import { signDownloadToken, verifyDownloadToken } from './signed-link.ts';

const secret = 'test-secret-0123456789abcdef';
const grant = { id: 'rnd_abcdefghijklmnopqrstuv', kind: 'video' as const, expiresAt: 2_000_000_000_000 };
const now = 1_900_000_000_000;

describe('signed download tokens', () => {
  it('opens the file it was signed for until its expiry', () => {
    const token = signDownloadToken(secret, grant);
    expect(verifyDownloadToken(secret, token, grant, now)).toBe('valid');
    expect(verifyDownloadToken(secret, token, grant, grant.expiresAt)).toBe('expired');
  });

  it('works until the grant expires even when its expiry falls within a second', () => {
    for (const fraction of [1, 250, 500, 999]) {
      const expiresAt = grant.expiresAt + fraction;
      const token = signDownloadToken(secret, { ...grant, expiresAt });
      expect(Number(token.split('.')[0]) * 1000, `+${fraction} ms`).toBeGreaterThanOrEqual(expiresAt);
      expect(verifyDownloadToken(secret, token, grant, expiresAt - 1), `+${fraction} ms`).toBe('valid');
    }
  });

  it('is bound to the id, the kind, the expiry and the secret', () => {
    const token = signDownloadToken(secret, grant);
    expect(verifyDownloadToken(secret, token, { ...grant, id: 'rnd_otherotherotherotherot' }, now)).toBe(
      'forged',
    );
    expect(verifyDownloadToken(secret, token, { ...grant, kind: 'poster' }, now)).toBe('forged');
    expect(verifyDownloadToken('another-secret-0123456789', token, grant, now)).toBe('forged');
    const [expiry, signature] = token.split('.');
    expect(verifyDownloadToken(secret, `${Number(expiry) + 3600}.${signature}`, grant, now)).toBe('forged');
  });

  it('calls anything not shaped like a token malformed', () => {
    for (const bad of ['', 'abc', '123.', '.abc', `12.${'A'.repeat(42)}`, `x.${'A'.repeat(43)}`]) {
      expect(verifyDownloadToken(secret, bad, grant, now)).toBe('malformed');
    }
  });

  it('has exactly one valid string per grant: no spare signature bits, no leading zeros', () => {
    const token = signDownloadToken(secret, grant);
    const [expiry, signature] = token.split('.') as [string, string];
    // 43 base64url characters carry 258 bits for a 256-bit MAC: the last character's low two bits
    // are spare, so four characters decode to the same bytes. Only the canonical one may verify.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(signature.at(-1)!);
    for (let spare = 1; spare < 4; spare++) {
      const twin = `${signature.slice(0, -1)}${alphabet[(last & ~3) | ((last + spare) & 3)]}`;
      expect(Buffer.from(twin, 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
      expect(verifyDownloadToken(secret, `${expiry}.${twin}`, grant, now)).toBe('forged');
    }
    expect(verifyDownloadToken(secret, `0${expiry}.${signature}`, grant, now)).toBe('malformed');
    expect(verifyDownloadToken(secret, `00${expiry}.${signature}`, grant, now)).toBe('malformed');
  });
});
