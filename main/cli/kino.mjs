#!/usr/bin/env node
// The `kino` command. Plain JavaScript so it starts on any Node: it hands over to Node >= 22.18
// (installing Node 24 when the machine's is older) which runs the TypeScript CLI, with Node's
// compile cache on (main/launcher/compile-cache.mjs) and from a prebuilt bundle of it when one is
// up to date (main/launcher/cli-bundle.mjs).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importCli } from '../launcher/cli-bundle.mjs';
import { enableCompileCache } from '../launcher/compile-cache.mjs';
import { isSupported, runUnderModernNode } from '../launcher/node24.mjs';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Answered here, before any TypeScript loads or an older Node is replaced: package.json's version.
  // (main.ts's commander knows the flag too, for --help and the in-process main().)
  process.stdout.write(
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version + '\n',
  );
} else if (isSupported()) {
  enableCompileCache();
  const { main } = await importCli();
  process.exitCode = await main(args);
} else {
  runUnderModernNode([fileURLToPath(import.meta.url), ...args]);
}
