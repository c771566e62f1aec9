// Which frames of a thrown error's stack a person reads: the author's own files (the open one links
// to its line), and Kino's (the studio's bundle, the builder, packages) folded into one line, since
// their minified names and lines say nothing about what to fix.
import type { StackFrame } from '../../player/stack-map.ts';

export type StackEntry =
  { kind: 'source'; frame: StackFrame; label: string; open: boolean } | { kind: 'kino'; count: number };

/** Frames in the project's own files, not a package: what the author wrote. */
function authorFile(file: string, projectRoot: string): boolean {
  const root = projectRoot.replace(/[\\/]$/, '');
  return (
    (file.startsWith(`${root}/`) || file.startsWith(`${root}\\`)) && !/[\\/]node_modules[\\/]/.test(file)
  );
}

/** The stack as shown: author frames with a project-relative place, runs of other frames folded. */
export function stackEntries(
  frames: readonly StackFrame[],
  source: string,
  projectRoot: string,
): StackEntry[] {
  const entries: StackEntry[] = [];
  const root = projectRoot.replace(/[\\/]$/, '');
  for (const frame of frames) {
    if (authorFile(frame.file, root)) {
      const place = `${frame.file.slice(root.length + 1)}:${frame.line}:${frame.column}`;
      entries.push({
        kind: 'source',
        frame,
        label: frame.name ? `${frame.name} (${place})` : place,
        open: frame.file === source,
      });
      continue;
    }
    const last = entries.at(-1);
    if (last?.kind === 'kino') last.count++;
    else entries.push({ kind: 'kino', count: 1 });
  }
  return entries;
}
