import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaError } from './media-error.ts';
import { DEFAULT_MEDIA_POLICY, MediaPolicySchema } from './policy.ts';
import { isPublicUnicastAddress } from './safe-fetch.ts';
import { remoteCachePath, resolveMediaSource } from './source.ts';
import type { MediaProject, RemoteFetchOverrides } from './source.ts';

let base: string;
let project: MediaProject;
let server: Server;
let port: number;
let requests = 0;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'kino-source-')));
  const root = join(base, 'project');
  await mkdir(join(root, 'assets', 'img'), { recursive: true });
  await mkdir(join(root, 'clips'), { recursive: true });
  await writeFile(join(root, 'assets', 'img', 'logo.png'), 'png');
  await writeFile(join(root, 'clips', 'intro.mp4'), 'mp4');
  await writeFile(join(base, 'secret.txt'), 'secret');
  await symlink(join(base, 'secret.txt'), join(root, 'assets', 'escape.png'));
  await symlink(join(root, 'clips', 'intro.mp4'), join(root, 'assets', 'inside-link.mp4'));
  // What a project holds besides media: secrets, config, sources, keys; and data a render may read.
  await mkdir(join(root, '.git'), { recursive: true });
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(join(root, 'assets', 'data'), { recursive: true });
  await mkdir(join(root, 'clips', 'frames.png'), { recursive: true });
  await writeFile(join(root, '.env'), '1\n00:00:00,000 --> 00:00:02,000\nAPI_KEY=sk-live-secret\n');
  await writeFile(join(root, '.git', 'config'), '[core]');
  await writeFile(join(root, 'kino.json'), '{}');
  await writeFile(join(root, 'package.json'), '{}');
  await writeFile(join(root, 'tsconfig.json'), '{}');
  await writeFile(join(root, 'src', 'intro.ts'), 'export default 1;');
  await writeFile(join(root, 'server.pem'), 'key');
  await writeFile(join(root, 'assets', 'data', 'sales.csv'), 'a,b\n1,2\n');
  await writeFile(join(root, 'assets', 'data', 'sales.json'), '[]');
  await writeFile(join(root, 'assets', 'talk.srt'), '1\n00:00:00,000 --> 00:00:01,000\nHi\n');
  await writeFile(join(root, 'assets', '.env.local'), 'TOKEN=sk-live-secret\n');
  await symlink(join(root, 'assets', '.env.local'), join(root, 'assets', 'innocent.srt'));
  project = {
    root,
    assetsDir: join(root, 'assets'),
    policy: DEFAULT_MEDIA_POLICY,
    cacheDir: join(base, 'cache'),
  };

  server = createServer((req, res) => {
    requests++;
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(`remote:${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(base, { recursive: true, force: true });
});

async function failure(
  src: string,
  on: MediaProject = project,
  remote?: RemoteFetchOverrides,
): Promise<MediaError> {
  const error = await resolveMediaSource(src, on, undefined, remote).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected "${src}" to be refused`).toBeInstanceOf(MediaError);
  return error as MediaError;
}

describe('resolveMediaSource: local files', () => {
  it('resolves asset: sources inside the assets directory', async () => {
    expect(await resolveMediaSource('asset:img/logo.png', project)).toEqual({
      kind: 'file',
      path: join(project.assetsDir, 'img', 'logo.png'),
      root: project.assetsDir,
    });
  });

  it('resolves plain paths against the project root', async () => {
    const resolved = await resolveMediaSource('clips/intro.mp4', project);
    expect(resolved.path).toBe(join(project.root, 'clips', 'intro.mp4'));
    expect(await readFile(resolved.path, 'utf8')).toBe('mp4');
  });

  it('allows .. that stays inside', async () => {
    const resolved = await resolveMediaSource('asset:img/../img/logo.png', project);
    expect(resolved.path).toBe(join(project.assetsDir, 'img', 'logo.png'));
  });

  it('follows a symlink that lands inside the project', async () => {
    const resolved = await resolveMediaSource('assets/inside-link.mp4', project);
    expect(resolved.path).toBe(join(project.root, 'clips', 'intro.mp4'));
  });

  it.each(['../secret.txt', 'clips/../../secret.txt', 'asset:../clips/intro.mp4', 'asset:../../secret.txt'])(
    'refuses %s, which escapes',
    async (src) => {
      const error = await failure(src);
      expect(error.code).toBe('media_outside_project');
      expect(error.message).toContain(src);
    },
  );

  it('refuses a symlink that points outside the project', async () => {
    const error = await failure('asset:escape.png');
    expect(error.code).toBe('media_outside_project');
  });

  it.each(['/etc/passwd', 'asset:/etc/passwd', 'C:\\Windows\\win.ini', '\\\\server\\share\\x.png'])(
    'refuses the absolute path %s',
    async (src) => {
      expect((await failure(src)).code).toBe('media_absolute_path');
    },
  );

  it('names the source and the path looked up when a file is missing', async () => {
    const error = await failure('asset:img/nope.png');
    expect(error.code).toBe('missing_asset');
    expect(error.source).toBe('asset:img/nope.png');
    expect(error.message).toContain('asset:img/nope.png');
    expect(error.message).toContain(join(project.assetsDir, 'img', 'nope.png'));
  });

  it('refuses a directory', async () => {
    expect((await failure('clips/frames.png')).code).toBe('media_not_a_file');
  });

  it.each([
    ['.env', /dotfile/],
    ['./.env', /dotfile/],
    ['.git/config', /dotfile/],
    ['kino.json', /configuration/],
    ['package.json', /configuration/],
    ['tsconfig.json', /configuration/],
    ['src/intro.ts', /not video\/mp2t/],
    ['server.pem', /only images, video, audio, fonts, captions/],
    ['asset:innocent.srt', /dotfile/],
  ])('refuses %s, a project file that is not media', async (src, why) => {
    const error = await failure(src);
    expect(error.code).toBe('media_private_file');
    expect(error.message).toMatch(why);
    expect(error.message).not.toContain('sk-live-secret');
  });

  it.each(['asset:data/sales.csv', 'asset:data/sales.json', 'asset:talk.srt'])(
    'reads %s, data and captions a render may use',
    async (src) => {
      expect((await resolveMediaSource(src, project)).kind).toBe('file');
    },
  );

  it.each([
    'file:///etc/passwd',
    'data:image/png;base64,AAAA',
    'ftp://example.com/a.png',
    'javascript:alert(1)',
  ])('refuses the scheme of %s', async (src) => {
    const error = await failure(src);
    expect(error.code).toBe('media_unsupported_scheme');
  });
});

describe('resolveMediaSource: remote URLs', () => {
  const remote: RemoteFetchOverrides = {
    resolveHost: async () => [{ address: '127.0.0.1', family: 4 }],
    isAddressAllowed: (address) => address === '127.0.0.1' || isPublicUnicastAddress(address),
  };

  it('refuses remote media under the default policy', async () => {
    const error = await failure('https://cdn.example.com/a.png');
    expect(error.code).toBe('media_host_not_allowed');
    expect(error.message).toContain('cdn.example.com');
  });

  it('downloads once into the cache, named by the URL hash, and reuses it', async () => {
    const allowed = { ...project, policy: MediaPolicySchema.parse({ allowHosts: ['*.media.test'] }) };
    const src = `http://cdn.media.test:${port}/pics/a.PNG?v=1`;
    const before = requests;
    const [first, second] = await Promise.all([
      resolveMediaSource(src, allowed, undefined, remote),
      resolveMediaSource(src, allowed, undefined, remote),
    ]);
    expect(first.path).toBe(remoteCachePath(src, project.cacheDir));
    expect(first.path.endsWith('.png')).toBe(true);
    expect(second.path).toBe(first.path);
    expect(await readFile(first.path, 'utf8')).toBe('remote:/pics/a.PNG?v=1');
    await resolveMediaSource(src, allowed, undefined, remote);
    expect(requests - before).toBe(1);

    // Taking the host off the allowlist also stops the cached copy from being used.
    expect((await failure(src, project, remote)).code).toBe('media_host_not_allowed');
  });

  it('refuses the loopback server without the test override', async () => {
    const allowed = { ...project, policy: MediaPolicySchema.parse({ allowHosts: ['127.0.0.1'] }) };
    const error = await failure(`http://127.0.0.1:${port}/x.png`, allowed);
    expect(error.code).toBe('media_address_not_allowed');
  });
});
