// Monaco's TypeScript service (a 7 MB worker: the compiler and its lib files) starts when the user
// first focuses the editor, not when a composition opens. Until then the source shows in a
// highlight-only language that uses the same TypeScript grammar, so nothing changes on screen when it
// switches; a user who only watches and exports never downloads the worker. Compile errors still
// show before that: they come from the workspace (SourcePane's markers), not from Monaco.
//
// Why focus and not "after the first paint, when idle": the worker is the largest file of the studio
// and its type checking only matters while typing, which starts with focus; loading it when idle
// would compete with the preview's first seconds of playback for the network and a CPU core.
import type { editor as MonacoEditor } from 'monaco-editor/editor';
import type * as TypeScriptGrammar from 'monaco-editor/languages/definitions/typescript/typescript.js';
import { monaco } from './monaco-setup.ts';

/** The highlight-only language a composition shows in until TypeScript is switched on. */
export const TYPESCRIPT_VIEW_LANGUAGE = 'kino-typescript-view';
export const TYPESCRIPT_LANGUAGE = 'typescript';

monaco.languages.register({ id: TYPESCRIPT_VIEW_LANGUAGE });
let grammarModule: Promise<typeof TypeScriptGrammar>;
const grammar = () =>
  (grammarModule ??= import('monaco-editor/languages/definitions/typescript/typescript.js'));
monaco.languages.registerTokensProviderFactory(TYPESCRIPT_VIEW_LANGUAGE, {
  create: async () => (await grammar()).language,
});
monaco.languages.onLanguageEncountered(TYPESCRIPT_VIEW_LANGUAGE, () => {
  void grammar().then((module) =>
    monaco.languages.setLanguageConfiguration(TYPESCRIPT_VIEW_LANGUAGE, module.conf),
  );
});

let switchedOn = false;
const listeners = new Set<() => void>();

/** The language a composition's model should have now. */
export function compositionLanguage(): string {
  return switchedOn ? TYPESCRIPT_LANGUAGE : TYPESCRIPT_VIEW_LANGUAGE;
}

/** Switches TypeScript on for every composition model (once; later calls do nothing). */
export function switchTypeScriptOn(): void {
  if (switchedOn) return;
  switchedOn = true;
  for (const model of monaco.editor.getModels()) {
    if (model.getLanguageId() === TYPESCRIPT_VIEW_LANGUAGE) {
      monaco.editor.setModelLanguage(model, TYPESCRIPT_LANGUAGE);
    }
  }
  for (const listener of listeners) listener();
}

/** Calls `listener` once TypeScript is switched on (at once when it already is). */
export function onTypeScriptOn(listener: () => void): () => void {
  if (switchedOn) {
    listener();
    return () => {};
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Switches TypeScript on the first time `editor` gets the keyboard. */
export function switchOnWhenFocused(editor: MonacoEditor.IStandaloneCodeEditor): void {
  if (switchedOn) return;
  const subscription = editor.onDidFocusEditorText(() => {
    subscription.dispose();
    switchTypeScriptOn();
  });
}
