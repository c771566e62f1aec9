// Where a JSON pointer ("/scenes/0/elements/2") is written in a JSON text: the range of its value,
// for the editor to reveal (a spec error's pointer, a timeline bar's element). A small scanner rather
// than JSON.parse, which keeps no positions; it gives up (undefined) on text that is not JSON.

export interface SourceRange {
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
}

class Scanner {
  index = 0;
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  skipSpace(): void {
    while (this.index < this.text.length && /\s/.test(this.text[this.index]!)) this.index++;
  }

  expect(char: string): void {
    this.skipSpace();
    if (this.text[this.index] !== char) throw new SyntaxError(`expected ${char} at ${this.index}`);
    this.index++;
  }

  string(): string {
    this.skipSpace();
    const start = this.index;
    if (this.text[start] !== '"') throw new SyntaxError(`expected a string at ${start}`);
    let end = start + 1;
    while (end < this.text.length && this.text[end] !== '"') end += this.text[end] === '\\' ? 2 : 1;
    if (end >= this.text.length) throw new SyntaxError('unterminated string');
    this.index = end + 1;
    return JSON.parse(this.text.slice(start, end + 1)) as string;
  }

  /** Skips one value; following `path` (undefined: not on it), returns the [start, end) of the value it leads to. */
  value(path: readonly string[] | undefined): [number, number] | undefined {
    this.skipSpace();
    const start = this.index;
    const head = this.text[start];
    let found: [number, number] | undefined;
    if (head === '{') {
      this.index++;
      this.skipSpace();
      if (this.text[this.index] === '}') this.index++;
      else
        for (;;) {
          const key = this.string();
          this.expect(':');
          const inner = this.value(path?.[0] === key ? path.slice(1) : undefined);
          found ??= inner;
          this.skipSpace();
          const next = this.text[this.index++];
          if (next === '}') break;
          if (next !== ',') throw new SyntaxError(`expected , or } at ${this.index - 1}`);
        }
    } else if (head === '[') {
      this.index++;
      this.skipSpace();
      if (this.text[this.index] === ']') this.index++;
      else
        for (let item = 0; ; item++) {
          const inner = this.value(path?.[0] === String(item) ? path.slice(1) : undefined);
          found ??= inner;
          this.skipSpace();
          const next = this.text[this.index++];
          if (next === ']') break;
          if (next !== ',') throw new SyntaxError(`expected , or ] at ${this.index - 1}`);
        }
    } else if (head === '"') {
      this.string();
    } else {
      const literal = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.text.slice(start));
      if (!literal) throw new SyntaxError(`unexpected character at ${start}`);
      this.index += literal[0].length;
    }
    if (path?.length === 0) return [start, this.index];
    return found;
  }
}

function tokens(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** The range (1-based lines and columns, end exclusive) of the value `pointer` names in `text`. */
export function sourceRangeOfPointer(text: string, pointer: string): SourceRange | undefined {
  const path = tokens(pointer);
  if (!path) return undefined;
  let span: [number, number] | undefined;
  try {
    span = new Scanner(text).value(path);
  } catch {
    return undefined;
  }
  if (!span) return undefined;
  const start = position(text, span[0]);
  const end = position(text, span[1]);
  return {
    startLineNumber: start.line,
    startColumn: start.column,
    endLineNumber: end.line,
    endColumn: end.column,
  };
}
