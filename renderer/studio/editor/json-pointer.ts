// Where a JSON pointer (RFC 6901, as the workspace and the API name a spec's issues:
// `/scenes/0/elements/2/size`) is written in a JSON text, as a Monaco range: a scalar's value, or the
// key (an array item's first character) of an object or array, so a marker stays on one line. A
// pointer to something not written (a required field left out) lands on the nearest thing that is.
// A small scanner of its own: it reads only as far as it must, and tolerates text after an error.

export interface SourceRange {
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
}

/** Offsets into the text: [start, end). */
interface Span {
  start: number;
  end: number;
}

class PointerScanner {
  #at = 0;
  readonly #text: string;
  readonly #target: string[];
  /** The deepest node found on the way to the target: its depth and where to mark it. */
  best: { depth: number; span: Span } | undefined;

  constructor(text: string, target: string[]) {
    this.#text = text;
    this.#target = target;
  }

  /** Scans the value at the cursor; `depth` is how many of the target's steps lead here. */
  value(depth: number, key: Span | undefined): void {
    this.#space();
    const start = this.#at;
    const char = this.#text[start];
    const container = char === '{' || char === '[';
    // A container is marked at its key (or its bracket): the whole of it would span many lines.
    const mark = container ? (key ?? { start, end: start + 1 }) : undefined;
    if (mark) this.#offer(depth, mark);
    if (char === '{') this.#object(depth);
    else if (char === '[') this.#array(depth);
    else if (char === '"') this.#string();
    else this.#scalar();
    if (!container) this.#offer(depth, { start, end: Math.max(this.#at, start + 1) });
  }

  /** A node on the path at least as deep as the best so far replaces it (a value after its key). */
  #offer(depth: number, span: Span): void {
    if (depth >= 0 && (!this.best || depth >= this.best.depth)) this.best = { depth, span };
  }

  /** Whether the step below `depth` is `name` (only on the target's own path). */
  #onPath(depth: number, name: string): boolean {
    return this.best?.depth === depth && this.#target[depth] === name;
  }

  #object(depth: number): void {
    this.#at += 1;
    for (;;) {
      this.#space();
      const char = this.#text[this.#at];
      if (char === undefined) return;
      if (char === '}') {
        this.#at += 1;
        return;
      }
      if (char === ',') {
        this.#at += 1;
        continue;
      }
      if (char !== '"') {
        this.#at += 1; // not JSON: step over it rather than stop
        continue;
      }
      const keyStart = this.#at;
      const name = this.#string();
      const key = { start: keyStart, end: this.#at };
      this.#space();
      if (this.#text[this.#at] === ':') this.#at += 1;
      const follows = this.#onPath(depth, name);
      this.value(follows ? depth + 1 : -1, key);
    }
  }

  #array(depth: number): void {
    this.#at += 1;
    let index = 0;
    for (;;) {
      this.#space();
      const char = this.#text[this.#at];
      if (char === undefined) return;
      if (char === ']') {
        this.#at += 1;
        return;
      }
      if (char === ',') {
        this.#at += 1;
        index += 1;
        continue;
      }
      const follows = this.#onPath(depth, String(index));
      this.value(follows ? depth + 1 : -1, undefined);
    }
  }

  /** Reads a string at the cursor (on its opening quote) and gives its value. */
  #string(): string {
    const text = this.#text;
    let value = '';
    this.#at += 1;
    while (this.#at < text.length) {
      const char = text[this.#at]!;
      this.#at += 1;
      if (char === '"') return value;
      if (char === '\n') return value; // unterminated: stop at the line's end
      if (char !== '\\') {
        value += char;
        continue;
      }
      const escaped = text[this.#at] ?? '';
      this.#at += 1;
      if (escaped === 'u') {
        value += String.fromCharCode(Number.parseInt(text.slice(this.#at, this.#at + 4), 16) || 0);
        this.#at += 4;
      } else {
        value += { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' }[escaped] ?? escaped;
      }
    }
    return value;
  }

  #scalar(): void {
    const rest = /^[^\s,\]}]*/.exec(this.#text.slice(this.#at, this.#at + 200))?.[0] ?? '';
    this.#at += Math.max(1, rest.length);
  }

  #space(): void {
    while (/\s/.test(this.#text[this.#at] ?? '')) this.#at += 1;
  }
}

/** The steps of a JSON pointer ("" is the whole document), unescaped. */
export function pointerSteps(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer
    .replace(/^\//, '')
    .split('/')
    .map((step) => step.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (
    let index = text.indexOf('\n');
    index !== -1 && index < offset;
    index = text.indexOf('\n', index + 1)
  ) {
    line += 1;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Where `pointer` is written in the JSON `text`, as offsets: its value (its key, for an object or an
 * array), else the nearest enclosing thing that is written (an error's place), or undefined with
 * `exact` (a thing to select or change must be the one written); undefined for a text with no value.
 */
export function sourceSpanOfPointer(
  text: string,
  pointer: string,
  options: { exact?: boolean } = {},
): { start: number; end: number } | undefined {
  if (text.trim() === '') return undefined;
  const steps = pointerSteps(pointer);
  const scanner = new PointerScanner(text, steps);
  scanner.value(0, undefined);
  const best = scanner.best;
  if (!best || (options.exact && best.depth < steps.length)) return undefined;
  return best.span;
}

/** sourceSpanOfPointer as a Monaco range. */
export function sourceRangeOfPointer(
  text: string,
  pointer: string,
  options: { exact?: boolean } = {},
): SourceRange | undefined {
  const span = sourceSpanOfPointer(text, pointer, options);
  if (!span) return undefined;
  const start = position(text, span.start);
  const end = position(text, span.end);
  return {
    startLineNumber: start.line,
    startColumn: start.column,
    endLineNumber: end.line,
    endColumn: end.column,
  };
}
