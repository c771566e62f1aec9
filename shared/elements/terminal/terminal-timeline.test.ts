import { describe, expect, it } from 'vitest';
import { TerminalElementSchema } from '../../spec/terminal-element.ts';
import type { TerminalElement } from '../../spec/terminal-element.ts';
import {
  BLINK_SECONDS,
  SCROLL_SECONDS,
  cursorLit,
  keystrokeTimes,
  rowTimes,
  scheduleTerminal,
  scrollOffset,
  terminalView,
} from './terminal-timeline.ts';
import type { TerminalView } from './terminal-timeline.ts';

const terminal = (fields: Partial<TerminalElement>): TerminalElement => ({
  type: 'terminal',
  session: [{ command: 'ls' }],
  ...fields,
});

/** The rows as the text they show. */
const texts = (view: TerminalView) => view.rows.map((row) => row.map((run) => run.text).join(''));
const WIDE = { columns: 80, rows: 30 };

describe('keystrokeTimes', () => {
  it('types at the mean rate with a varied, repeatable rhythm', () => {
    const chars = [...'npx kino render launch.json --quality high'];
    const times = keystrokeTimes(chars, 1, 20);
    expect(keystrokeTimes(chars, 1, 20)).toEqual(times);
    // 42 characters at 20 a second take about 2.1s, give or take the jitter.
    expect(times.at(-1)! - 1).toBeGreaterThan(1.7);
    expect(times.at(-1)! - 1).toBeLessThan(2.6);
    const gaps = times.map((at, i) => at - (i === 0 ? 1 : times[i - 1]!));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(0.55 / 20);
    expect(Math.max(...gaps)).toBeLessThanOrEqual((1.45 * 1.3) / 20);
    // Not a metronome: the gaps differ.
    expect(new Set(gaps.map((gap) => gap.toFixed(4))).size).toBeGreaterThan(10);
  });
});

describe('terminalView', () => {
  const element = terminal({
    session: [{ command: 'npm test', output: 'one\ntwo\nthree' }],
    startDelay: 1,
    typeSpeed: 10,
    pause: 0.5,
    lineDelay: 0.1,
  });
  const schedule = scheduleTerminal(element, 30);
  const command = schedule.lines[0]!;
  if (command.kind !== 'command') throw new Error('expected the command first');

  it('shows the prompt waiting, then types the command character by character', () => {
    expect(texts(terminalView(schedule, 0, WIDE))).toEqual(['$ ']);
    expect(texts(terminalView(schedule, 0.99, WIDE))).toEqual(['$ ']);
    expect(texts(terminalView(schedule, command.charTimes[2]!, WIDE))).toEqual(['$ npm']);
    expect(texts(terminalView(schedule, command.charTimes[2]! - 1e-6, WIDE))).toEqual(['$ np']);
    // Eight characters at 10 a second take about 0.8s after the 1s start delay.
    expect(command.charTimes.at(-1)).toBeGreaterThan(1.6);
    expect(command.charTimes.at(-1)).toBeLessThan(2.1);
    expect(command.enterAt).toBeCloseTo(command.charTimes.at(-1)! + 0.5, 9);
  });

  it('keeps the cursor after the typed text until Enter, then prints line by line', () => {
    const typing = terminalView(schedule, command.charTimes[3]!, WIDE);
    expect(typing.cursor).toEqual({ row: 0, column: 6, idle: 0 });
    const enter = command.enterAt;
    expect(terminalView(schedule, enter - 0.01, WIDE).cursor?.column).toBe(10);
    expect(texts(terminalView(schedule, enter + 0.05, WIDE))).toEqual(['$ npm test']);
    expect(terminalView(schedule, enter + 0.05, WIDE).cursor).toBeUndefined();
    expect(texts(terminalView(schedule, enter + 0.1, WIDE))).toEqual(['$ npm test', 'one']);
    expect(texts(terminalView(schedule, enter + 0.25, WIDE))).toEqual(['$ npm test', 'one', 'two']);
    // The last line prints, and a fresh prompt waits with the cursor after it.
    const done = terminalView(schedule, enter + 0.3 + 1e-9, WIDE);
    expect(texts(done)).toEqual(['$ npm test', 'one', 'two', 'three', '$ ']);
    expect(done.cursor).toMatchObject({ row: 4, column: 2 });
    expect(schedule.end).toBeCloseTo(enter + 0.3, 9);
  });

  it('prints all output at once with no line delay, and shows output-only entries without a prompt', () => {
    const instant = scheduleTerminal(
      terminal({ session: [{ output: 'a\nb\nc' }], startDelay: 0.2, lineDelay: 0 }),
      30,
    );
    expect(texts(terminalView(instant, 0.19, WIDE))).toEqual([]);
    expect(texts(terminalView(instant, 0.2, WIDE))).toEqual(['a', 'b', 'c']);
  });

  it('redraws a carriage-return line in place, one state per line delay', () => {
    const bar = scheduleTerminal(
      terminal({ session: [{ output: '[=  ]\r[== ]\r[===]\ndone' }], startDelay: 0, lineDelay: 0.5 }),
      30,
    );
    expect(texts(terminalView(bar, 0.6, WIDE))).toEqual(['[== ]']);
    expect(texts(terminalView(bar, 1.4, WIDE))).toEqual(['[===]']);
    expect(texts(terminalView(bar, 1.5, WIDE))).toEqual(['[===]', 'done']);
  });

  it('wraps a long command as it is typed, with the cursor on the new row', () => {
    const long = scheduleTerminal(
      terminal({ session: [{ command: 'abcdefghijkl' }], startDelay: 0, typeSpeed: 10 }),
      30,
    );
    const line = long.lines[0]!;
    if (line.kind !== 'command') throw new Error('expected a command');
    const view = terminalView(long, line.charTimes[9]!, { columns: 8, rows: 5 });
    expect(texts(view)).toEqual(['$ abcdef', 'ghij']);
    expect(view.cursor).toMatchObject({ row: 1, column: 4 });
    expect(rowTimes(long, 8).slice(0, 2)).toEqual([0, line.charTimes[6]]);
  });

  it('takes its timings from the entry before the element', () => {
    const timed = scheduleTerminal(
      terminal({
        session: [{ command: 'a' }, { command: 'b', delay: 2, typeSpeed: 100, pause: 0 }],
        startDelay: 0,
        gap: 0.5,
        pause: 1,
      }),
      30,
    );
    const [first, second] = timed.lines;
    if (first?.kind !== 'command' || second?.kind !== 'command') throw new Error('expected commands');
    expect(second.at).toBeCloseTo(first.enterAt, 9);
    expect(second.charTimes[0]! - second.at).toBeGreaterThan(2);
    expect(second.charTimes[0]! - second.at).toBeLessThan(2.02);
    expect(second.enterAt).toBe(second.charTimes[0]);
  });
});

