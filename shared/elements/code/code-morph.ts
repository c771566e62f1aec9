// Which tokens of one version of the code become which tokens of the next, in the way of
// shiki-magic-move: its core diffs the two texts (diff-match-patch) and hands each old token's key to
// the new token it matches, so a line that is kept, re-indented or lightly edited moves to its new
// place token by token, while tokens with no partner fade out where they were and in where they land.
// Lines matched by their whole text would count a re-indented line as removed and added.
//
// Only the core's keying is used (`toKeyedTokens`, `syncTokenKeys`): the package's renderers move
// DOM elements, and Kino draws on a canvas. Nor `codeToKeyedTokens`, which calls a shiki highlighter:
// drawing has the tokens the host highlighted ahead (from code-tokens.ts' disk cache, with no shiki
// loaded), so they are keyed as they are, their offsets counted here.
import { syncTokenKeys, toKeyedTokens } from 'shiki-magic-move/core';
import type { KeyedToken, KeyedTokensInfo } from 'shiki-magic-move/core';
import type { ThemedToken } from 'shiki/core';
import type { CodeToken } from '../../canvas/types.ts';
import { matchLines } from './code-steps.ts';

/**
 * Past this many characters in the two versions together, diff-match-patch could reach its
 * one-second deadline, after which its answer depends on the machine's speed (and threads drawing
 * frames of one morph could pair tokens differently). Longer versions pair whole lines instead:
 * lines kept with their indentation aside (matchLines) move, token for token.
 */
const TOKEN_DIFF_MAX_CHARS = 4000;

/** A token where one version has it: its line (from 0), characters before it in that line, its look. */
export interface TokenPlace {
  line: number;
  column: number;
  token: CodeToken;
}

/** One piece of text in a morph: in the earlier version, the later one, or both (it moves). */
export interface MorphToken {
  text: string;
  before: TokenPlace | undefined;
  after: TokenPlace | undefined;
}

/** A shiki token carrying ours through the keying (its whitespace splits copy every field). */
type SourcedToken = ThemedToken & { source: CodeToken };

interface KeyedVersion {
  keyed: KeyedTokensInfo;
  /** Where each line starts in the version's text. */
  lineStarts: number[];
}

function keyedVersion(lines: readonly (readonly CodeToken[])[], salt: string): KeyedVersion {
  const lineStarts: number[] = [];
  let offset = 0;
  const themed = lines.map((line) => {
    lineStarts.push(offset);
    const tokens = line.map((token): SourcedToken => {
      const sourced = { content: token.text, offset, color: token.color, source: token };
      offset += token.text.length;
      return sourced;
    });
    offset += 1; // the newline
    return tokens;
  });
  const code = lines.map((line) => line.map((token) => token.text).join('')).join('\n');
  // Each version is salted apart: two versions' unmatched tokens never share a key.
  return { keyed: toKeyedTokens(code, themed, salt), lineStarts };
}

function place(version: KeyedVersion, token: KeyedToken): TokenPlace {
  let line = version.lineStarts.length - 1;
  while (line > 0 && version.lineStarts[line]! > token.offset) line--;
  return {
    line,
    column: token.offset - version.lineStarts[line]!,
    token: { ...(token as unknown as SourcedToken).source, text: token.content },
  };
}

/** Tokens that draw something: not a line's end, not whitespace alone. */
function visible(token: KeyedToken): boolean {
  return token.content.trim() !== '';
}

type CodeLines = readonly (readonly CodeToken[])[];

const lineText = (line: readonly CodeToken[]) => line.map((token) => token.text).join('');

/** Pairings by the two versions' tokens: every frame of a morph asks for the same one. */
const pairings = new WeakMap<CodeLines, WeakMap<CodeLines, MorphToken[]>>();

/** Every visible token of `before` and `after` (lines of highlighted tokens), paired where they match. */
export function morphTokens(before: CodeLines, after: CodeLines): MorphToken[] {
  let byAfter = pairings.get(before);
  if (!byAfter) pairings.set(before, (byAfter = new WeakMap()));
  let tokens = byAfter.get(after);
  if (!tokens) {
    const size = [...before, ...after].reduce((sum, line) => sum + lineText(line).length + 1, 0);
    tokens = size > TOKEN_DIFF_MAX_CHARS ? lineMorphTokens(before, after) : diffMorphTokens(before, after);
    byAfter.set(after, tokens);
  }
  return tokens;
}

