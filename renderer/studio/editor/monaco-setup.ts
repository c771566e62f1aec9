// Monaco from the bundled monaco-editor package (never a CDN): @monaco-editor/react is pointed at
// it, and its workers are same-origin files built by Vite.
import { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor';
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

loader.config({ monaco });

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

export { monaco };
