import { describe, expect, it } from 'vitest';
import { isAllowedHost } from './host-check.ts';

describe('isAllowedHost', () => {
  it('accepts loopback names on the server port', () => {
    expect(isAllowedHost('127.0.0.1:4321', 4321)).toBe(true);
    expect(isAllowedHost('localhost:4321', 4321)).toBe(true);
    expect(isAllowedHost('LOCALHOST:4321', 4321)).toBe(true);
    expect(isAllowedHost('[::1]:4321', 4321)).toBe(true);
  });

  it('refuses other names, other ports and a missing port (DNS rebinding)', () => {
    expect(isAllowedHost('evil.example:4321', 4321)).toBe(false);
    expect(isAllowedHost('localhost.evil.example:4321', 4321)).toBe(false);
    expect(isAllowedHost('127.0.0.1:4322', 4321)).toBe(false);
    expect(isAllowedHost('127.0.0.1', 4321)).toBe(false);
    expect(isAllowedHost('192.168.1.5:4321', 4321)).toBe(false);
    expect(isAllowedHost('127.0.0.1:4321@evil.example', 4321)).toBe(false);
    expect(isAllowedHost('', 4321)).toBe(false);
    expect(isAllowedHost(undefined, 4321)).toBe(false);
  });
});
