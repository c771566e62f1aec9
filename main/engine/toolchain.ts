// Versions of everything that shapes a render's bytes, for receipts: the same versions and the same
// source revision must give the same file.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { toolVersions } from '../ffmpeg/binaries.ts';
import type { Toolchain } from '../../shared/protocol/receipt.ts';

const require = createRequire(import.meta.url);

async function packageVersion(manifest: string): Promise<string> {
  const parsed = JSON.parse(await readFile(manifest, 'utf8')) as { version?: string };
  return parsed.version ?? 'unknown';
}

let cached: Promise<Toolchain> | undefined;

export function toolchainVersions(): Promise<Toolchain> {
  cached ??= (async () => {
    const [kino, canvas, esbuild, tools] = await Promise.all([
      packageVersion(fileURLToPath(new URL('../../package.json', import.meta.url))),
      packageVersion(require.resolve('@napi-rs/canvas/package.json')),
      packageVersion(require.resolve('esbuild/package.json')),
      toolVersions(),
    ]);
    return {
      kino,
      node: process.version,
      ffmpeg: tools.ffmpeg,
      ffprobe: tools.ffprobe,
      canvas: `@napi-rs/canvas ${canvas} (Skia)`,
      esbuild,
    };
  })().catch((error: unknown) => {
    cached = undefined; // asked again next time (ffmpeg may be fixed meanwhile)
    throw error;
  });
  return cached;
}
