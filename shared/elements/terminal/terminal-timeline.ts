// When everything in a terminal session happens, and what the window shows at a moment: which
// characters are typed, which output lines have printed, where the cursor is and how far the buffer
// has scrolled. Pure numbers, apart from the canvas, so the drawing only paints what this decides.
import { easingFunction } from '../../animation/easing.ts';
import { seededRandom } from '../../canvas/seeded-random.ts';
import type { TerminalElement } from '../../spec/terminal-element.ts';
import { graphemes } from '../../spec/text-units.ts';
import { timeToSeconds } from '../../spec/time.ts';
import type { Time } from '../../spec/time.ts';
import { parseAnsiLines } from './terminal-ansi.ts';
import type { AnsiRun } from './terminal-ansi.ts';

export const DEFAULT_TYPE_SPEED = 18;
const DEFAULTS = { pause: 0.4, lineDelay: 0.05, startDelay: 0.5, gap: 0.6 };
export const DEFAULT_PROMPT = '$ ';
/** How long the buffer takes to scroll up by one row: quick, but seen to move. */
export const SCROLL_SECONDS = 0.18;
/** Half a blink period, and how long after a keystroke the cursor stays lit, as in most terminals. */
export const BLINK_SECONDS = 0.53;
/** A person's keystrokes vary around the mean interval by this much either way. */
const TYPING_JITTER = 0.45;
/** A word boundary takes a little longer to reach than a letter. */
const SPACE_SLOWDOWN = 1.3;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * The characters of a text, one per cell. Most terminal text is ASCII, split without a segmenter:
 * drawing splits every shown run on every frame.
 */
export function cells(text: string): string[] {
  return PRINTABLE_ASCII.test(text) ? text.split('') : graphemes(text);
}

/** A run as the terminal shows it: the prompt and typed commands take the theme's colours. */
export type TerminalRun = AnsiRun & { role?: 'prompt' | 'command' };

interface CommandLine {
  kind: 'command';
  /** When the prompt appears. */
  at: number;
  prompt: string[];
  chars: string[];
  /** When each character appears. */
  charTimes: number[];
  /** When Enter is pressed: the cursor leaves the line. Infinity for the last, waiting prompt. */
  enterAt: number;
}

interface OutputLine {
  kind: 'output';
  states: AnsiRun[][];
  /** When each state is printed; the first is when the line appears. */
  stateTimes: number[];
}

type ScheduledLine = CommandLine | OutputLine;

export interface TerminalSchedule {
  lines: ScheduledLine[];
  /** When the last line has printed. */
  end: number;
}

function seconds(time: Time | undefined, fallback: number, fps: number): number {
  return time === undefined ? fallback : timeToSeconds(time, fps);
}

/** FNV-1a: a command's own seed, so its rhythm stays put when other entries change. */
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** When each character is typed, starting at `start`: a steady mean rate with a human rhythm. */
export function keystrokeTimes(chars: readonly string[], start: number, speed: number): number[] {
  const random = seededRandom(hashText(chars.join('')));
  const times: number[] = [];
  let at = start;
  chars.forEach((char, i) => {
    const slowdown = i > 0 && chars[i - 1] === ' ' ? SPACE_SLOWDOWN : 1;
    at += (slowdown * (1 - TYPING_JITTER + 2 * TYPING_JITTER * random())) / speed;
    times.push(at);
  });
  return times;
}

export function scheduleTerminal(element: TerminalElement, fps: number): TerminalSchedule {
  const prompt = cells(element.prompt ?? DEFAULT_PROMPT);
  const lines: ScheduledLine[] = [];
  let now = 0;
  element.session.forEach((entry, index) => {
    const delay = seconds(
      entry.delay,
      index === 0
        ? seconds(element.startDelay, DEFAULTS.startDelay, fps)
        : seconds(element.gap, DEFAULTS.gap, fps),
      fps,
    );
    const lineDelay = seconds(entry.lineDelay ?? element.lineDelay, DEFAULTS.lineDelay, fps);
    let outputStart = now + delay;
    if (entry.command !== undefined) {
      const chars = cells(entry.command);
      const speed = entry.typeSpeed ?? element.typeSpeed ?? DEFAULT_TYPE_SPEED;
      const charTimes = keystrokeTimes(chars, now + delay, speed);
      const typed = charTimes.at(-1) ?? now + delay;
      const enterAt = typed + seconds(entry.pause ?? element.pause, DEFAULTS.pause, fps);
      lines.push({ kind: 'command', at: now, prompt, chars, charTimes, enterAt });
      outputStart = enterAt + lineDelay;
      now = enterAt;
    }
    if (entry.output !== undefined) {
      let step = 0;
      for (const { states } of parseAnsiLines(entry.output)) {
        const stateTimes = states.map((_state, i) => outputStart + (step + i) * lineDelay);
        step += states.length;
        lines.push({ kind: 'output', states, stateTimes });
        now = stateTimes.at(-1)!;
      }
    }
  });
  if (lines.some((line) => line.kind === 'command')) {
    // A fresh prompt waits once everything has printed, as a shell's does.
    lines.push({ kind: 'command', at: now, prompt, chars: [], charTimes: [], enterAt: Infinity });
  }
  return { lines, end: now };
}

const schedules = new WeakMap<TerminalElement, { fps: number; schedule: TerminalSchedule }>();

/** The element's schedule, made once: drawing asks for it on every frame. */
export function terminalSchedule(element: TerminalElement, fps: number): TerminalSchedule {
  const cached = schedules.get(element);
  if (cached?.fps === fps) return cached.schedule;
  const schedule = scheduleTerminal(element, fps);
  schedules.set(element, { fps, schedule });
  return schedule;
}

function appearsAt(line: ScheduledLine): number {
  return line.kind === 'command' ? line.at : line.stateTimes[0]!;
}

