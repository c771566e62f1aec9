// The terminal's designed palettes: the window, the text roles and the 16 ANSI colours each theme
// gives "red" or "bright blue". Output is a step quieter than typed commands, so what the person
// typed reads first.
import type { TerminalTheme } from '../../spec/terminal-element.ts';
import type { AnsiColor } from './terminal-ansi.ts';

export interface TerminalPalette {
  window: string;
  titleBar: string;
  /** The hairline around the window and under its title bar. */
  border: string;
  title: string;
  prompt: string;
  command: string;
  output: string;
  cursor: string;
  /** black, red, green, yellow, blue, magenta, cyan, white, then their bright forms. */
  ansi: readonly string[];
}

/** The three window buttons, as macOS colours them. */
export const WINDOW_DOTS = ['#ff5f57', '#febc2e', '#28c840'] as const;

export const TERMINAL_PALETTES: Record<TerminalTheme, TerminalPalette> = {
  dark: {
    window: '#0d1117',
    titleBar: '#161b22',
    border: 'rgba(240, 246, 252, 0.1)',
    title: '#8b949e',
    prompt: '#7ee787',
    command: '#f0f6fc',
    output: '#c9d1d9',
    cursor: '#f0f6fc',
    ansi: [
      '#484f58',
      '#ff7b72',
      '#3fb950',
      '#d29922',
      '#58a6ff',
      '#bc8cff',
      '#39c5cf',
      '#b1bac4',
      '#6e7681',
      '#ffa198',
      '#56d364',
      '#e3b341',
      '#79c0ff',
      '#d2a8ff',
      '#56d4dd',
      '#f0f6fc',
    ],
  },
  light: {
    window: '#ffffff',
    titleBar: '#f3f4f6',
    border: 'rgba(31, 35, 40, 0.14)',
    title: '#6e7781',
    prompt: '#1a7f37',
    command: '#1f2328',
    output: '#424a53',
    cursor: '#1f2328',
    ansi: [
      '#24292f',
      '#cf222e',
      '#116329',
      '#9a6700',
      '#0969da',
      '#8250df',
      '#1b7c83',
      '#6e7781',
      '#57606a',
      '#a40e26',
      '#1a7f37',
      '#7d4e00',
      '#218bff',
      '#a475f9',
      '#3192aa',
      '#8c959f',
    ],
  },
  dracula: {
    window: '#282a36',
    titleBar: '#21222c',
    border: 'rgba(248, 248, 242, 0.08)',
    title: '#6272a4',
    prompt: '#50fa7b',
    command: '#f8f8f2',
    output: '#e0e0da',
    cursor: '#f8f8f2',
    ansi: [
      '#21222c',
      '#ff5555',
      '#50fa7b',
      '#f1fa8c',
      '#bd93f9',
      '#ff79c6',
      '#8be9fd',
      '#f8f8f2',
      '#6272a4',
      '#ff6e6e',
      '#69ff94',
      '#ffffa5',
      '#d6acff',
      '#ff92df',
      '#a4ffff',
      '#ffffff',
    ],
  },
};

/** An ANSI colour reference in the theme's colours. */
export function ansiColor(color: AnsiColor, palette: TerminalPalette): string {
  if ('rgb' in color) return `rgb(${color.rgb.join(', ')})`;
  return palette.ansi[color.index] ?? palette.output;
}
