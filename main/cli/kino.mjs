#!/usr/bin/env node
// The `kino` command. Plain JavaScript so it starts on any Node: it hands over to Node >= 22.12
// (installing Node 24 when the machine's is older) which runs the TypeScript CLI directly.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isSupported, modernNodePath } from '../launcher/node24.mjs';

const entry = fileURLToPath(new URL('./main.ts', import.meta.url));
if (isSupported()) {
  const { main } = await import(entry);
  process.exitCode = await main(process.argv.slice(2));
} else {
  const self = fileURLToPath(import.meta.url);
  const result = spawnSync(modernNodePath(), [self, ...process.argv.slice(2)], { stdio: 'inherit' });
  if (result.signal) process.kill(process.pid, result.signal);
  process.exit(result.status ?? 1);
}
