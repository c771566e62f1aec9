// How Kino writes a size for a person, the same in the CLI, the session CLI and the studio.

/** Binary units (KiB, MiB), one or two decimals. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
}
