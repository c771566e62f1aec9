// What a code element shows at a moment, before any pixel is drawn: which version of the code, and
// during a morph between two versions how far it has gone and where each line's band stands (rows,
// fractional while sliding), how opaque it is and how highlighted or dimmed. Lines are matched by a
// longest common subsequence of their text, indentation aside: kept lines slide to their new row,
// removed lines fade out where they were while added lines fade in where they land, at once, so
// the window never empties. The text itself morphs token by token (code-morph.ts).
import { easingFunction } from '../../animation/easing.ts';
import type { CodeElement, LineRefs } from '../../spec/code-element.ts';
import { timeToSeconds } from '../../spec/time.ts';

export const DEFAULT_MORPH_SECONDS = 0.8;

/** One version of the code: its lines and which of them are highlighted or focused. */
export interface CodeVersion {
  code: string;
  lines: string[];
  highlight: ReadonlySet<number>;
  focus: ReadonlySet<number>;
}

/** A line as drawn on one frame. */
export interface CodeLinePlacement {
  /** The version the line's text comes from, and its index (from 0) there. */
  version: number;
  line: number;
  /** Its row (from 0; fractional while it slides). */
  row: number;
  /** 0..1: fading in or out during a morph. */
  alpha: number;
  /** 0..1: how much of the highlight band it has. */
  highlight: number;
  /** 0..1: how far it is dimmed by another line's focus. */
  dim: number;
}

/** A morph under way: from version `from` to the next, its phases eased (0..1). */
export interface CodeMorph {
  from: number;
  /** How far kept text and bands have moved, and highlight and focus blended. */
  move: number;
  /** How far what leaves has faded out and what arrives has faded in: the same share, so they overlap. */
  fade: number;
}

export interface CodeFrame {
  lines: CodeLinePlacement[];
  /** Set while a morph runs: the text then draws token by token, not by `lines`. */
  morph?: CodeMorph;
  /** Rows in view, fractional while the block grows or shrinks. */
  rows: number;
  /** The version shown (the later one, once a morph has started). */
  version: number;
}

/** Line numbers (from 1) and ranges ("5-7") as a set of line indices (from 0). */
export function lineSet(refs: LineRefs | undefined): Set<number> {
  const lines = new Set<number>();
  for (const ref of refs ?? []) {
    if (typeof ref === 'number') {
      lines.add(ref - 1);
      continue;
    }
    const [from, to] = ref.split('-').map(Number) as [number, number];
    for (let line = from; line <= to; line++) lines.add(line - 1);
  }
  return lines;
}

export function splitCodeLines(code: string): string[] {
  const lines = code.replace(/\r\n?/g, '\n').split('\n');
  // A trailing newline ends the last line; it is not an empty line of its own.
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}

export function codeVersions(element: CodeElement): CodeVersion[] {
  const version = (code: string, highlight?: LineRefs, focus?: LineRefs): CodeVersion => ({
    code,
    lines: splitCodeLines(code),
    highlight: lineSet(highlight),
    focus: lineSet(focus),
  });
  return [
    version(element.code, element.highlight, element.focus),
    ...(element.steps ?? []).map((step) => version(step.code, step.highlight, step.focus)),
  ];
}

/** When each step's morph starts, in seconds from the element start. */
export function stepStarts(element: CodeElement, durationSeconds: number, fps: number): number[] {
  const steps = element.steps ?? [];
  let previous = 0;
  return steps.map((step, index) => {
    const at =
      step.at === undefined
        ? ((index + 1) * durationSeconds) / (steps.length + 1)
        : timeToSeconds(step.at, fps);
    previous = Math.max(previous, at);
    return previous;
  });
}

/**
 * Which lines of `before` survive in `after`: pairs [beforeIndex, afterIndex] of a longest common
 * subsequence of lines, compared without their indentation (a re-indented line is kept, and slides).
 */
