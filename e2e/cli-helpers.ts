// Runs the real `kino` command in a child process, as a user would.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const KINO_BIN = join(REPO_ROOT, 'main', 'cli', 'kino.mjs');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runKino(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [KINO_BIN, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
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
