// The version `kino --version` prints: package.json's, read as the flag is parsed, nothing imported.
import { readFileSync } from 'node:fs';

export function kinoVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
