// The launcher's version gate: Node runs `.ts` files without flags (type stripping) from 22.18 on (and
// from 23.6 on the odd 23 line), so anything older is re-executed under Node 24.
import { describe, expect, it } from 'vitest';

// Plain JavaScript without a declaration file: imported by URL and typed here.
const launcherUrl = new URL('./node24.mjs', import.meta.url).href;
const { isSupported } = (await import(launcherUrl)) as { isSupported(version?: string): boolean };

describe('isSupported', () => {
  it.each(['22.18.0', '22.20.1', '23.6.0', '24.0.0', '24.11.1', '25.1.0'])('accepts Node %s', (version) => {
    expect(isSupported(version)).toBe(true);
  });

  it.each(['22.17.1', '22.12.0', '22.0.0', '23.5.0', '21.7.3', '20.20.2', '18.20.8'])(
    'refuses Node %s',
    (version) => {
      expect(isSupported(version)).toBe(false);
    },
  );

  it('accepts the Node running the tests (the suite itself needs type stripping)', () => {
    expect(isSupported()).toBe(true);
  });
});
