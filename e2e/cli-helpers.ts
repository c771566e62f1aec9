// Runs the real `kino` command in a child process, as a user would.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { runKino as runKinoProcess } from '../main/cli/test-kino.fixture.ts';
import type { KinoRun } from '../main/cli/test-kino.fixture.ts';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const KINO_BIN = join(REPO_ROOT, 'main', 'cli', 'kino.mjs');

export type CliResult = KinoRun;

/** `kino <args>` from the repository root by default, with the test's environment plus `env`. */
export function runKino(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  return runKinoProcess(args, { cwd: options.cwd ?? REPO_ROOT, env: { ...process.env, ...options.env } });
}

/** SHA-256 of a PNG's decoded RGBA pixels: equal hashes mean the same picture, whatever the encoder. */
export async function pixelHash(pngPath: string): Promise<string> {
  const image = await loadImage(readFileSync(pngPath));
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  return createHash('sha256')
    .update(ctx.getImageData(0, 0, image.width, image.height).data)
    .digest('hex');
}
