// Studio shortcuts: Space play/pause and ←/→ frame step (not while typing), Ctrl/Cmd+S save,
// Ctrl/Cmd+R render (the editor forwards its own Ctrl/Cmd+R as a kino:render event).
import { useEffect } from 'react';
import { useSource } from '../editor/source-store.ts';
import { useExport } from '../export/export-store.ts';
import { usePreview } from '../preview/preview-store.ts';
import { sourceBlockReason } from '../preview/source-health.ts';
import { useLayout } from '../ui/layout-store.ts';

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    target.closest('.monaco-editor') !== null
  );
}

function startRender(): void {
  if (sourceBlockReason()) return; // the Render button says why it is off
  useLayout.getState().setTab('export');
  void useExport.getState().render();
}

export function useStudioKeyboard(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const mod = event.ctrlKey || event.metaKey;
      if (mod && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void useSource.getState().save();
        return;
      }
      if (mod && event.key.toLowerCase() === 'r') {
        event.preventDefault(); // not a page reload: a render
        startRender();
        return;
      }
      if (mod || event.altKey || isTyping(event.target)) return;
      const preview = usePreview.getState();
      if (event.key === ' ') {
        event.preventDefault();
        preview.togglePlay();
      } else if (event.key === 'ArrowLeft') {
        event.preventDefault();
        preview.step(event.shiftKey ? -10 : -1);
      } else if (event.key === 'ArrowRight') {
        event.preventDefault();
        preview.step(event.shiftKey ? 10 : 1);
      }
    };
    const onRender = () => startRender();
    window.addEventListener('keydown', onKey);
    window.addEventListener('kino:render', onRender);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('kino:render', onRender);
    };
  }, []);
}
