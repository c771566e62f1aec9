// How a text counts its words and characters. The spec addresses words by index (highlight,
// wordByWord) and types characters one by one (typewriter), so the counting is part of the contract:
// layout, timeline and review all count with these.

const WORD_SEPARATORS = /[ \t]+/;

const graphemeSegmenter =
  typeof Intl !== 'undefined' && 'Segmenter' in Intl
    ? new Intl.Segmenter(undefined, { granularity: 'grapheme' })
    : undefined;

/** Splits text into user-perceived characters, so nothing ever splits an emoji or an accent. */
export function graphemes(text: string): string[] {
  return graphemeSegmenter ? Array.from(graphemeSegmenter.segment(text), (s) => s.segment) : Array.from(text);
}

/** The words of each paragraph ("\n" separates paragraphs), in order. */
export function paragraphWords(text: string): string[][] {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((paragraph) => paragraph.split(WORD_SEPARATORS).filter(Boolean));
}

/** How many words a text has (word indices run 0 .. count - 1). */
export function countWords(text: string): number {
  return paragraphWords(text).reduce((sum, words) => sum + words.length, 0);
}

/** The characters a typewriter types: every character but spaces and line breaks. */
export function countTypedCharacters(text: string): number {
  return paragraphWords(text).reduce(
    (sum, words) => sum + words.reduce((count, word) => count + graphemes(word).length, 0),
    0,
  );
}
