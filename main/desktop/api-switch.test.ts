import { describe, expect, it, vi } from 'vitest';
import type { EmbeddedApi } from '../studio/embedded-api.ts';
import { ApiSwitch } from './api-switch.ts';

function fakeStarter() {
  const log: string[] = [];
  const start = vi.fn(async (port: number): Promise<EmbeddedApi> => {
    log.push(`start ${port}`);
    return {
      url: `http://127.0.0.1:${port}`,
      port,
      tokenFile: undefined,
      close: async () => {
        log.push(`stop ${port}`);
      },
    };
  });
  return { start, log };
}

describe('ApiSwitch', () => {
  it('is off by default, and follows the setting on and off', async () => {
    const { start, log } = fakeStarter();
    const api = new ApiSwitch(start);
    await api.apply({ apiEnabled: false, apiPort: 8787 });
    expect(api.running).toBeUndefined();
    await api.apply({ apiEnabled: true, apiPort: 8787 });
    await api.apply({ apiEnabled: true, apiPort: 8787 });
    await api.apply({ apiEnabled: true, apiPort: 9000 });
    await api.apply({ apiEnabled: false, apiPort: 9000 });
    expect(log).toEqual(['start 8787', 'stop 8787', 'start 9000', 'stop 9000']);
  });

  it('runs on the --api-port for this run whatever the settings say', async () => {
    const { start, log } = fakeStarter();
    const api = new ApiSwitch(start, 7000);
    await api.apply({ apiEnabled: false, apiPort: 8787 });
    expect(api.running?.port).toBe(7000);
    await api.close();
    expect(log).toEqual(['start 7000', 'stop 7000']);
  });

  it('reports a failed start and stays usable', async () => {
    const api = new ApiSwitch(async () => {
      throw new Error('port in use');
    });
    await expect(api.apply({ apiEnabled: true, apiPort: 1234 })).rejects.toThrow('port in use');
    expect(api.running).toBeUndefined();
    await api.apply({ apiEnabled: false, apiPort: 1234 });
  });
});
