import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmbeddedApi } from './embedded-api.ts';
import { StudioInputError } from './errors.ts';

let dir: string;
const quiet = { LOG_LEVEL: 'silent', HOST: '0.0.0.0', DATA_DIR: '/should/not/be/used' };

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'kino-embedded-api-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('startEmbeddedApi', () => {
  it('serves the render API on loopback with its data in the given folder, and stops', async () => {
    const api = await startEmbeddedApi({ port: 0, dataDir: path.join(dir, 'api'), env: quiet });
    try {
      expect(api.url).toBe(`http://127.0.0.1:${api.port}`);
      expect(api.tokenFile).toBe(path.join(dir, 'api', 'api-token'));
      const token = (await readFile(api.tokenFile!, 'utf8')).trim();
      const health = await fetch(`${api.url}/v1/healthz`);
      expect(health.status).toBe(200);
      const job = `${api.url}/v1/renders/00000000-0000-4000-8000-000000000000`;
      expect((await fetch(job)).status).toBe(401);
      expect((await fetch(job, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
    } finally {
      await api.close();
    }
    await expect(fetch(`${api.url}/v1/healthz`)).rejects.toThrow();
  });

  it('uses API_TOKEN when set, and then names no token file', async () => {
    const api = await startEmbeddedApi({
      port: 0,
      dataDir: path.join(dir, 'api'),
      env: { ...quiet, API_TOKEN: 'a-long-enough-token-for-tests' },
    });
    await api.close();
    expect(api.tokenFile).toBeUndefined();
  });

  it('says so in one line when the port is taken, and releases the data folder', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const error = await startEmbeddedApi({ port, dataDir: path.join(dir, 'api'), env: quiet }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StudioInputError);
      expect((error as StudioInputError).code).toBe('api_port_in_use');
      expect((error as Error).message).toBe(
        `port ${port} on 127.0.0.1 is already in use; choose another API port in Settings`,
      );
    } finally {
      blocker.close();
    }
    const again = await startEmbeddedApi({ port: 0, dataDir: path.join(dir, 'api'), env: quiet });
    await again.close();
  });
});
