// Points an error thrown by the composition at the author's own lines. Chromium leaves error.stack in
// bundle coordinates (composition.js:21213:7); the bundle carries an inline source map, so its frames
// are translated here with a small decoder of the map's VLQ mappings.

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

interface RawSourceMap {
  sources: string[];
  sourceRoot?: string;
  mappings: string;
}

/** Per generated line: segments [generatedColumn, source, sourceLine, sourceColumn], all 0-based. */
type Segment = [number, number, number, number];

export interface SourceMapping {
  lookup(line: number, column: number): { source: string; line: number; column: number } | undefined;
}

function decodeVlq(text: string, start: number, out: number[]): number {
  let i = start;
  let value = 0;
  let shift = 0;
  for (;;) {
    const digit = BASE64.indexOf(text[i++]!);
    if (digit < 0) throw new Error('bad source map');
    value += (digit & 31) << shift;
    if ((digit & 32) === 0) break;
    shift += 5;
  }
  out.push(value & 1 ? -(value >>> 1) : value >>> 1);
  return i;
}

function decodeMappings(mappings: string): Segment[][] {
  const lines: Segment[][] = [];
  const state = [0, 0, 0, 0]; // source, line and column carry across lines; generated column does not
  for (const line of mappings.split(';')) {
    const segments: Segment[] = [];
    let column = 0;
    for (const text of line.split(',')) {
      if (!text) continue;
      const fields: number[] = [];
      for (let i = 0; i < text.length;) i = decodeVlq(text, i, fields);
      column += fields[0]!;
      if (fields.length < 4) continue; // a segment without a source
      state[1]! += fields[1]!;
      state[2]! += fields[2]!;
      state[3]! += fields[3]!;
      segments.push([column, state[1]!, state[2]!, state[3]!]);
    }
    lines.push(segments);
  }
  return lines;
}

export function parseSourceMap(map: RawSourceMap): SourceMapping {
  const lines = decodeMappings(map.mappings);
  const root = map.sourceRoot ? `${map.sourceRoot.replace(/\/?$/, '/')}` : '';
  const sources = map.sources.map((source) => (root && !source.startsWith('/') ? root + source : source));
  return {
    // 1-based line and column in, 1-based out, as stack traces and editors count.
    lookup(line, column) {
      const segments = lines[line - 1];
      if (!segments) return undefined;
      let found: Segment | undefined;
      for (const segment of segments) {
        if (segment[0] > column - 1) break;
        found = segment;
      }
      if (!found) return undefined;
      return { source: normalizePath(sources[found[1]] ?? '?'), line: found[2] + 1, column: found[3] + 1 };
    },
  };
}

/** "/a/b/../c" → "/a/c": the map's sources are relative to the bundle's folder. */
function normalizePath(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return parts.join('/');
}

export function inlineSourceMap(code: string): RawSourceMap | undefined {
  const match =
    /\/\/# sourceMappingURL=data:application\/json;(?:charset=utf-8;)?base64,([A-Za-z0-9+/=]+)\s*$/.exec(
      code,
    );
  if (!match) return undefined;
  const bytes = Uint8Array.from(atob(match[1]!), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes)) as RawSourceMap;
}

const maps = new Map<string, Promise<SourceMapping | undefined>>();

function mappingFor(url: string): Promise<SourceMapping | undefined> {
  let found = maps.get(url);
  if (!found) {
    found = fetch(url)
      .then((response) => (response.ok ? response.text() : ''))
      .then((code) => {
        const map = inlineSourceMap(code);
        return map ? parseSourceMap(map) : undefined;
      })
      .catch(() => undefined);
    maps.set(url, found);
  }
  return found;
}

const BUNDLE_FRAME = /(https?:\/\/[^\s()]+\/composition\.js\?[^\s():]*):(\d+):(\d+)/g;

/** `stack` with every frame in a composition bundle replaced by its place in the source. */
export async function mapStack(stack: string): Promise<string> {
  const urls = new Set([...stack.matchAll(BUNDLE_FRAME)].map((match) => match[1]!));
  const mappings = new Map<string, SourceMapping | undefined>();
  for (const url of urls) mappings.set(url, await mappingFor(url));
  return stack.replace(BUNDLE_FRAME, (whole, url: string, line: string, column: string) => {
    const place = mappings.get(url)?.lookup(Number(line), Number(column));
    return place ? `${place.source}:${place.line}:${place.column}` : whole;
  });
}

/** The text to show for something the composition threw: its stack, mapped to the source. */
export async function describeThrown(error: unknown): Promise<string> {
  if (!(error instanceof Error)) return String(error);
  const stack = error.stack ?? '';
  // Chromium's stack starts with "Name: message"; keep the message where it does not.
  const text = stack.includes(error.message) ? stack : `${error.name}: ${error.message}\n${stack}`;
  return mapStack(text);
}

/** One "at …" line of a stack, after mapping: a source path when mapped, else the URL it ran from. */
export interface StackFrame {
  name: string | undefined;
  file: string;
  line: number;
  column: number;
}

export interface ThrownError {
  /** "Error: boom", and any lines before the first frame. */
  message: string;
  frames: StackFrame[];
}

// "    at name (file:1:2)", "    at async name (file:1:2)", "    at file:1:2"
const FRAME_LINE = /^\s*at (?:async )?(?:(.*?) \((.+):(\d+):(\d+)\)|(.+):(\d+):(\d+))$/;

/** Splits a (mapped) stack into its message and the frames a UI can point at. */
export function parseStack(text: string): ThrownError {
  const message: string[] = [];
  const frames: StackFrame[] = [];
  for (const line of text.split('\n')) {
    const match = FRAME_LINE.exec(line);
    if (!match) {
      // Lines that are not frames ("at <anonymous>", native frames) belong to the message until the
      // first frame; after it they carry nothing to point at.
      if (frames.length === 0 && !/^\s*at /.test(line)) message.push(line);
      continue;
    }
    const [, name, file, line1, column1, bareFile, bareLine, bareColumn] = match;
    frames.push({
      name: name || undefined,
      file: (file ?? bareFile)!,
      line: Number(line1 ?? bareLine),
      column: Number(column1 ?? bareColumn),
    });
  }
  return { message: message.join('\n').trim(), frames };
}

/** describeThrown, split into the message and its frames. */
export async function describeThrownFrames(error: unknown): Promise<ThrownError> {
  return parseStack(await describeThrown(error));
}
