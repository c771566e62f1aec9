// The preview page: a canvas, the controls and an error overlay. The script (renderer/player) does
// the rest; the page only carries its configuration as inert JSON.
import { CONFIG_ELEMENT_ID, PREVIEW_ROUTES } from '../../shared/protocol/preview.ts';
import type { PreviewConfig } from '../../shared/protocol/preview.ts';
import { shikiImportMap } from './shiki-modules.ts';

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** JSON inside <script>: escape "<" so a string like "</script>" cannot close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

const STYLE = `
  :root { color-scheme: dark; font: 14px/1.4 system-ui, sans-serif; }
  * { box-sizing: border-box; }
  html, body { margin: 0; height: 100%; background: #111318; color: #e5e7eb; }
  body { display: flex; flex-direction: column; }
  #stage { position: relative; flex: 1; min-height: 0; padding: 12px; }
  #canvas { display: block; width: 100%; height: 100%; object-fit: contain; }
  #controls { display: flex; align-items: center; gap: 12px; padding: 8px 12px; background: #1b1e26; }
  #play-pause, #mute { min-width: 5.5em; padding: 4px 10px; font: inherit; cursor: pointer; }
  #scrubber { flex: 1; }
  #frame-counter, #time { font-variant-numeric: tabular-nums; white-space: nowrap; }
  #status { color: #fbbf24; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 30%; }
  #error-overlay { position: absolute; inset: 12px; overflow: auto; padding: 16px 20px; background: #28080c;
    border: 1px solid #f87171; border-radius: 6px; font: 13px/1.5 ui-monospace, monospace; white-space: pre-wrap; }
  #error-overlay[hidden] { display: none; }
  #error-overlay h2 { margin: 0 0 12px; font: 600 15px system-ui, sans-serif; color: #fca5a5; }
  #error-overlay .place { color: #fde68a; }
`;

export function previewPageHtml(config: PreviewConfig): string {
  const title = `Kino preview: ${config.file}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${PREVIEW_ROUTES.fontsCss.slice(1)}">
<style>${STYLE}</style>
</head>
<body data-status="loading">
<div id="stage">
  <canvas id="canvas" width="1080" height="1920" aria-label="composition preview"></canvas>
  <div id="error-overlay" role="alert" hidden></div>
</div>
<div id="controls">
  <button id="play-pause" type="button" title="Play or pause (space)">Play</button>
  <input id="scrubber" type="range" min="0" max="0" step="1" value="0" aria-label="frame">
  <span id="frame-counter">0 / 0</span>
  <span id="time">0.00s / 0.00s</span>
  <button id="mute" type="button" aria-pressed="true" title="Sound (muted until you unmute it)">Unmute</button>
  <span id="status"></span>
</div>
<script type="importmap">${scriptJson({ imports: shikiImportMap(PREVIEW_ROUTES.shikiLangs, PREVIEW_ROUTES.shikiThemes) })}</script>
<script type="application/json" id="${CONFIG_ELEMENT_ID}">${scriptJson(config)}</script>
<script type="module" src="${PREVIEW_ROUTES.script.slice(1)}"></script>
</body>
</html>
`;
}