/** How many characters of the runs there are. */
function runLength(runs: readonly TerminalRun[]): number {
  return runs.reduce((sum, run) => sum + cells(run.text).length, 0);
}

/** Rows a line of `length` characters takes at `columns` per row (an empty line takes one). */
function wrappedRows(length: number, columns: number): number {
  return Math.max(1, Math.ceil(length / columns));
}

/** Splits runs into rows of `columns` characters, keeping each run's style. */
export function wrapRuns(runs: readonly TerminalRun[], columns: number): TerminalRun[][] {
  const rows: TerminalRun[][] = [[]];
  let column = 0;
  for (const run of runs) {
    let chars = cells(run.text);
    while (chars.length > 0) {
      if (column === columns) {
        rows.push([]);
        column = 0;
      }
      const taken = chars.slice(0, columns - column);
      rows.at(-1)!.push({ ...run, text: taken.join('') });
      column += taken.length;
      chars = chars.slice(taken.length);
    }
  }
  return rows;
}

const rowTimesCache = new WeakMap<TerminalSchedule, Map<number, number[]>>();

/** rowTimes, made once per schedule and width. */
function cachedRowTimes(schedule: TerminalSchedule, columns: number): number[] {
  let byColumns = rowTimesCache.get(schedule);
  if (!byColumns) rowTimesCache.set(schedule, (byColumns = new Map()));
  let times = byColumns.get(columns);
  if (!times) byColumns.set(columns, (times = rowTimes(schedule, columns)));
  return times;
}

const wrappedStates = new WeakMap<AnsiRun[], Map<number, TerminalRun[][]>>();

/** An output state's rows, wrapped once per width: output never changes once printed. */
function wrappedState(state: AnsiRun[], columns: number): TerminalRun[][] {
  let byColumns = wrappedStates.get(state);
  if (!byColumns) wrappedStates.set(state, (byColumns = new Map()));
  let rows = byColumns.get(columns);
  if (!rows) byColumns.set(columns, (rows = wrapRuns(state, columns)));
  return rows;
}

/** When each row of the whole buffer appears, in order: the times rows push older ones up. */
export function rowTimes(schedule: TerminalSchedule, columns: number): number[] {
  const times: number[] = [];
  for (const line of schedule.lines) {
    if (line.kind === 'command') {
      times.push(line.at);
      // A long command wraps as it is typed: a row appears with its first character.
      for (let row = 1; row < wrappedRows(line.prompt.length + line.chars.length, columns); row++) {
        times.push(line.charTimes[row * columns - line.prompt.length] ?? line.at);
      }
    } else {
      let rows = 0;
      line.states.forEach((state, i) => {
        const needed = wrappedRows(runLength(state), columns);
        for (; rows < needed; rows++) times.push(line.stateTimes[i]!);
      });
    }
  }
  return times;
}

/** Rows scrolled off the top at `t`: each row past the window's last slides the buffer up by one. */
export function scrollOffset(times: readonly number[], visibleRows: number, t: number): number {
  const ease = easingFunction('inOut');
  let offset = 0;
  for (let row = visibleRows; row < times.length; row++) {
    const progress = (t - times[row]!) / SCROLL_SECONDS;
    if (progress <= 0) break;
    offset += progress >= 1 ? 1 : ease(progress);
  }
  return offset;
}

export interface TerminalCursor {
  row: number;
  column: number;
  /** Seconds since the last keystroke (or since the prompt appeared): a cursor blinks only when idle. */
  idle: number;
}

export interface TerminalView {
  /** Every row shown so far, oldest first, wrapped to the columns. */
  rows: TerminalRun[][];
  /** Rows scrolled off the top, fractional while scrolling. */
  scroll: number;
  /** Where the cursor is while a prompt waits or a command is typed; undefined while output prints. */
  cursor: TerminalCursor | undefined;
}

function commandRuns(line: CommandLine, typed: number): TerminalRun[] {
  const runs: TerminalRun[] = [{ text: line.prompt.join(''), role: 'prompt' }];
  if (typed > 0) runs.push({ text: line.chars.slice(0, typed).join(''), role: 'command' });
  return runs;
}

function countUntil(times: readonly number[], t: number): number {
  let count = 0;
  while (count < times.length && times[count]! <= t) count++;
  return count;
}

/** What the terminal shows at `t` seconds from the element start, in a window of the given size. */
export function terminalView(
  schedule: TerminalSchedule,
  t: number,
  size: { columns: number; rows: number },
): TerminalView {
  const columns = Math.max(1, size.columns);
  const rows: TerminalRun[][] = [];
  let cursor: TerminalCursor | undefined;
  for (const line of schedule.lines) {
    if (appearsAt(line) > t) break;
    cursor = undefined;
    if (line.kind === 'command') {
      const typed = countUntil(line.charTimes, t);
      const wrapped = wrapRuns(commandRuns(line, typed), columns);
      rows.push(...wrapped);
      if (t < line.enterAt) {
        const lastKey = typed > 0 ? line.charTimes[typed - 1]! : line.at;
        const length = line.prompt.length + typed;
        const column = length - (wrapped.length - 1) * columns;
        cursor = { row: rows.length - 1, column, idle: t - lastKey };
      }
    } else {
      const state = line.states[countUntil(line.stateTimes, t) - 1]!;
      rows.push(...wrappedState(state, columns));
    }
  }
  return { rows, scroll: scrollOffset(cachedRowTimes(schedule, columns), size.rows, t), cursor };
}

/** Whether a blinking cursor is lit: always just after a keystroke, then on and off. */
export function cursorLit(idle: number, blink: boolean): boolean {
  return !blink || Math.floor(idle / BLINK_SECONDS) % 2 === 0;
}
