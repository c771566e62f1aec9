import { describe, expect, it } from 'vitest';
import { DEFAULT_MEDIA_POLICY, isHostAllowed, MediaPolicySchema } from './policy.ts';

describe('MediaPolicySchema', () => {
  it('defaults to no remote hosts, 50 MiB, 15 s, 3 redirects and 40 MP images', () => {
    expect(DEFAULT_MEDIA_POLICY).toEqual({
      allowHosts: [],
      maxBytes: 50 * 1024 * 1024,
      timeoutMs: 15_000,
      maxRedirects: 3,
      maxImagePixels: 40_000_000,
    });
  });

  it('lower-cases hosts and accepts wildcards and IP literals', () => {
    const policy = MediaPolicySchema.parse({
      allowHosts: ['CDN.Example.com', '*.images.example.org', '[2606:4700::1]'],
    });
    expect(policy.allowHosts).toEqual(['cdn.example.com', '*.images.example.org', '[2606:4700::1]']);
  });

  it.each([['https://cdn.example.com'], ['*'], ['cdn.example.com/path'], ['a.*.example.com']])(
    'rejects the host pattern %s',
    (host) => {
      expect(MediaPolicySchema.safeParse({ allowHosts: [host] }).success).toBe(false);
    },
  );

  it('rejects unknown keys, so typos do not silently widen or narrow the policy', () => {
    expect(MediaPolicySchema.safeParse({ allowHost: ['x.com'] }).success).toBe(false);
  });
});

describe('isHostAllowed', () => {
  const allow = ['cdn.example.com', '*.media.example.org', '[::ffff:7f00:1]'];

  it.each([
    ['cdn.example.com', true],
    ['CDN.EXAMPLE.COM.', true],
    ['a.media.example.org', true],
    ['a.b.media.example.org', true],
    ['media.example.org', false],
    ['evilmedia.example.org', false],
    ['example.com', false],
    ['cdn.example.com.evil.net', false],
    ['[::ffff:127.0.0.1]', true],
  ])('%s → %s', (host, expected) => {
    expect(isHostAllowed(host, allow)).toBe(expected);
  });
});
