import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaError } from './media-error.ts';
import { MediaPolicySchema } from './policy.ts';
import { isPublicUnicastAddress, safeFetchToFile } from './safe-fetch.ts';
import type { ResolvedAddress, SafeFetchOptions } from './safe-fetch.ts';

const PAYLOAD = Buffer.from('x'.repeat(4096));

let server: Server;
let port: number;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kino-fetch-'));
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/file.bin') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': PAYLOAD.length });
      res.end(PAYLOAD);
    } else if (path === '/big-declared') {
      res.writeHead(200, { 'content-length': 10_000 });
      res.end(Buffer.alloc(10_000));
    } else if (path === '/big-chunked') {
      // No Content-Length: the cap must trip while streaming.
      res.writeHead(200, { 'transfer-encoding': 'chunked' });
      let sent = 0;
      const timer = setInterval(() => {
        if (sent >= 64 * 1024 || res.destroyed) {
          clearInterval(timer);
          res.end();
          return;
        }
        res.write(Buffer.alloc(1024));
        sent += 1024;
      }, 1);
    } else if (path === '/slow') {
      res.writeHead(200, { 'content-length': 100 });
      res.write('partial');
      // never finishes
    } else if (path.startsWith('/redirect-to/')) {
      res.writeHead(302, { location: decodeURIComponent(path.slice('/redirect-to/'.length)) });
      res.end();
    } else if (path === '/loop') {
      res.writeHead(302, { location: '/loop' });
      res.end();
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

// Made-up hosts: media.test is our loopback server; private.test is an internal address.
const HOSTS: Record<string, ResolvedAddress[]> = {
  'media.test': [{ address: '127.0.0.1', family: 4 }],
  'other.test': [{ address: '127.0.0.1', family: 4 }],
  'private.test': [{ address: '10.1.2.3', family: 4 }],
  'mixed.test': [
    { address: '127.0.0.1', family: 4 },
    { address: '192.168.1.10', family: 4 },
  ],
};

function testOptions(overrides: Partial<SafeFetchOptions['policy']> = {}): SafeFetchOptions {
  return {
    policy: MediaPolicySchema.parse({
      allowHosts: ['media.test', 'private.test', 'mixed.test'],
      ...overrides,
    }),
    resolveHost: async (host) => HOSTS[host] ?? [],
    // The real check, plus exactly our test server's address.
    isAddressAllowed: (address) => address === '127.0.0.1' || isPublicUnicastAddress(address),
  };
}

async function rejection(promise: Promise<unknown>): Promise<MediaError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MediaError);
  return error as MediaError;
}

const url = (host: string, path: string): string => `http://${host}:${port}${path}`;

