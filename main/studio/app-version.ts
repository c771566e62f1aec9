// Kino's version, from its package.json (the same number receipts carry).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let version: string | undefined;

export function kinoVersion(): string {
  version ??=
    (
      JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as {
        version?: string;
      }
    ).version ?? 'unknown';
  return version;
}
