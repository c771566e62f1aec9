import { describe, expect, it, vi } from 'vitest';
import { blockReason } from './source-health.ts';

vi.mock('../session/resolve-bridge.ts', () => ({ resolveBridge: () => ({ mode: 'browser' }) }));

describe('why Review, Render and Capture are off', () => {
  it('says so when the source does not compile, first, then when it does not load', () => {
    expect(blockReason(false, true)).toMatch(/does not compile/);
    expect(blockReason(false, false)).toMatch(/does not compile/);
    expect(blockReason(true, true)).toMatch(/fails to load/);
  });

  it('lets them run when it compiles and loads', () => {
    expect(blockReason(true, false)).toBeUndefined();
  });
});
