import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { headlessPlan } from './headless.ts';

const base = { apiPort: undefined, env: {}, settingsPort: 8787, userDataDir: '/home/a/.config/Kino' };

describe('headlessPlan', () => {
  it('serves on the settings port from the app folder by default', () => {
    expect(headlessPlan(base)).toEqual({ port: 8787, dataDir: path.join('/home/a/.config/Kino', 'api') });
  });

  it('lets --api-port win over PORT, and PORT over the setting', () => {
    expect(headlessPlan({ ...base, apiPort: 9000, env: { PORT: '7000' } }).port).toBe(9000);
    expect(headlessPlan({ ...base, env: { PORT: '7000' } }).port).toBeUndefined();
  });

  it('keeps a DATA_DIR the environment sets', () => {
    expect(headlessPlan({ ...base, env: { DATA_DIR: '/srv/kino' } }).dataDir).toBeUndefined();
  });
});
