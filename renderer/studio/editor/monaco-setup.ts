// Monaco from the bundled monaco-editor package (never a CDN), and only the parts the studio uses:
// the editor API with its editing features, TypeScript (compositions) and JSON (specs). The package's
// main entry would also register some 80 other languages and the CSS and HTML services, with their
// workers (2 MB more in dist/renderer). @monaco-editor/react is pointed at it; workers are
// same-origin files built by Vite and start when a model first needs one (the TypeScript one only
// once TypeScript is switched on, see typescript-on-demand.ts).
import { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/register.all';
import 'monaco-editor/languages/definitions/typescript/register';
import * as json from 'monaco-editor/languages/features/json/register';
import * as typescript from 'monaco-editor/languages/features/typescript/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';
import TypeScriptWorker from 'monaco-editor/language/typescript/ts.worker?worker';

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string) {
    if (label === 'typescript' || label === 'javascript') return new TypeScriptWorker();
    // JSON specs: completion, hover and markers from the spec's JSON Schema (spec-json-schema.ts).
    if (label === 'json') return new JsonWorker();
    return new EditorWorker();
  },
};

// The loader only calls the editor API (editor, languages, Uri…), which this namespace is.
loader.config({ monaco: monaco as unknown as NonNullable<Parameters<typeof loader.config>[0]['monaco']> });

monaco.editor.defineTheme('kino-dark', {
  base: 'vs-dark',
  inherit: true,
  rules: [],
  colors: {
    'editor.background': '#15171c',
    'editor.lineHighlightBackground': '#1b1e25',
    'editorLineNumber.foreground': '#4a5060',
    'editorLineNumber.activeForeground': '#b5bac6',
    'editorGutter.background': '#15171c',
    'editor.selectionBackground': '#3a3470',
    'editorWidget.background': '#1b1e25',
    'editorWidget.border': '#2b303b',
  },
});

export { json, monaco, typescript };
