// Time helpers producing the spec's time strings, for authors who compute times.
import type { Time } from '../spec/time.ts';

function timeString(helper: string, value: number, unit: 's' | 'ms' | 'f'): Time {
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`${helper}(${value}): a time must be a finite number >= 0`);
  }
  // The spec's time pattern has no exponent, so tiny or huge values are written out in full.
  const digits = Number.isInteger(value) ? value.toFixed(0) : value.toFixed(6).replace(/\.?0+$/, '');
  return `${digits}${unit}`;
}

/** `seconds(1.5)` → "1.5s". */
export function seconds(value: number): Time {
  return timeString('seconds', value, 's');
}

/** `ms(250)` → "250ms". */
export function ms(value: number): Time {
  return timeString('ms', value, 'ms');
}

/** `frames(45)` → "45f": frames at the video's fps. */
export function frames(value: number): Time {
  return timeString('frames', value, 'f');
}
