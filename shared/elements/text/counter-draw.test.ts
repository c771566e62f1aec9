import { describe, expect, it } from 'vitest';
import type { CounterElement } from '../../spec/counter-element.ts';
import { CounterElementSchema } from '../../spec/counter-element.ts';
import { counterValueAt, formatCounter } from './counter-draw.ts';

const counter = (fields: Partial<CounterElement>): CounterElement => ({
  type: 'counter',
  to: 100,
  ...fields,
});

describe('formatCounter', () => {
  it('formats across locales with the fraction digits of from and to', () => {
    expect(formatCounter(counter({ to: 1234567.5 }), 1234567.5)).toBe('1,234,567.5');
    expect(formatCounter(counter({ to: 1234567.5, locale: 'de-DE' }), 1234567.5)).toBe('1.234.567,5');
    expect(formatCounter(counter({ to: 1234567, locale: 'fr-FR' }), 1234567)).toBe('1\u202f234\u202f567');
    expect(formatCounter(counter({ to: 1234567, locale: 'hi-IN' }), 1234567)).toBe('12,34,567');
    // Counting up to a whole number shows whole numbers all the way.
    expect(formatCounter(counter({ to: 100 }), 41.7)).toBe('42');
  });

  it('takes decimals, currency, percent and compact, with a prefix and a suffix', () => {
    expect(formatCounter(counter({ to: 3, decimals: 2 }), 2.5)).toBe('2.50');
    expect(
      formatCounter(
        counter({ to: 19.99, format: { style: 'currency', currency: 'EUR' }, locale: 'de-DE' }),
        19.99,
      ),
    ).toBe('19,99\u00a0€');
    expect(formatCounter(counter({ to: 0.425, format: { style: 'percent' } }), 0.425)).toBe('42.5%');
    expect(formatCounter(counter({ to: 2_400_000, format: { notation: 'compact' } }), 2_400_000)).toBe(
      '2.4M',
    );
    expect(formatCounter(counter({ to: 50, prefix: '+', suffix: ' users' }), 50)).toBe('+50 users');
  });
});

describe('counterValueAt', () => {
  it('holds from until counting starts, eases to to, then holds to', () => {
    const element = counter({ from: 10, to: 110, countDelay: '0.5s', countDuration: '1s', easing: 'linear' });
    expect(counterValueAt(element, 0, 30)).toBe(10);
    expect(counterValueAt(element, 0.5, 30)).toBe(10);
    expect(counterValueAt(element, 1, 30)).toBeCloseTo(60, 9);
    expect(counterValueAt(element, 1.5, 30)).toBe(110);
    expect(counterValueAt(element, 9, 30)).toBe(110);
  });

  it('counts down as well as up', () => {
    expect(counterValueAt(counter({ from: 100, to: 0, easing: 'linear' }), 0.75, 30)).toBeCloseTo(50, 9);
  });
});

describe('the counter schema', () => {
  it('refuses what Intl.NumberFormat refuses, at the field', () => {
    const noCurrency = CounterElementSchema.safeParse(counter({ format: { style: 'currency' } }));
    expect(noCurrency.success).toBe(false);
    expect(noCurrency.error?.issues[0]?.path).toEqual(['format']);
    const badLocale = CounterElementSchema.safeParse(counter({ locale: 'not a locale' }));
    expect(badLocale.success).toBe(false);
    expect(badLocale.error?.issues[0]?.path).toEqual(['locale']);
  });
});
