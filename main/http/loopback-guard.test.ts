import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from './loopback-guard.ts';

describe('isLoopbackHost', () => {
  it('accepts loopback names on the server port', () => {
    expect(isLoopbackHost('127.0.0.1:4321', 4321)).toBe(true);
    expect(isLoopbackHost('localhost:4321', 4321)).toBe(true);
    expect(isLoopbackHost('LOCALHOST:4321', 4321)).toBe(true);
    expect(isLoopbackHost('[::1]:4321', 4321)).toBe(true);
  });

  it('refuses other names, other ports and a missing port (DNS rebinding)', () => {
    expect(isLoopbackHost('evil.example:4321', 4321)).toBe(false);
    expect(isLoopbackHost('localhost.evil.example:4321', 4321)).toBe(false);
    expect(isLoopbackHost('127.0.0.1:4322', 4321)).toBe(false);
    expect(isLoopbackHost('127.0.0.1', 4321)).toBe(false);
    expect(isLoopbackHost('192.168.1.5:4321', 4321)).toBe(false);
    expect(isLoopbackHost('127.0.0.1:4321@evil.example', 4321)).toBe(false);
    expect(isLoopbackHost('', 4321)).toBe(false);
    expect(isLoopbackHost(undefined, 4321)).toBe(false);
  });
});