describe('scrollOffset', () => {
  it('scrolls one row, smoothly, for each row past the window', () => {
    const element = terminal({ session: [{ output: '1\n2\n3\n4\n5' }], startDelay: 0, lineDelay: 1 });
    const times = rowTimes(scheduleTerminal(element, 30), 80);
    expect(times).toEqual([0, 1, 2, 3, 4]);
    expect(scrollOffset(times, 3, 2.99)).toBe(0);
    // The fourth row appears at 3s: halfway through its scroll the buffer is half a row up.
    expect(scrollOffset(times, 3, 3 + SCROLL_SECONDS / 2)).toBeCloseTo(0.5, 6);
    expect(scrollOffset(times, 3, 3 + SCROLL_SECONDS / 4)).toBeLessThan(0.25);
    expect(scrollOffset(times, 3, 3 + SCROLL_SECONDS)).toBe(1);
    expect(scrollOffset(times, 3, 10)).toBe(2);
    expect(scrollOffset(times, 5, 10)).toBe(0);
    const view = terminalView(scheduleTerminal(element, 30), 10, { columns: 80, rows: 3 });
    expect(view.scroll).toBe(2);
  });

  it('moves without jumps while rows arrive faster than a scroll takes', () => {
    const times = [0, 0, 0, 1, 1.05, 1.1, 1.15];
    let last = 0;
    for (let t = 1; t <= 1.5; t += 1 / 60) {
      const offset = scrollOffset(times, 3, t);
      expect(offset - last).toBeLessThan(0.5);
      expect(offset).toBeGreaterThanOrEqual(last);
      last = offset;
    }
    expect(last).toBe(4);
  });
});

describe('cursorLit', () => {
  it('stays lit just after a keystroke, then blinks; never blinks when told not to', () => {
    expect(cursorLit(0, true)).toBe(true);
    expect(cursorLit(BLINK_SECONDS * 1.5, true)).toBe(false);
    expect(cursorLit(BLINK_SECONDS * 2.5, true)).toBe(true);
    expect(cursorLit(BLINK_SECONDS * 1.5, false)).toBe(true);
  });
});

describe('the terminal schema', () => {
  it('refuses empty entries and multi-line commands, at the field', () => {
    const empty = TerminalElementSchema.safeParse(terminal({ session: [{}] }));
    expect(empty.error?.issues[0]).toMatchObject({
      path: ['session', 0],
      message: expect.stringContaining('command'),
    });
    const twoLines = TerminalElementSchema.safeParse(terminal({ session: [{ command: 'a\nb' }] }));
    expect(twoLines.error?.issues[0]?.path).toEqual(['session', 0, 'command']);
    expect(TerminalElementSchema.safeParse(terminal({ session: [] })).success).toBe(false);
    expect(TerminalElementSchema.safeParse(terminal({ typeSpeed: 0 })).success).toBe(false);
  });
});
