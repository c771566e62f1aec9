/// <reference types="vite/client" />

/** Monaco's TypeScript grammar (Monarch), which the package ships without typings. */
declare module 'monaco-editor/languages/definitions/typescript/typescript.js' {
  import type { languages } from 'monaco-editor/editor';
  export const conf: languages.LanguageConfiguration;
  export const language: languages.IMonarchLanguage;
}
