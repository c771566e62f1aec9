// The colours of errors shown over the preview. The frame under them can be any colour, so they sit
// on an opaque panel, and error-contrast.test.ts holds every text colour to WCAG AA (4.5:1) against
// it. Kept here rather than in theme.css so that test reads the very values the page uses.
export const ERROR_PANEL_COLORS = {
  '--err-panel-bg': '#2b1217',
  '--err-panel-border': '#ff5c6c',
  '--err-panel-title': '#ffffff',
  '--err-panel-text': '#ffe1e5',
  '--err-panel-muted': '#d6a3ab',
  '--err-panel-link': '#ffd77a',
} as const;

/** Declares the colours as CSS custom properties on `root` (the document, once at start). */
export function applyErrorPanelColors(root: HTMLElement): void {
  for (const [name, value] of Object.entries(ERROR_PANEL_COLORS)) root.style.setProperty(name, value);
}
