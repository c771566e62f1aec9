// Where the studio serves an exported file for its player: /studio/exports/<preview key>/<file name>.
// A <video> cannot send the token header, so the path carries the preview key (as the live preview's
// routes do); the server answers only for files in the workspace's renders folder.
export const EXPORTS_PREFIX = '/studio/exports/';

/** The file names the route serves: a render's own name, no folders or dotfiles, a playable format. */
export const EXPORT_FILE_NAME = /^\w[\w.-]{0,250}\.(mp4|webm|mov|gif)$/;

export function exportUrlPath(previewKey: string, fileName: string): string {
  return `${EXPORTS_PREFIX}${previewKey}/${encodeURIComponent(fileName)}`;
}
