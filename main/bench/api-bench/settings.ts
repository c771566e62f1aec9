// The API bench's fixed settings (rates, connections, the target, the renders it asks for) and its
// two flags: --duration <seconds> per measured run (default 20), --log-level <pino level> (default warn).
import { parseArgs } from 'node:util';

export const GET_RATE = 500;
export const MIXED_GET_RATE = 480;
export const MIXED_POST_RATE = 20;
export const CONNECTIONS = 10;
export const TARGET_P99_MS = 25;
export const WARMUP_SECONDS = 3;
const TINY_SPEC = {
  kinoSpec: 1,
  aspect: 'square',
  fps: 30,
  scenes: [
    {
      duration: '1s',
      background: '#1e1b4b',
      elements: [{ type: 'text', text: 'Hello', size: 120, animate: [{ preset: 'fadeIn' }] }],
    },
  ],
};
export const TINY_BODY = JSON.stringify({ spec: TINY_SPEC, options: { quality: 'draft' } });
/** Long renders kept queued ahead of everything else, so one runs through every loaded window. */
export const LONG_RENDER = { key: 'product-launch', options: { quality: 'standard' } };

export interface BenchFlags {
  /** Seconds per measured run. */
  duration: number;
  logLevel: string;
}

/** The command line's flags; a bad --duration ends the process with status 64. */
export function parseFlags(): BenchFlags {
  const { values: flags } = parseArgs({
    options: {
      duration: { type: 'string', default: '20' },
      'log-level': { type: 'string', default: 'warn' },
    },
  });
  const duration = Number(flags.duration);
  if (!Number.isFinite(duration) || duration <= 0) {
    console.error(`--duration wants a positive number of seconds, got "${flags.duration}"`);
    process.exit(64);
  }
  return { duration, logLevel: flags['log-level'] };
}
