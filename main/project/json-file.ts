// Reading a JSON file a user wrote, with syntax errors reported at file:line:column.
import { readFile } from 'node:fs/promises';
import { KinoInputError } from './input-error.ts';

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

/**
 * The offset of the first syntax error in `text`, or -1 when it is valid JSON. V8's own messages
 * give a position for some errors and not others ("Unexpected token ']'"), so we find it ourselves.
 */
export function jsonSyntaxErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const skipSpace = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = (word: string) => {
    let matched = 0;
    while (matched < word.length && text[i + matched] === word[matched]) matched++;
    i += matched;
    if (matched < word.length) fail();
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      const code = text.charCodeAt(i);
      if (code < 0x20) fail();
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) fail();
      }
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match) fail();
    i += match![0].length;
  };
  const value = (): void => {
    skipSpace();
    const char = text[i];
    if (char === '{') {
      i++;
      skipSpace();
      if (text[i] === '}') return void i++;
      for (;;) {
        skipSpace();
        if (text[i] !== '"') fail();
        string();
        skipSpace();
        if (text[i] !== ':') fail();
        i++;
        value();
        skipSpace();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (char === '[') {
      i++;
      skipSpace();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        skipSpace();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
    if (char === '"') return string();
    if (char === 't') return literal('true');
    if (char === 'f') return literal('false');
    if (char === 'n') return literal('null');
    return number();
  };
  try {
    value();
    skipSpace();
    return i < text.length ? i : -1;
  } catch (offset) {
    return offset as number;
  }
}

export function parseJsonText(text: string, file: string): unknown {
  // Editors on Windows may save a byte-order mark, which JSON.parse rejects.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = jsonSyntaxErrorOffset(body);
    const { line, column } = lineAndColumn(body, offset < 0 ? body.length : offset);
    // V8 appends the position or quotes the whole document; the file:line:column says it better.
    const reason = message.replace(/ in JSON at position \d+.*$/, '').replace(/, (?:\.\.\.)?"[\s\S]*$/, '');
    throw new KinoInputError(`${file}:${line}:${column}: invalid JSON: ${reason}`, { cause: error });
  }
}

export async function readJsonFile(file: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'not found' : code === 'EISDIR' ? 'is a folder, not a file' : String(code);
    throw new KinoInputError(`${what} ${file}: ${reason}`, { cause: error });
  }
  return parseJsonText(text, file);
}
