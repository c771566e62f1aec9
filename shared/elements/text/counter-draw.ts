// The counter: its value at a moment, formatted with Intl.NumberFormat, drawn as a text block whose
// digits all take one width. Its natural size is the larger of its first and last text, so the box
// never changes size while it counts.
import { easingFunction } from '../../animation/easing.ts';
import type { DrawEnv } from '../../canvas/types.ts';
import type { CounterElement } from '../../spec/counter-element.ts';
import type { TextElement } from '../../spec/text-element.ts';
import { timeToSeconds } from '../../spec/time.ts';
import type { ElementDrawArgs } from '../definition.ts';
import { drawTextBlock } from './text-draw.ts';
import { measureText } from './text-measure.ts';

export const DEFAULT_COUNT_SECONDS = 1.5;
const DEFAULT_LOCALE = 'en-US';

/** Digits after the point as the number is written: 12.5 has one. */
function writtenDecimals(value: number): number {
  const text = String(value);
  if (text.includes('e')) return 0;
  return text.includes('.') ? text.length - text.indexOf('.') - 1 : 0;
}

/** Fraction digits while counting: as asked, else as many as `from` and `to` are written with. */
function fractionDigits(element: CounterElement): {
  minimumFractionDigits?: number;
  maximumFractionDigits?: number;
} {
  const format = element.format ?? {};
  if (format.minimumFractionDigits !== undefined || format.maximumFractionDigits !== undefined) return {};
  if (element.decimals !== undefined) {
    return { minimumFractionDigits: element.decimals, maximumFractionDigits: element.decimals };
  }
  if (format.notation === 'compact' || format.style === 'currency') return {};
  // Percent shows hundredths of the written value: 0.425 is 42.5%.
  const shift = format.style === 'percent' ? 2 : 0;
  const digits = Math.max(
    0,
    Math.min(6, Math.max(writtenDecimals(element.from ?? 0), writtenDecimals(element.to)) - shift),
  );
  return { minimumFractionDigits: digits, maximumFractionDigits: digits };
}

const formatters = new WeakMap<CounterElement, Intl.NumberFormat>();

/** The number as the counter shows it, prefix and suffix included. */
export function formatCounter(element: CounterElement, value: number): string {
  let formatter = formatters.get(element);
  if (!formatter) {
    formatter = new Intl.NumberFormat(element.locale ?? DEFAULT_LOCALE, {
      ...element.format,
      ...fractionDigits(element),
    });
    formatters.set(element, formatter);
  }
  return `${element.prefix ?? ''}${formatter.format(value)}${element.suffix ?? ''}`;
}

/** The value at `elementSeconds`: `from` until counting starts, then eased to `to`, then `to`. */
export function counterValueAt(element: CounterElement, elementSeconds: number, fps: number): number {
  const from = element.from ?? 0;
  const delay = element.countDelay === undefined ? 0 : timeToSeconds(element.countDelay, fps);
  const duration =
    element.countDuration === undefined ? DEFAULT_COUNT_SECONDS : timeToSeconds(element.countDuration, fps);
  const linear = duration <= 0 ? (elementSeconds >= delay ? 1 : 0) : (elementSeconds - delay) / duration;
  if (linear <= 0) return from;
  if (linear >= 1) return element.to;
  return from + (element.to - from) * easingFunction(element.easing ?? 'out')(linear);
}

/** The counter showing `value`, as the text element it draws as. */
export function counterText(element: CounterElement, value: number): TextElement {
  const {
    type: _type,
    to: _to,
    from: _from,
    countDelay: _delay,
    countDuration: _duration,
    easing: _easing,
    locale: _locale,
    decimals: _decimals,
    format: _format,
    prefix: _prefix,
    suffix: _suffix,
    animate: _animate,
    keyframes: _keyframes,
    ...rest
  } = element;
  return { ...rest, type: 'text', text: formatCounter(element, value) };
}

const TABULAR = { tabularDigits: true } as const;

export function measureCounter(
  element: CounterElement,
  env: DrawEnv,
  maxWidth: number,
): { width: number; height: number } {
  const first = measureText(counterText(element, element.from ?? 0), env, maxWidth, TABULAR);
  const last = measureText(counterText(element, element.to), env, maxWidth, TABULAR);
  return { width: Math.max(first.width, last.width), height: Math.max(first.height, last.height) };
}

export function drawCounter(args: ElementDrawArgs<CounterElement>): void {
  const { ctx, element, box, env, state, time } = args;
  const text = counterText(element, counterValueAt(element, time.elementSeconds, env.fps));
  const color = typeof state.props.color === 'string' ? state.props.color : text.color;
  const shown = color === text.color ? text : { ...text, color };
  args.observeText?.(shown, box);
  drawTextBlock(ctx, env, shown, box, {
    overrides: { size: state.props.size, letterSpacing: state.props.letterSpacing, tabularDigits: true },
  });
}
