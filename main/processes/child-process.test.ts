import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_SECRET_ENV, forkChild } from './child-process.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'kino-worker-env-'));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('forkChild', () => {
  it("keeps the server's secrets out of the worker's environment", async () => {
    const entry = path.join(dir, 'env-probe.mjs');
    writeFileSync(entry, 'process.send(Object.keys(process.env), () => process.disconnect());\n');
    const saved = Object.fromEntries(SERVER_SECRET_ENV.map((name) => [name, process.env[name]]));
    for (const name of SERVER_SECRET_ENV) process.env[name] = `secret-${name}`;
    process.env.KINO_TEST_VISIBLE = 'yes';
    try {
      const child = forkChild(entry, { withholdEnv: SERVER_SECRET_ENV, lowPriority: false });
      const names = await new Promise<string[]>((resolve) =>
        child.once('message', (m) => resolve(m as string[])),
      );
      expect(names).toContain('KINO_TEST_VISIBLE');
      for (const name of [
        'WEBHOOK_SECRET',
        'S3_SECRET_ACCESS_KEY',
        'AWS_SECRET_ACCESS_KEY',
        'OPENAI_API_KEY',
        'API_TOKEN',
      ]) {
        expect(names, name).not.toContain(name);
      }
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      delete process.env.KINO_TEST_VISIBLE;
    }
  });
});
