// Plays an exported file in the Export pane: the very file the receipt describes, served by the
// workspace (shared/studio/export-url.ts) rather than opened as file://, which a page may not read.
import type { ReactElement } from 'react';
import { EXPORT_FILE_NAME, exportUrlPath } from '../../../shared/studio/export-url.ts';
import { useSession } from '../session/session-store.ts';
import { baseName } from '../ui/format.ts';

/** The URL the workspace serves `file` at, when it is one of its renders a browser can show. */
function exportUrl(file: string, resultsDir: string, previewKey: string): string | undefined {
  const name = baseName(file);
  const folder = file.slice(0, file.length - name.length).replace(/[\\/]$/, '');
  const renders = `${resultsDir.replace(/[\\/]$/, '')}/renders`;
  if (folder.replace(/\\/g, '/') !== renders.replace(/\\/g, '/') || !EXPORT_FILE_NAME.test(name)) {
    return undefined;
  }
  return exportUrlPath(previewKey, name);
}

export function ExportPlayer({ file }: { file: string }): ReactElement | null {
  const resultsDir = useSession((s) => s.info?.resultsDir);
  const previewKey = useSession((s) => s.info?.previewKey);
  if (!resultsDir || !previewKey) return null;
  const url = exportUrl(file, resultsDir, previewKey);
  if (!url) return null;
  if (file.endsWith('.gif')) {
    return <img className="export-player" src={url} alt="The exported GIF" data-testid="export-image" />;
  }
  // ProRes (.mov) is not something Chromium decodes: the receipt and Reveal in folder still serve it.
  if (file.endsWith('.mov')) return null;
  return (
    <video
      className="export-player"
      src={url}
      controls
      preload="metadata"
      aria-label="The exported video"
      data-testid="export-video"
    />
  );
}
