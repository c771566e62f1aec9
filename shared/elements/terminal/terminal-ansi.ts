// Terminal output with ANSI SGR codes, read by anser into coloured runs, line by line. Colours stay
// references (a palette index or an RGB triple) so the theme decides what "red" looks like; only the
// 16 basic colours are themed, as terminals do, while 256-colour and truecolour codes keep their RGB.
import Anser from 'anser';

export type AnsiColor = { index: number } | { rgb: readonly [number, number, number] };

/** Text in one style. Flags are present only when set, so runs compare simply. */
export interface AnsiRun {
  text: string;
  fg?: AnsiColor;
  bg?: AnsiColor;
  bold?: true;
  dim?: true;
  italic?: true;
  underline?: true;
  strikethrough?: true;
}

/**
 * One output line. A line printed with carriage returns is redrawn in place (a progress bar): each
 * state replaces the last, one per line delay; most lines have one state.
 */
export interface AnsiLine {
  states: AnsiRun[][];
}

const BASIC_NAMES = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];

function rgbTriple(text: string | null): readonly [number, number, number] | undefined {
  const parts = text?.split(',').map((part) => Number(part.trim()));
  if (parts?.length !== 3 || parts.some((part) => !Number.isInteger(part))) return undefined;
  return [parts[0]!, parts[1]!, parts[2]!];
}

/** The xterm RGB of a 256-colour palette entry, as anser computes it. */
const paletteRgb = (() => {
  const cache = new Map<number, readonly [number, number, number] | undefined>();
  return (index: number) => {
    if (!cache.has(index)) {
      const [chunk] = Anser.ansiToJson(`\u001b[38;5;${index}mx`, { remove_empty: true });
      cache.set(index, rgbTriple(chunk?.fg ?? null));
    }
    return cache.get(index);
  };
})();

/** anser's class for a colour ("ansi-bright-red", "ansi-palette-208", "ansi-truecolor") as a reference. */
function colorOf(klass: string | null, truecolor: string | null): AnsiColor | undefined {
  if (!klass) return undefined;
  if (klass === 'ansi-truecolor') {
    const rgb = rgbTriple(truecolor);
    return rgb && { rgb };
  }
  const palette = /^ansi-palette-(\d+)$/.exec(klass);
  if (palette) {
    const rgb = paletteRgb(Number(palette[1]));
    return rgb && { rgb };
  }
  const basic = /^ansi-(bright-)?([a-z]+)$/.exec(klass);
  const index = basic ? BASIC_NAMES.indexOf(basic[2]!) : -1;
  return index < 0 ? undefined : { index: index + (basic![1] ? 8 : 0) };
}

type Style = Omit<AnsiRun, 'text'>;

function styleOf(entry: Anser.AnserJsonEntry): Style | undefined {
  const decorations = new Set(entry.decorations);
  if (decorations.has('hidden')) return undefined;
  const style: Style = {};
  const fg = colorOf(entry.fg, entry.fg_truecolor);
  const bg = colorOf(entry.bg, entry.bg_truecolor);
  if (fg) style.fg = fg;
  if (bg) style.bg = bg;
  if (decorations.has('bold')) style.bold = true;
  if (decorations.has('dim')) style.dim = true;
  if (decorations.has('italic')) style.italic = true;
  if (decorations.has('underline')) style.underline = true;
  if (decorations.has('strikethrough')) style.strikethrough = true;
  return style;
}

/** Reads output text into lines of coloured runs. Other escape codes (cursor moves, erases) drop out. */
export function parseAnsiLines(output: string): AnsiLine[] {
  const lines: AnsiLine[] = [];
  let states: AnsiRun[][] = [];
  let runs: AnsiRun[] = [];
  const endState = () => {
    // "\r" right before "\n" (Windows line ends, a final redraw) starts no new state.
    if (runs.length > 0 || states.length === 0) states.push(runs);
    runs = [];
  };
  const entries = Anser.ansiToJson(output, { use_classes: true, remove_empty: true });
  for (const entry of entries) {
    const style = styleOf(entry);
    // Splits on line feeds and carriage returns, keeping them as separators.
    for (const piece of entry.content.split(/(\r?\n|\r)/)) {
      if (piece === '\n' || piece === '\r\n') {
        endState();
        lines.push({ states });
        states = [];
      } else if (piece === '\r') {
        endState();
      } else if (piece && style) {
        runs.push({ text: piece.replace(/\t/g, '    '), ...style });
      }
    }
  }
  endState();
  // A final line feed ends the last line; it does not start an empty one.
  const trailing = states.length === 1 && states[0]!.length === 0 && lines.length > 0;
  if (!trailing) lines.push({ states });
  return lines;
}
