// Messages a remote caller reads (a job's error over the API, a tool error over MCP) are written
// for a person at the server and name its folders: the render project, the data dir, the media
// cache. A remote caller learns none of them: each is replaced by a name, so the message still
// says which file was missing, relative to a place the caller can name.

/** An absolute server path and the name a remote caller sees instead. */
export interface HiddenPath {
  path: string;
  as: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `message` with each hidden path (and anything under it) named instead; longest paths first. */
export function hidePaths(message: string, hidden: readonly HiddenPath[] | undefined): string {
  let shown = message;
  const byLength = [...(hidden ?? [])]
    .filter(({ path }) => path.length > 1)
    .sort((a, b) => b.path.length - a.path.length);
  for (const { path, as } of byLength) {
    // Whole path components only: hiding /tmp must leave /tmpfiles alone.
    const pattern = new RegExp(`${escapeRegExp(path.replace(/\/+$/, ''))}(?![\\p{L}\\p{N}_-])`, 'gu');
    shown = shown.replace(pattern, as);
  }
  return shown;
}

/** `value` with hidePaths applied to every string in it (a review's findings, an authoring record). */
export function hidePathsDeep<T>(value: T, hidden: readonly HiddenPath[] | undefined): T {
  if (typeof value === 'string') return hidePaths(value, hidden) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => hidePathsDeep(item, hidden)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, hidePathsDeep(inner, hidden)]),
    ) as T;
  }
  return value;
}
