// One bridge for the UI: the desktop preload's (window.kinoDesktop) when there is one, else HTTP.
import type { StudioBridge } from '../../../shared/studio/bridge.ts';
import { createBrowserBridge } from './browser-bridge.ts';

declare global {
  interface Window {
    kinoDesktop?: StudioBridge;
  }
}

export function resolveBridge(): StudioBridge {
  return window.kinoDesktop ?? createBrowserBridge();
}

/** The path of a file dropped on the window: only the desktop app can know it. */
export function pathOfDroppedFile(file: File): string | undefined {
  return window.kinoDesktop?.pathForFile?.(file) || undefined;
}
