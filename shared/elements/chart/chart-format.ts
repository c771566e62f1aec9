// How a chart writes its numbers: values with the element's Intl.NumberFormat options and locale,
// ticks with just the decimals their step needs, shares as whole percents.
import type { ChartElement } from '../../spec/chart-element.ts';

const DEFAULT_LOCALE = 'en-US';

export interface ChartFormat {
  value(value: number): string;
  /** A tick of an axis whose ticks are `step` apart. */
  tick(value: number, step: number): string;
  /** A fraction of a whole (0.25 → "25%"). */
  share(fraction: number): string;
}

const formats = new WeakMap<ChartElement, ChartFormat>();

function fractionDigitsOf(step: number): number {
  return step > 0 && step < 1 ? Math.min(6, Math.ceil(-Math.log10(step) - 1e-9)) : 0;
}

export function chartFormat(element: ChartElement): ChartFormat {
  const cached = formats.get(element);
  if (cached) return cached;
  const locale = element.locale ?? DEFAULT_LOCALE;
  const options = element.format ?? {};
  const digitsGiven =
    options.minimumFractionDigits !== undefined || options.maximumFractionDigits !== undefined;
  // One decimal unless asked otherwise: 12.4k reads, 12.4375k does not.
  const value = new Intl.NumberFormat(
    locale,
    digitsGiven ? options : { maximumFractionDigits: 1, ...options },
  );
  const ticks = new Map<number, Intl.NumberFormat>();
  const percent = options.style === 'percent';
  const share = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
  const format: ChartFormat = {
    value: (n) => value.format(n),
    tick: (n, step) => {
      if (digitsGiven || options.notation === 'compact') return value.format(n);
      const digits = Math.max(0, fractionDigitsOf(step) - (percent ? 2 : 0));
      let formatter = ticks.get(digits);
      if (!formatter) {
        formatter = new Intl.NumberFormat(locale, {
          ...options,
          minimumFractionDigits: digits,
          maximumFractionDigits: digits,
        });
        ticks.set(digits, formatter);
      }
      return formatter.format(n);
    },
    share: (fraction) => share.format(fraction),
  };
  formats.set(element, format);
  return format;
}