/**
 * Lines whose text mostly moves together, as [before, after] pairs, each line in one pair at most:
 * at least half of each line's visible characters travel from the one to the other. Their
 * highlight bands move with the text; other lines' bands fade.
 */
export function morphLinePairs(tokens: readonly MorphToken[]): [number, number][] {
  const shared = new Map<string, { pair: [number, number]; characters: number }>();
  const beforeSize = new Map<number, number>();
  const afterSize = new Map<number, number>();
  const add = (sizes: Map<number, number>, line: number, characters: number) =>
    sizes.set(line, (sizes.get(line) ?? 0) + characters);
  for (const { text, before, after } of tokens) {
    if (before) add(beforeSize, before.line, text.length);
    if (after) add(afterSize, after.line, text.length);
    if (!before || !after) continue;
    const key = `${before.line} ${after.line}`;
    const entry = shared.get(key) ?? { pair: [before.line, after.line], characters: 0 };
    entry.characters += text.length;
    shared.set(key, entry);
  }
  const pairs: [number, number][] = [];
  const usedBefore = new Set<number>();
  const usedAfter = new Set<number>();
  const candidates = [...shared.values()].sort(
    (a, b) => b.characters - a.characters || a.pair[0] - b.pair[0] || a.pair[1] - b.pair[1],
  );
  for (const { pair, characters } of candidates) {
    const [i, j] = pair;
    if (usedBefore.has(i) || usedAfter.has(j)) continue;
    if (2 * characters < beforeSize.get(i)! || 2 * characters < afterSize.get(j)!) continue;
    usedBefore.add(i);
    usedAfter.add(j);
    pairs.push(pair);
  }
  return pairs.sort((a, b) => a[0] - b[0]);
}

function diffMorphTokens(before: CodeLines, after: CodeLines): MorphToken[] {
  const from = keyedVersion(before, 'before');
  const to = keyedVersion(after, 'after');
  const synced = syncTokenKeys(from.keyed, to.keyed);
  const leaving = new Map<string, KeyedToken>();
  for (const token of synced.from.tokens) if (visible(token)) leaving.set(token.key, token);
  const pieces: MorphToken[] = [];
  for (const token of synced.to.tokens) {
    if (!visible(token)) continue;
    const partner = leaving.get(token.key);
    leaving.delete(token.key);
    pieces.push({
      text: token.content,
      before: partner && place(from, partner),
      after: place(to, token),
    });
  }
  for (const token of leaving.values()) {
    pieces.push({ text: token.content, before: place(from, token), after: undefined });
  }
  return pieces;
}

/** A line's visible tokens, whitespace trimmed off, where they start. */
function lineTokens(line: readonly CodeToken[], index: number): TokenPlace[] {
  const places: TokenPlace[] = [];
  let column = 0;
  for (const token of line) {
    const text = token.text.trim();
    if (text) {
      const leading = token.text.length - token.text.trimStart().length;
      places.push({ line: index, column: column + leading, token: { ...token, text } });
    }
    column += token.text.length;
  }
  return places;
}

/** The pairing for long versions: kept lines move whole where their tokens agree; the rest fade. */
function lineMorphTokens(before: CodeLines, after: CodeLines): MorphToken[] {
  const kept = new Map(matchLines(before.map(lineText), after.map(lineText)));
  const moved = new Set<number>();
  const pieces: MorphToken[] = [];
  before.forEach((line, i) => {
    const olds = lineTokens(line, i);
    const j = kept.get(i);
    const news = j === undefined ? [] : lineTokens(after[j]!, j);
    const same =
      news.length === olds.length && news.every((place, k) => place.token.text === olds[k]!.token.text);
    if (same) moved.add(j!);
    olds.forEach((place, k) => {
      pieces.push({ text: place.token.text, before: place, after: same ? news[k] : undefined });
    });
  });
  after.forEach((line, j) => {
    if (moved.has(j)) return;
    for (const place of lineTokens(line, j))
      pieces.push({ text: place.token.text, before: undefined, after: place });
  });
  return pieces;
}
