import { describe, expect, it } from 'vitest';
import { parseAnsiLines } from './terminal-ansi.ts';
import { TERMINAL_PALETTES, ansiColor } from './terminal-themes.ts';

const ESC = '\u001b';

/** The runs of a one-line output. */
function runs(output: string) {
  const lines = parseAnsiLines(output);
  expect(lines).toHaveLength(1);
  expect(lines[0]!.states).toHaveLength(1);
  return lines[0]!.states[0];
}

describe('parseAnsiLines', () => {
  it('reads SGR codes into styled runs, and a reset back to the default', () => {
    expect(runs(`${ESC}[1;31merror${ESC}[0m ok`)).toEqual([
      { text: 'error', fg: { index: 1 }, bold: true },
      { text: ' ok' },
    ]);
  });

  it('numbers the 16 colours, bright ones from 8, in foreground and background', () => {
    expect(runs(`${ESC}[92mpass${ESC}[39m ${ESC}[30;44m RUN ${ESC}[49m`)).toEqual([
      { text: 'pass', fg: { index: 10 } },
      { text: ' ' },
      { text: ' RUN ', fg: { index: 0 }, bg: { index: 4 } },
    ]);
    // The first 16 entries of the 256-colour palette are the themed 16 colours.
    expect(runs(`${ESC}[38;5;3mwarn`)).toEqual([{ text: 'warn', fg: { index: 3 } }]);
  });

  it('keeps 256-colour and truecolour codes as RGB, and drops truecolour once another colour is set', () => {
    expect(runs(`${ESC}[38;5;208mA${ESC}[38;5;240mB${ESC}[38;2;10;20;30mC${ESC}[32mD`)).toEqual([
      { text: 'A', fg: { rgb: [255, 135, 0] } },
      { text: 'B', fg: { rgb: [88, 88, 88] } },
      { text: 'C', fg: { rgb: [10, 20, 30] } },
      { text: 'D', fg: { index: 2 } },
    ]);
    expect(runs(`${ESC}[48;2;255;0;128m hot ${ESC}[0m`)).toEqual([
      { text: ' hot ', bg: { rgb: [255, 0, 128] } },
    ]);
  });

  it('reads dim, italic, underline and strikethrough, and 22 ends bold and dim', () => {
    expect(runs(`${ESC}[1;2;3;4mx${ESC}[22my${ESC}[23;24;9mz${ESC}[8mhidden`)).toEqual([
      { text: 'x', bold: true, dim: true, italic: true, underline: true },
      { text: 'y', italic: true, underline: true },
      { text: 'z', strikethrough: true },
    ]);
  });

  it('splits lines, keeps colour across them, and ignores cursor and erase codes', () => {
    const lines = parseAnsiLines(`${ESC}[33mone\ntwo${ESC}[0m\r\n${ESC}[2K${ESC}[1Gthree\n`);
    expect(lines.map((line) => line.states)).toEqual([
      [[{ text: 'one', fg: { index: 3 } }]],
      [[{ text: 'two', fg: { index: 3 } }]],
      [[{ text: 'three' }]],
    ]);
    expect(parseAnsiLines('a\n\nb').map((line) => line.states[0])).toEqual([
      [{ text: 'a' }],
      [],
      [{ text: 'b' }],
    ]);
    expect(parseAnsiLines('')).toEqual([{ states: [[]] }]);
  });

  it('turns carriage returns into states of one line, redrawn in place', () => {
    const [progress, done] = parseAnsiLines(' 10%\r 60%\r100%\r\nok');
    expect(progress!.states).toEqual([[{ text: ' 10%' }], [{ text: ' 60%' }], [{ text: '100%' }]]);
    expect(done!.states).toEqual([[{ text: 'ok' }]]);
  });
});

describe('ansiColor', () => {
  it("paints the 16 colours in the theme's palette and RGB as it is", () => {
    expect(ansiColor({ index: 1 }, TERMINAL_PALETTES.dark)).toBe('#ff7b72');
    expect(ansiColor({ index: 1 }, TERMINAL_PALETTES.dracula)).toBe('#ff5555');
    expect(ansiColor({ index: 9 }, TERMINAL_PALETTES.light)).toBe('#a40e26');
    expect(ansiColor({ rgb: [255, 135, 0] }, TERMINAL_PALETTES.light)).toBe('rgb(255, 135, 0)');
  });
});
