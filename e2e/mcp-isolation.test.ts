// The MCP tools whose cost the caller sets (a frame of a huge blurred spec, a type-level bomb) must
// not hold the API: they run in look processes, and /v1/healthz keeps answering beside them.
import { execFileSync } from 'node:child_process';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { TEST_API_TOKEN, useApiServers } from './api-server.ts';
import type { RunningApi } from './api-server.ts';
import { call, connect, expectSuccess } from './mcp-harness.ts';

const servers = useApiServers({ MCP_ENABLED: 'true' });

/** 7680×7680, six 300 px texts under heavy blur: minutes of drawing on one core. */
const HUGE_BLURRED_SPEC = {
  kinoSpec: 1,
  aspect: { width: 7680, height: 7680 },
  scenes: [
    {
      duration: '2s',
      background: '#0b0d12',
      elements: Array.from({ length: 6 }, (_, index) => ({
        type: 'text',
        text: `Heavy ${index} `.repeat(6),
        size: 300,
        y: 0.1 + index * 0.15,
        shadow: { color: '#ff00ff', blur: 400 },
        textShadow: { color: '#00ffff', blur: 400 },
        animate: [{ preset: 'blurIn', amount: 400, duration: '2s' }],
      })),
    },
  ],
};

/** 608 characters that keep TypeScript's checker busy for ≈ 8 s: recursive tuples over 1000 keys. */
const TYPE_BOMB = `import { video, scene, text } from 'kino';
type D = 0|1|2|3|4|5|6|7|8|9;
type Keys = \`k\${D}\${D}\${D}\`;
type Grow<S, T extends unknown[]> = T['length'] extends 999 ? T : Grow<S, [...T, S]>;
type Bomb = { [P in Keys]: Grow<P, []> };
type Deep = { [P in keyof Bomb]: Bomb[P][number] extends infer X ? [X, ...Bomb[P]] : never };
const x: Deep = {} as Deep;
type U = Bomb[Keys];
declare const v: Deep[Keys];
const u: U = v;
type R<T> = { [K in keyof T]: T[K] extends unknown[] ? R<T[K]> : T[K] };
const w: R<Bomb> = {} as R<Deep>;
export default video({}, [scene({ duration: 1 }, [text(String(x.k000.length))])]);
`;

function transport(api: RunningApi) {
  return new StreamableHTTPClientTransport(new URL(`${api.baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${TEST_API_TOKEN}` } },
  });
}

/** Probes /v1/healthz every 250 ms until `done` settles; each probe's answer time in ms. */
async function probeWhile(api: RunningApi, done: Promise<unknown>): Promise<number[]> {
  let finished = false;
  void done.finally(() => (finished = true)).catch(() => undefined);
  const times: number[] = [];
  while (!finished) {
    const started = performance.now();
    const response = await fetch(`${api.baseUrl}/v1/healthz`, { signal: AbortSignal.timeout(30_000) });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return times;
}

/** Look workers still running under the server (none once a call ended or was canceled). */
function lookWorkers(): string[] {
  try {
    return execFileSync('pgrep', ['-f', 'mcp/look-process'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean);
  } catch {
    return [];
  }
}

describe('MCP look tools beside the API', () => {
  it(
    'validate_code of a type-level bomb: the health probe answers within 2 s all along',
    { timeout: 120_000 },
    async () => {
      const api = await servers.start();
      const client = await connect(transport(api), { modern: true });
      try {
        const answer = call(client, 'validate_code', { code: TYPE_BOMB });
        const times = await probeWhile(api, answer);
        // Past the look process's 1 GiB heap the check is stopped; under it, the bomb does not type-check.
        const settled = await answer;
        if (settled.isError) {
          expect(settled.content[0]!.text).toMatch(/^the type check (ran out of memory|took longer than)/);
        } else {
          expect(expectSuccess(settled).ok).toBe(false);
        }
        expect(times.length).toBeGreaterThan(4);
        expect(Math.max(...times)).toBeLessThan(2000);
      } finally {
        await client.close();
      }
    },
  );

  it(
    'render_frame of a 7680×7680 blurred spec: probes answer, and canceling the call kills its worker',
    { timeout: 120_000 },
    async () => {
      const api = await servers.start();
      const client = await connect(transport(api), { modern: true });
      try {
        const cancel = new AbortController();
        const answer = call(
          client,
          'render_frame',
          { spec: HUGE_BLURRED_SPEC, frame: 30 },
          { signal: cancel.signal },
        );
        const eightSeconds = new Promise((resolve) => setTimeout(resolve, 8000));
        const times = await probeWhile(api, Promise.race([answer, eightSeconds]));
        expect(lookWorkers().length).toBe(1);
        cancel.abort();
        await answer.catch(() => undefined);
        expect(times.length).toBeGreaterThan(10);
        expect(Math.max(...times)).toBeLessThan(2000);
        await expect.poll(() => lookWorkers().length, { timeout: 10_000 }).toBe(0);
        // The server goes on serving looks.
        const small = expectSuccess(
          await call(client, 'render_frame', {
            spec: { kinoSpec: 1, aspect: 'square', scenes: [{ duration: 1 }] },
          }),
        );
        expect(small).toMatchObject({ frame: 0, width: 1080 });
      } finally {
        await client.close();
      }
    },
  );
});
