// Highlighted code for Node renders, kept on disk. Shiki's first highlight compiles its grammar's
// regexes (≈0.4 s for TypeScript), which every cold `kino frame` or render of the same code would
// pay again; the tokens of a text in a theme never change for one shiki version, so they are cached
// by that key and shiki is loaded only for texts not seen before.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { loadCodeHighlighter } from '../../shared/code/highlighter.ts';
import type { CodeHighlighter, HighlightedCode } from '../../shared/canvas/types.ts';
import { codeTextKey, codeTexts } from '../../shared/elements/code/code-texts.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import { writeFileAtomically } from '../fs/atomic-write.ts';

const SHIKI_VERSION = (createRequire(import.meta.url)('shiki/package.json') as { version: string }).version;

export function codeTokensCacheDir(): string {
  return process.env.KINO_CACHE_DIR
    ? join(process.env.KINO_CACHE_DIR, 'code-tokens')
    : join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kino', 'code-tokens');
}

function cacheFile(dir: string, key: string): string {
  const digest = createHash('sha256').update(`shiki ${SHIKI_VERSION}\u0000${key}`).digest('hex');
  return join(dir, digest.slice(0, 2), `${digest}.json`);
}

function isHighlighted(value: unknown): value is HighlightedCode {
  const candidate = value as Partial<HighlightedCode> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    Array.isArray(candidate.lines) &&
    typeof candidate.foreground === 'string' &&
    typeof candidate.background === 'string' &&
    typeof candidate.dark === 'boolean'
  );
}

async function readCached(file: string): Promise<HighlightedCode | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(file, 'utf8'));
    return isHighlighted(value) ? value : undefined;
  } catch {
    return undefined; // missing or unreadable: highlight it again
  }
}

/**
 * The highlighter a video needs, with every text it draws highlighted ahead: from the cache where
 * it can be, else by shiki (then written to the cache). Undefined when the video has no code.
 */
export async function prepareCodeHighlighter(
  model: VideoModel,
  dir = codeTokensCacheDir(),
): Promise<CodeHighlighter | undefined> {
  const texts = codeTexts(model);
  if (texts.length === 0) return undefined;
  const known = new Map<string, HighlightedCode>();
  const misses = [];
  for (const text of texts) {
    const key = codeTextKey(text.code, text.language, text.theme);
    const cached = await readCached(cacheFile(dir, key));
    if (cached) known.set(key, cached);
    else misses.push({ ...text, key });
  }
  let shiki: CodeHighlighter | undefined;
  if (misses.length > 0) {
    shiki = await loadCodeHighlighter(misses);
    for (const miss of misses) {
      const highlighted = shiki?.highlight(miss.code, miss.language, miss.theme);
      if (!highlighted) continue;
      known.set(miss.key, highlighted);
      // A cache that cannot be written (read-only home, full disk) only costs the next run time.
      await writeFileAtomically(cacheFile(dir, miss.key), JSON.stringify(highlighted), {
        createDirMode: 0o700,
      }).catch(() => undefined);
    }
  }
  return {
    highlight(code, language, theme) {
      return known.get(codeTextKey(code, language, theme)) ?? shiki?.highlight(code, language, theme);
    },
  };
}
