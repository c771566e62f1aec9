// Studio shortcuts, whatever has the focus except a text field or the editor: Space play/pause,
// ←/→ frame step (Shift: ten), I/O in and out points, Alt+X clears them, J/K/L shuttle; Ctrl/Cmd+S
// save, Ctrl/Cmd+R render (the editor forwards its own Ctrl/Cmd+R as a kino:render event).
import { useEffect } from 'react';
import { useSource } from '../editor/source-store.ts';
import { useExport } from '../export/export-store.ts';
import { usePreview } from '../preview/preview-store.ts';
import { sourceBlockReason } from '../preview/source-health.ts';
import { useTimeline } from '../timeline/timeline-store.ts';
import { useLayout } from '../ui/layout-store.ts';

/** Inputs that take no typed text: a shortcut pressed on them is still a shortcut. */
const KEYLESS_INPUTS = ['range', 'checkbox', 'radio', 'button', 'submit', 'reset', 'color'];

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement) return !KEYLESS_INPUTS.includes(target.type);
  return (
    target.isContentEditable ||
    ['TEXTAREA', 'SELECT'].includes(target.tagName) ||
    target.closest('.monaco-editor') !== null
  );
}

/** Space on a focused button would click it too (on key up): play/pause must win, once. */
function isPressable(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement && target.closest('button, [role="button"], [role="tab"], input') !== null
  );
}

function startRender(): void {
  if (sourceBlockReason()) return; // the Render button says why it is off
  useLayout.getState().setTab('export');
  void useExport.getState().render();
}

/** The transport's keys; true when the key was one of them. */
function transportKey(event: KeyboardEvent): boolean {
  const preview = usePreview.getState();
  const timeline = useTimeline.getState();
  switch (event.key.toLowerCase()) {
    case ' ':
      preview.togglePlay();
      return true;
    case 'arrowleft':
      preview.step(event.shiftKey ? -10 : -1);
      return true;
    case 'arrowright':
      preview.step(event.shiftKey ? 10 : 1);
      return true;
    case 'i':
      timeline.markIn();
      return true;
    case 'o':
      timeline.markOut();
      return true;
    case 'j':
      timeline.shuttle('back');
      return true;
    case 'k':
      timeline.shuttle('pause');
      return true;
    case 'l':
      timeline.shuttle('forward');
      return true;
    default:
      return false;
  }
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
      if (mod || isTyping(event.target)) return;
      // By the key's place, not its character: Alt+X types "≈" on a Mac.
      if (event.altKey && event.code === 'KeyX') {
        event.preventDefault();
        useTimeline.getState().clearMarks();
        return;
      }
      if (event.altKey) return;
      if (transportKey(event)) event.preventDefault();
    };
    const onKeyUp = (event: KeyboardEvent) => {
      if (event.key === ' ' && !isTyping(event.target) && isPressable(event.target)) event.preventDefault();
    };
    const onRender = () => startRender();
    window.addEventListener('keydown', onKey);
    window.addEventListener('keyup', onKeyUp);
    window.addEventListener('kino:render', onRender);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('keyup', onKeyUp);
      window.removeEventListener('kino:render', onRender);
    };
  }, []);
}
