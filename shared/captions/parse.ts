// Caption files (SRT and WebVTT) read into timed cues, with every fault reported by cue number and
// line. WebVTT goes through webvtt-parser, W3C's own validator: of the maintained parsers it is the
// one that reports each malformed case (a bad timestamp, a cue without timing, a missing blank line,
// an end before its start, cues out of order) instead of dropping the cue silently. SRT is WebVTT
// with commas in its timestamps and no header, so it is rewritten line for line into WebVTT and the
// validator's line numbers map straight back.
import webvtt from 'webvtt-parser';
import type { WebVTTNode } from 'webvtt-parser';

export type CaptionFormat = 'srt' | 'vtt';

export interface CaptionCue {
  /** 1-based position in the file. */
  number: number;
  /** Line of the cue's timing in the file, 1-based. */
  line: number;
  /** Seconds from the start of the captions. */
  start: number;
  end: number;
  /** The cue's text without markup (<i>, <v Speaker>, <c.class>), line breaks kept. */
  text: string;
}

export interface CaptionFault {
  /** The cue the fault belongs to, when it belongs to one. */
  cue?: number | undefined;
  line: number;
  message: string;
}

export type CaptionParseResult = { ok: true; cues: CaptionCue[] } | { ok: false; faults: CaptionFault[] };

/** A caption file longer than this is not a caption file anyone means to inline in a spec. */
export const MAX_CAPTION_CHARS = 1_000_000;
export const MAX_CUES = 10_000;
/**
 * Cues that overlap by at most this much are taken as meant back to back (transcribers and editors
 * round cue ends): the earlier one ends where the next begins. More overlap than this is a fault.
 */
export const OVERLAP_TOLERANCE_SECONDS = 0.05;

const SRT_TIMING = /^(\s*[^\s]+)\s*-->\s*([^\s]+)(.*)$/;
const HEADER_LINES = 2;

/** SRT → WebVTT, one line for one line after a two-line header: only timing lines change. */
function srtAsVtt(text: string): string {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const converted = lines.map((line) => {
    const timing = SRT_TIMING.exec(line);
    if (!timing) return line;
    const stamp = (value: string) => value.trim().replace(/,(\d+)$/, '.$1');
    return `${stamp(timing[1]!)} --> ${stamp(timing[2]!)}${timing[3]}`;
  });
  return `WEBVTT\n\n${converted.join('\n')}`;
}

function plainText(nodes: readonly WebVTTNode[]): string {
  return nodes
    .map((node) => (node.type === 'text' ? (node.value ?? '') : plainText(node.children ?? [])))
    .join('');
}

/** The file line of each cue's timing ("-->"), in order, to name cues by number and line. */
function timingLines(text: string): number[] {
  const lines: number[] = [];
  text.split(/\r\n|\r|\n/).forEach((line, index) => {
    if (line.includes('-->')) lines.push(index + 1);
  });
  return lines;
}

function describeTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

function cueAtLine(lines: readonly number[], line: number): number | undefined {
  // A fault on a timing line, or in the text below it, belongs to the last cue that began above it.
  let cue: number | undefined;
  lines.forEach((timingLine, index) => {
    if (timingLine <= line) cue = index + 1;
  });
  return cue;
}

/** Parses SRT or WebVTT text. Faults come in file order; a file with any fault gives no cues. */
export function parseCaptions(format: CaptionFormat, text: string): CaptionParseResult {
  if (text.length > MAX_CAPTION_CHARS) {
    return {
      ok: false,
      faults: [{ line: 1, message: `the captions are over ${MAX_CAPTION_CHARS} characters; split them` }],
    };
  }
  const source = format === 'srt' ? srtAsVtt(text) : text;
  const offset = format === 'srt' ? HEADER_LINES : 0;
  const lines = timingLines(text);
  const parsed = new webvtt.WebVTTParser().parse(source, 'subtitles');
  const faults: CaptionFault[] = parsed.errors
    .filter((error) => format === 'vtt' || error.line > offset)
    .map((error) => {
      const line = error.line - offset;
      const message = error.message.replace(/\.$/, '');
      return {
        cue: cueAtLine(lines, line),
        line,
        message: message.charAt(0).toLowerCase() + message.slice(1),
      };
    });
  if (parsed.cues.length === 0 && faults.length === 0) {
    faults.push({
      line: 1,
      message: `no cues found: expected ${format === 'srt' ? 'numbered SRT cues' : 'WebVTT cues'} with "start --> end" timing lines`,
    });
  }
  if (parsed.cues.length > MAX_CUES) {
    faults.push({ line: 1, message: `more than ${MAX_CUES} cues; split the captions` });
  }
  const cues = parsed.cues.map((cue, index): CaptionCue => ({
    number: index + 1,
    line: lines[index] ?? 1,
    start: cue.startTime,
    end: cue.endTime,
    text: plainText(cue.tree.children).trim(),
  }));
  for (let i = 1; i < cues.length; i++) {
    const previous = cues[i - 1]!;
    const cue = cues[i]!;
    const overlap = previous.end - cue.start;
    if (overlap > OVERLAP_TOLERANCE_SECONDS && cue.start >= previous.start) {
      faults.push({
        cue: cue.number,
        line: cue.line,
        message: `starts at ${describeTime(cue.start)}, before cue ${previous.number} ends at ${describeTime(previous.end)}: cues must not overlap`,
      });
    }
  }
  if (faults.length > 0) return { ok: false, faults: faults.sort((a, b) => a.line - b.line) };
  // Back-to-back cues within the tolerance: the earlier one gives way.
  for (let i = 1; i < cues.length; i++) cues[i - 1]!.end = Math.min(cues[i - 1]!.end, cues[i]!.start);
  return { ok: true, cues: cues.filter((cue) => cue.text.length > 0) };
}

/** A fault as one line for people: "cue 3 (line 12): end timestamp is not greater than start". */
export function describeCaptionFault(format: CaptionFormat, fault: CaptionFault): string {
  const where = fault.cue === undefined ? `line ${fault.line}` : `cue ${fault.cue} (line ${fault.line})`;
  return `${format.toUpperCase()} ${where}: ${fault.message}`;
}
