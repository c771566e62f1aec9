// Lays out a small tree of JavaScript expressions (literals, objects, arrays, calls, method chains)
// within a line width, the way prettier would: flat when it fits, otherwise one item per line, with a
// trailing object or array argument hugged by its call: `scene({ duration: '2s' }, [` ... `])`.

export type Code =
  | { kind: 'raw'; text: string }
  | { kind: 'object'; entries: (readonly [key: string, value: Code])[] }
  | { kind: 'array'; items: Code[] }
  | { kind: 'call'; callee: string; args: Code[] }
  | { kind: 'chain'; base: Code; calls: { name: string; args: Code[] }[] };

export const raw = (text: string): Code => ({ kind: 'raw', text });
export const objectCode = (entries: (readonly [string, Code])[]): Code => ({ kind: 'object', entries });
export const arrayCode = (items: Code[]): Code => ({ kind: 'array', items });
export const callCode = (callee: string, args: Code[]): Code => ({ kind: 'call', callee, args });
export const chainCode = (base: Code, calls: { name: string; args: Code[] }[]): Code =>
  calls.length === 0 ? base : { kind: 'chain', base, calls };

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A string literal in single quotes, escaped so it reads back as the same string. */
export function quote(value: string): string {
  let out = "'";
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (char === "'" || char === '\\') out += '\\' + char;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029) {
      out += '\\u' + code.toString(16).padStart(4, '0');
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += '\\u' + code.toString(16); // a lone surrogate: keep it, escaped, so the file stays valid UTF-8
    } else out += char;
  }
  return out + "'";
}

export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : quote(name);
}

export function numberLiteral(value: number): string {
  if (Object.is(value, -0)) return '-0';
  return String(value);
}

/** Code standing in a value's place, printed as it is (a template's `v.name`). */
export class Verbatim {
  readonly code: Code;

  constructor(code: Code) {
    this.code = code;
  }
}

/** A JavaScript template literal: `text` with each `${expression}` part kept as written. */
export function templateLiteral(parts: readonly (string | { expression: string })[]): string {
  const text = parts
    .map((part) =>
      typeof part === 'string'
        ? quote(part).slice(1, -1).replace(/\\'/g, "'").replace(/`/g, '\\`').replace(/\$\{/g, '\\${')
        : `\${${part.expression}}`,
    )
    .join('');
  return `\`${text}\``;
}

/** A JSON-like value (strings, numbers, booleans, null, arrays, plain objects) as code. */
export function valueCode(value: unknown): Code {
  if (value instanceof Verbatim) return value.code;
  if (typeof value === 'string') return raw(quote(value));
  if (typeof value === 'number') return raw(numberLiteral(value));
  if (typeof value === 'boolean' || value === null) return raw(String(value));
  if (Array.isArray(value)) return arrayCode(value.map(valueCode));
  if (typeof value === 'object') {
    return objectCode(
      Object.entries(value as Record<string, unknown>)
        .filter(([, field]) => field !== undefined)
        .map(([key, field]) => [propertyKey(key), valueCode(field)] as const),
    );
  }
  throw new TypeError(`cannot print ${typeof value} as spec data`);
}

function flatArgs(args: Code[]): string {
  return args.map(flat).join(', ');
}

export function flat(code: Code): string {
  switch (code.kind) {
    case 'raw':
      return code.text;
    case 'object':
      return code.entries.length === 0
        ? '{}'
        : `{ ${code.entries.map(([k, v]) => `${k}: ${flat(v)}`).join(', ')} }`;
    case 'array':
      return `[${code.items.map(flat).join(', ')}]`;
    case 'call':
      return `${code.callee}(${flatArgs(code.args)})`;
    case 'chain':
      return flat(code.base) + code.calls.map((c) => `.${c.name}(${flatArgs(c.args)})`).join('');
  }
}

export class SourceLayout {
  readonly width: number;

  constructor(width = 100) {
    this.width = width;
  }

  /**
   * Prints `code` starting at `column` (the text before it on its line is already written). Lines
   * after the first start with `indent` spaces; `trail` characters will follow the last line.
   */
  print(code: Code, indent: number, column: number, trail: number): string {
    const single = flat(code);
    if (column + single.length + trail <= this.width || code.kind === 'raw') return single;
    switch (code.kind) {
      case 'object':
        return this.#list('{', '}', code.entries, indent);
      case 'array':
        return this.#list(
          '[',
          ']',
          code.items.map((item) => ['', item] as const),
          indent,
        );
      case 'call':
        return this.#call(code.callee, code.args, indent, column);
      case 'chain':
        return this.#chain(code, indent, column, trail);
    }
  }

  #list(open: string, close: string, entries: readonly (readonly [string, Code])[], indent: number): string {
    if (entries.length === 0) return open + close;
    const inner = indent + 2;
    const lines = entries.map(([key, value]) => {
      const prefix = key === '' ? '' : `${key}: `;
      return `\n${' '.repeat(inner)}${prefix}${this.print(value, inner, inner + prefix.length, 1)},`;
    });
    return `${open}${lines.join('')}\n${' '.repeat(indent)}${close}`;
  }

  #call(callee: string, args: Code[], indent: number, column: number): string {
    const last = args.at(-1);
    const before = args.slice(0, -1);
    const huggable =
      last !== undefined &&
      (last.kind === 'object' || last.kind === 'array') &&
      (last.kind === 'object' ? last.entries.length : last.items.length) > 0 &&
      before.at(-1)?.kind !== last.kind;
    if (huggable) {
      const head = `${callee}(${before.map((a) => flat(a) + ', ').join('')}`;
      if (column + head.length + 1 <= this.width) {
        const [open, close] = last.kind === 'object' ? ['{', '}'] : ['[', ']'];
        const entries = last.kind === 'object' ? last.entries : last.items.map((item) => ['', item] as const);
        return `${head}${this.#list(open, close, entries, indent)})`;
      }
    }
    if (args.length === 0) return `${callee}()`;
    return this.#list(
      `${callee}(`,
      ')',
      args.map((arg) => ['', arg] as const),
      indent,
    );
  }

  #chain(code: Extract<Code, { kind: 'chain' }>, indent: number, column: number, trail: number): string {
    const base = flat(code.base);
    // Each method call on its own line under the element: easy to scan and to edit.
    if (column + base.length <= this.width) return base + this.#indentedCalls(code.calls, indent, trail);
    const broken = this.print(code.base, indent, column, 0);
    // Several calls after a broken element go one per line below its closing bracket, like prettier.
    if (code.calls.length > 1) return broken + this.#indentedCalls(code.calls, indent, trail);
    const [call] = code.calls as [{ name: string; args: Code[] }];
    const lastLine = broken.slice(broken.lastIndexOf('\n') + 1);
    return `${broken}.${this.print(callCode(call.name, call.args), indent, lastLine.length + 1, trail)}`;
  }

  #indentedCalls(calls: { name: string; args: Code[] }[], indent: number, trail: number): string {
    const inner = indent + 2;
    return calls
      .map((call, i) => {
        const callTrail = i === calls.length - 1 ? trail : 0;
        return `\n${' '.repeat(inner)}.${this.print(callCode(call.name, call.args), inner, inner + 1, callTrail)}`;
      })
      .join('');
  }
}