export function matchLines(before: readonly string[], after: readonly string[]): [number, number][] {
  const key = (line: string) => line.trim();
  const n = before.length;
  const m = after.length;
  // lengths[i][j]: the longest common subsequence of before[i..] and after[j..].
  const lengths = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i]![j] =
        key(before[i]!) === key(after[j]!)
          ? lengths[i + 1]![j + 1]! + 1
          : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (key(before[i]!) === key(after[j]!)) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (lengths[i + 1]![j]! >= lengths[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

const smooth = easingFunction('inOut');

/** The share of `progress` that falls in [from, to], eased. */
function phase(progress: number, from: number, to: number): number {
  return smooth(Math.min(1, Math.max(0, (progress - from) / (to - from))));
}

/**
 * A morph's phases at `progress` (0..1): kept text moves over the whole morph; what leaves fades
 * out exactly as fast as what arrives fades in, over its middle, so the two always add up to one
 * whole version's worth of code. (Fading one out before the other in left the window blank.)
 */
export function morphPhases(progress: number): { move: number; fade: number } {
  return { move: phase(progress, 0, 1), fade: phase(progress, 0.15, 0.85) };
}

/** 1 where a line is dimmed by another line's focus, else 0. */
export function lineDim(version: CodeVersion, line: number): number {
  return version.focus.size > 0 && !version.focus.has(line) ? 1 : 0;
}

function staticFrame(versions: readonly CodeVersion[], index: number): CodeFrame {
  const version = versions[index]!;
  return {
    version: index,
    rows: version.lines.length,
    lines: version.lines.map((_, line) => ({
      version: index,
      line,
      row: line,
      alpha: 1,
      highlight: version.highlight.has(line) ? 1 : 0,
      dim: lineDim(version, line),
    })),
  };
}

/** Which lines of version `from` become which of the next: [before, after] pairs. */
export type LinePairing = (from: number) => [number, number][];

/**
 * The morph from version `from` to the next at `progress` (0..1): kept lines slide to their new
 * row, removed lines fade out in place while added lines fade in where they land; highlight and
 * focus blend as lines move. Lines are kept as `pairLines` says (the drawing pairs them as their
 * tokens move), else by their text.
 */
export function morphFrame(
  versions: readonly CodeVersion[],
  from: number,
  progress: number,
  pairLines?: LinePairing,
): CodeFrame {
  if (progress <= 0) return staticFrame(versions, from);
  if (progress >= 1) return staticFrame(versions, from + 1);
  const before = versions[from]!;
  const after = versions[from + 1]!;
  const pairs = pairLines?.(from) ?? matchLines(before.lines, after.lines);
  const keptBefore = new Map(pairs);
  const keptAfter = new Set(pairs.map(([, j]) => j));
  const { move, fade } = morphPhases(progress);
  const mix = (a: number, b: number, t: number) => a + (b - a) * t;
  const lines: CodeLinePlacement[] = [];
  before.lines.forEach((_, i) => {
    const j = keptBefore.get(i);
    const highlight = before.highlight.has(i) ? 1 : 0;
    if (j === undefined) {
      lines.push({ version: from, line: i, row: i, alpha: 1 - fade, highlight, dim: lineDim(before, i) });
      return;
    }
    lines.push({
      version: from + 1,
      line: j,
      row: mix(i, j, move),
      alpha: 1,
      highlight: mix(highlight, after.highlight.has(j) ? 1 : 0, move),
      dim: mix(lineDim(before, i), lineDim(after, j), move),
    });
  });
  after.lines.forEach((_, j) => {
    if (keptAfter.has(j)) return;
    const highlight = after.highlight.has(j) ? 1 : 0;
    lines.push({ version: from + 1, line: j, row: j, alpha: fade, highlight, dim: lineDim(after, j) });
  });
  return {
    version: from + 1,
    rows: mix(before.lines.length, after.lines.length, move),
    lines: lines.filter((line) => line.alpha > 0),
    morph: { from, move, fade },
  };
}

/** What the element shows `elementSeconds` after it starts. */
export function codeFrameAt(
  element: CodeElement,
  versions: readonly CodeVersion[],
  elementSeconds: number,
  elementDuration: number,
  fps: number,
  pairLines?: LinePairing,
): CodeFrame {
  const starts = stepStarts(element, elementDuration, fps);
  const morph =
    element.morphDuration === undefined ? DEFAULT_MORPH_SECONDS : timeToSeconds(element.morphDuration, fps);
  let current = 0;
  starts.forEach((start, index) => {
    if (elementSeconds >= start) current = index + 1;
  });
  if (current === 0) return staticFrame(versions, 0);
  const start = starts[current - 1]!;
  // A morph never runs into the next step's.
  const next = starts[current] ?? Infinity;
  const length = Math.min(morph, next - start);
  const progress = length <= 0 ? 1 : (elementSeconds - start) / length;
  return morphFrame(versions, current - 1, Math.min(1, progress), pairLines);
}
