// The composition's source as the editor holds it: the text, what is on disk (its sha256, to refuse
// overwriting someone else's save), and where the editor should jump (a compile error's line).
import { create } from 'zustand';
import { describeError, useSession, workspaceClient } from '../session/session-store.ts';
import { WorkspaceProblem } from '../session/workspace-client.ts';
import type { SourceRange } from './json-pointer.ts';

export interface JumpTarget {
  line: number;
  column: number;
  /** Selected up to here (a timeline row's element); else only the cursor moves. */
  end?: { line: number; column: number };
  /** Whether the editor takes the keyboard (a compile error: yes; a timeline click: no). */
  focus: boolean;
  /** Changes on every request, so jumping to the same line twice still moves the editor. */
  nonce: number;
}

interface SourceState {
  loaded: boolean;
  text: string;
  savedText: string;
  savedSha256: string | undefined;
  saving: boolean;
  error: string | undefined;
  /** The file changed on disk since it was loaded, and the editor has unsaved edits. */
  conflict: boolean;
  jump: JumpTarget | undefined;
  load(): Promise<void>;
  edit(text: string): void;
  save(options?: { overwrite?: boolean }): Promise<boolean>;
  jumpTo(line: number, column?: number): void;
  /** Selects and shows a range, leaving the keyboard where it is. */
  reveal(range: SourceRange): void;
}

export const useSource = create<SourceState>((set, get) => ({
  loaded: false,
  text: '',
  savedText: '',
  savedSha256: undefined,
  saving: false,
  error: undefined,
  conflict: false,
  jump: undefined,

  async load() {
    try {
      const source = await workspaceClient().source();
      set({
        loaded: true,
        text: source.text,
        savedText: source.text,
        savedSha256: source.sha256,
        error: undefined,
        conflict: false,
      });
    } catch (error) {
      set({ error: describeError(error) });
    }
  },

  edit(text) {
    set({ text });
  },

  async save(options = {}) {
    const { text, savedText, savedSha256, saving, loaded } = get();
    // Never write what was not loaded (an empty editor) or what did not change.
    if (saving || !loaded || (text === savedText && !options.overwrite)) return false;
    if (!savedSha256 && !options.overwrite) return false;
    set({ saving: true, error: undefined });
    try {
      const written = await workspaceClient().saveSource(text, options.overwrite ? undefined : savedSha256);
      set({ savedText: text, savedSha256: written.sha256, conflict: false });
      void useSession.getState().refreshStatus();
      return true;
    } catch (error) {
      if (error instanceof WorkspaceProblem && error.code === 'source_conflict') set({ conflict: true });
      set({ error: describeError(error) });
      return false;
    } finally {
      set({ saving: false });
    }
  },

  jumpTo(line, column = 1) {
    set({ jump: { line, column, focus: true, nonce: Date.now() } });
  },

  reveal(range) {
    set({
      jump: {
        line: range.startLineNumber,
        column: range.startColumn,
        end: { line: range.endLineNumber, column: range.endColumn },
        focus: false,
        nonce: Date.now(),
      },
    });
  },
}));

export const isDirty = (state: SourceState) => state.loaded && state.text !== state.savedText;
