// How option values on the command line are read, the same in every command.
import { InvalidArgumentError } from 'commander';
import { TIME_PATTERN } from '../../shared/spec/time.ts';
import { MAX_RASTER_THREADS } from '../engine/raster-threads.ts';

/** The spec's time syntax ("1.5s", "500ms", "45f"); a bare number is seconds. */
export function parseTimeOption(value: string): string {
  if (/^\d+(\.\d+)?$/.test(value)) return `${value}s`;
  if (!TIME_PATTERN.test(value)) {
    throw new InvalidArgumentError('expected a time like "1.5s", "500ms" or "45f"');
  }
  return value;
}

export function parseWholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number');
  return Number(value);
}

export function parsePositiveSeconds(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) === 0)
    throw new InvalidArgumentError('expected a positive whole number of seconds');
  return Number(value);
}

/** --concurrency: rasterising threads, 1 to MAX_RASTER_THREADS. */
export function parseRasterThreadsOption(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_RASTER_THREADS) {
    throw new InvalidArgumentError(`expected a whole number of threads from 1 to ${MAX_RASTER_THREADS}`);
  }
  return Number(value);
}

/** `kino worker --concurrency`: renders at once, 1 to 64 (as RENDER_CONCURRENCY). */
export function parseWorkerConcurrency(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 64) {
    throw new InvalidArgumentError('expected a whole number of renders from 1 to 64');
  }
  return Number(value);
}