describe('isPublicUnicastAddress', () => {
  it.each([
    '127.0.0.1',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '169.254.169.254',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.0.1',
    '100.64.0.1',
    '0.0.0.0',
    '0.1.2.3',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    '224.0.0.1',
    'ff02::1',
    '::ffff:10.0.0.1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::1',
    // IPv4-compatible (deprecated ::/96): the IPv4 inside decides.
    '::7f00:1',
    '::a9fe:a9fe',
    '::a00:1',
    '2002:a9fe:a9fe::',
    'not-an-ip',
  ])('rejects %s', (address) => {
    expect(isPublicUnicastAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    // IPv4-embedding forms of a public IPv4 address are judged as it.
    '::808:808',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('accepts %s', (address) => {
    expect(isPublicUnicastAddress(address)).toBe(true);
  });
});

describe('safeFetchToFile', () => {
  it('downloads from an allowed host to the destination', async () => {
    const destination = join(dir, 'ok.bin');
    const result = await safeFetchToFile(url('media.test', '/file.bin'), destination, testOptions());
    expect(result.bytes).toBe(PAYLOAD.length);
    expect(result.contentType).toBe('application/octet-stream');
    expect(await readFile(destination)).toEqual(PAYLOAD);
  });

  it('connects to the address it checked, without a second lookup (no DNS rebinding)', async () => {
    let lookups = 0;
    const destination = join(dir, 'pinned.bin');
    // A rebinding resolver: the first answer passes the check, any later one would point inside.
    // rebind.test does not exist in real DNS either, so success shows the checked answer was used.
    await safeFetchToFile(url('rebind.test', '/file.bin'), destination, {
      ...testOptions(),
      policy: MediaPolicySchema.parse({ allowHosts: ['rebind.test'] }),
      resolveHost: async () => [{ address: lookups++ === 0 ? '127.0.0.1' : '10.9.9.9', family: 4 }],
    });
    expect(lookups).toBe(1);
    expect(await readFile(destination)).toEqual(PAYLOAD);
  });

  it('refuses the loopback server even when its host is allow-listed', async () => {
    const error = await rejection(
      safeFetchToFile(url('127.0.0.1', '/file.bin'), join(dir, 'loop.bin'), {
        policy: MediaPolicySchema.parse({ allowHosts: ['127.0.0.1'] }),
      }),
    );
    expect(error.code).toBe('media_address_not_allowed');
    expect(error.message).toContain('127.0.0.1');
  });

  it('refuses localhost resolved through real DNS', async () => {
    const error = await rejection(
      safeFetchToFile(url('localhost', '/file.bin'), join(dir, 'localhost.bin'), {
        policy: MediaPolicySchema.parse({ allowHosts: ['localhost'] }),
      }),
    );
    expect(error.code).toBe('media_address_not_allowed');
  });

  it.each(['[::1]', '[::ffff:127.0.0.1]', '169.254.169.254'])(
    'refuses the literal address %s',
    async (host) => {
      const error = await rejection(
        safeFetchToFile(`http://${host}/latest/meta-data/`, join(dir, 'literal.bin'), {
          policy: MediaPolicySchema.parse({ allowHosts: [host] }),
        }),
      );
      expect(error.code).toBe('media_address_not_allowed');
    },
  );

  it('refuses hosts outside the allowlist and says how to allow them', async () => {
    const error = await rejection(
      safeFetchToFile(url('other.test', '/file.bin'), join(dir, 'x.bin'), testOptions()),
    );
    expect(error.code).toBe('media_host_not_allowed');
    expect(error.message).toContain('"other.test"');
    expect(error.message).toContain('allowHosts');
  });

  it('refuses a host with any private address', async () => {
    const error = await rejection(
      safeFetchToFile(url('mixed.test', '/file.bin'), join(dir, 'x.bin'), testOptions()),
    );
    expect(error.code).toBe('media_address_not_allowed');
    expect(error.message).toContain('192.168.1.10');
  });

  it('follows a redirect to an allowed host', async () => {
    const destination = join(dir, 'redirected.bin');
    const target = encodeURIComponent(url('media.test', '/file.bin'));
    const result = await safeFetchToFile(
      url('media.test', `/redirect-to/${target}`),
      destination,
      testOptions(),
    );
    expect(result.finalUrl).toBe(url('media.test', '/file.bin'));
    expect(await readFile(destination)).toEqual(PAYLOAD);
  });

  it('refuses a redirect to a host that is not allowed', async () => {
    const target = encodeURIComponent(url('other.test', '/file.bin'));
    const error = await rejection(
      safeFetchToFile(url('media.test', `/redirect-to/${target}`), join(dir, 'r1.bin'), testOptions()),
    );
    expect(error.code).toBe('media_host_not_allowed');
    expect(error.message).toContain('other.test');
  });

  it('refuses a redirect to an allowed host that resolves to a private address', async () => {
    const target = encodeURIComponent(url('private.test', '/file.bin'));
    const error = await rejection(
      safeFetchToFile(url('media.test', `/redirect-to/${target}`), join(dir, 'r2.bin'), testOptions()),
    );
    expect(error.code).toBe('media_address_not_allowed');
    expect(error.message).toContain('10.1.2.3');
  });

  it('refuses a redirect to a non-http scheme', async () => {
    const target = encodeURIComponent('file:///etc/passwd');
    const error = await rejection(
      safeFetchToFile(url('media.test', `/redirect-to/${target}`), join(dir, 'r3.bin'), testOptions()),
    );
    expect(error.code).toBe('media_unsupported_scheme');
  });

  it('stops after maxRedirects', async () => {
    const error = await rejection(
      safeFetchToFile(url('media.test', '/loop'), join(dir, 'r4.bin'), testOptions({ maxRedirects: 2 })),
    );
    expect(error.code).toBe('media_too_many_redirects');
  });

  it('refuses an oversized download by Content-Length and leaves no file', async () => {
    const destination = join(dir, 'declared.bin');
    const error = await rejection(
      safeFetchToFile(url('media.test', '/big-declared'), destination, testOptions({ maxBytes: 5000 })),
    );
    expect(error.code).toBe('media_too_large');
    expect((await readdir(dir)).filter((f) => f.startsWith('declared'))).toEqual([]);
  });

  it('refuses an oversized chunked download while streaming and leaves no file', async () => {
    const destination = join(dir, 'chunked.bin');
    const error = await rejection(
      safeFetchToFile(url('media.test', '/big-chunked'), destination, testOptions({ maxBytes: 8000 })),
    );
    expect(error.code).toBe('media_too_large');
    expect((await readdir(dir)).filter((f) => f.startsWith('chunked'))).toEqual([]);
  });

  it('gives up after timeoutMs and leaves no file', async () => {
    const started = Date.now();
    const error = await rejection(
      safeFetchToFile(url('media.test', '/slow'), join(dir, 'slow.bin'), testOptions({ timeoutMs: 300 })),
    );
    expect(error.code).toBe('media_timeout');
    expect(Date.now() - started).toBeLessThan(3000);
    expect((await readdir(dir)).filter((f) => f.startsWith('slow'))).toEqual([]);
  });

  it('reports HTTP errors with the status', async () => {
    const error = await rejection(
      safeFetchToFile(url('media.test', '/nope'), join(dir, 'nope.bin'), testOptions()),
    );
    expect(error.code).toBe('media_http_error');
    expect(error.message).toContain('404');
  });

  it.each(['file:///etc/passwd', 'ftp://media.test/x', 'data:text/plain,hi', 'gopher://media.test/'])(
    'refuses the scheme of %s',
    async (source) => {
      const error = await rejection(safeFetchToFile(source, join(dir, 'scheme.bin'), testOptions()));
      expect(error.code).toBe('media_unsupported_scheme');
    },
  );

  it('passes the caller abort through', async () => {
    const controller = new AbortController();
    const pending = safeFetchToFile(url('media.test', '/slow'), join(dir, 'aborted.bin'), {
      ...testOptions(),
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('render cancelled')), 100);
    await expect(pending).rejects.toThrow('render cancelled');
  });
});
