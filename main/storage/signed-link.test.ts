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
});
