// Numbers on the command line: how options are read, and how sizes are printed, the same in every
// command.
import { InvalidArgumentError } from 'commander';

export function parseWholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number');
  return Number(value);
}

export function parsePositiveSeconds(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) === 0)
    throw new InvalidArgumentError('expected a positive whole number of seconds');
  return Number(value);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
}
