#!/usr/bin/env node
// The `kino` command. Plain JavaScript so it starts on any Node: it hands over to Node >= 22.18
// (installing Node 24 when the machine's is older) which runs the TypeScript CLI directly, with
// Node's compile cache on (see main/launcher/compile-cache.mjs).
import { fileURLToPath } from 'node:url';
import { enableCompileCache } from '../launcher/compile-cache.mjs';
import { isSupported, runUnderModernNode } from '../launcher/node24.mjs';

const entry = fileURLToPath(new URL('./main.ts', import.meta.url));
if (isSupported()) {
  enableCompileCache();
  const { main } = await import(entry);
  process.exitCode = await main(process.argv.slice(2));
} else {
  runUnderModernNode([fileURLToPath(import.meta.url), ...process.argv.slice(2)]);
}
