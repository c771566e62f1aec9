// Where a Timeline row's scene or element is written in the open source: a JSON spec by its pointer;
// a .ts composition by its id, else its text, else its media source, as a string literal (the builder
// calls take them as literals; an element built from variables is not found, and says so).
import { sourceRangeOfPointer } from '../editor/json-pointer.ts';
import type { SourceRange } from '../editor/json-pointer.ts';
import type { Track } from './timeline-tracks.ts';

const QUOTES = ["'", '"', '`'];
/** A text is looked for by its first line's start: long texts are often split or escaped in code. */
const NEEDLE_CHARS = 40;

function rangeAt(text: string, start: number, length: number): SourceRange {
  const before = text.slice(0, start);
  const line = before.split('\n').length;
  const column = start - before.lastIndexOf('\n');
  return { startLineNumber: line, startColumn: column, endLineNumber: line, endColumn: column + length };
}

function literalIn(text: string, needle: string): SourceRange | undefined {
  const head = needle.split('\n')[0]!.slice(0, NEEDLE_CHARS);
  if (head.trim() === '') return undefined;
  const whole = head === needle;
  let best: number | undefined;
  let bestLength = 0;
  for (const quote of QUOTES) {
    const escaped = head.replaceAll('\\', '\\\\').replaceAll(quote, `\\${quote}`);
    const index = text.indexOf(`${quote}${escaped}${whole ? quote : ''}`);
    if (index >= 0 && (best === undefined || index < best)) {
      best = index;
      bestLength = escaped.length + (whole ? 2 : 1);
    }
  }
  return best === undefined ? undefined : rangeAt(text, best, bestLength);
}

export function locateTrack(text: string, track: Track, isJson: boolean): SourceRange | undefined {
  if (isJson) return track.pointer ? sourceRangeOfPointer(text, track.pointer, { exact: true }) : undefined;
  for (const needle of track.needles) {
    const range = literalIn(text, needle);
    if (range) return range;
  }
  return undefined;
}
