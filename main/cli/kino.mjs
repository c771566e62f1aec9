#!/usr/bin/env node
// The `kino` command. Plain JavaScript so it starts on any Node: it hands over to Node >= 22.18
// (installing Node 24 when the machine's is older) which runs the TypeScript CLI, with Node's
// compile cache on (main/launcher/compile-cache.mjs) and from a prebuilt bundle of it when one is
// up to date (main/launcher/cli-bundle.mjs).
import { fileURLToPath } from 'node:url';
import { importCli } from '../launcher/cli-bundle.mjs';
import { enableCompileCache } from '../launcher/compile-cache.mjs';
import { isSupported, runUnderModernNode } from '../launcher/node24.mjs';

if (isSupported()) {
  enableCompileCache();
  const { main } = await importCli();
  process.exitCode = await main(process.argv.slice(2));
} else {
  runUnderModernNode([fileURLToPath(import.meta.url), ...process.argv.slice(2)]);
}
