// The source pane: the composition in Monaco with Kino's builder types (completion and errors), save
// with Ctrl/Cmd+S, and the compile problems the workspace reports, each linking to its line.
import { Editor } from '@monaco-editor/react';
import type { OnMount } from '@monaco-editor/react';
import { useEffect, useState } from 'react';
import type { ReactElement } from 'react';
import type { TypeLibrary } from '../../../shared/studio/type-library.ts';
import { isSpecSource, useSession, workspaceClient } from '../session/session-store.ts';
import type { CompileProblem } from '../../../shared/protocol/problem.ts';
import type { SpecIssue } from '../../../shared/spec/validate.ts';
import { baseName } from '../ui/format.ts';
import { usePreview } from '../preview/preview-store.ts';
import { configureKinoTypeScript } from './kino-typescript.ts';
import { json, monaco, typescript } from './monaco-setup.ts';
import { configureSpecJson } from './spec-json-schema.ts';
import { useSpecMarkers } from './SpecIssues.tsx';
import { isDirty, useSource } from './source-store.ts';
import { EditWithWords } from '../words/EditWithWords.tsx';
import { compositionLanguage, onTypeScriptOn, switchOnWhenFocused } from './typescript-on-demand.ts';

type CodeEditor = Parameters<OnMount>[0];

let typesConfigured = false;
/** One empty list: a selector must return the same value when nothing changed. */
const NO_PROBLEMS: CompileProblem[] = [];
const NO_ISSUES: SpecIssue[] = [];

async function configureTypes(): Promise<void> {
  if (typesConfigured) return;
  typesConfigured = true;
  try {
    configureKinoTypeScript({ typescript }, await workspaceClient().json<TypeLibrary[]>('/studio/api/types'));
  } catch {
    typesConfigured = false; // the editor works without them; the next mount tries again
  }
}

/** Problems in the open file, as Monaco markers, so the error is underlined where it is. */
function useCompileMarkers(
  editor: CodeEditor | undefined,
  problems: CompileProblem[],
  source: string | undefined,
) {
  useEffect(() => {
    const model = editor?.getModel();
    if (!model) return;
    const here = problems.filter((p) => p.file === source && p.line !== undefined);
    monaco.editor.setModelMarkers(
      model,
      'kino-workspace',
      here.map((p) => ({
        severity: monaco.MarkerSeverity.Error,
        message: p.message,
        startLineNumber: p.line!,
        startColumn: p.column ?? 1,
        endLineNumber: p.line!,
        endColumn: model.getLineMaxColumn(Math.min(p.line!, model.getLineCount())),
        source: 'kino',
      })),
    );
  }, [editor, problems, source]);
}

export function CompileProblems({ problems }: { problems: CompileProblem[] }): ReactElement | null {
  const jumpTo = useSource((s) => s.jumpTo);
  const source = useSession((s) => s.info?.source);
  if (problems.length === 0) return null;
  return (
    <div className="notice err compile-problems" role="alert" data-testid="compile-error">
      <div>
        <strong>The composition does not compile</strong>
        <ul>
          {problems.map((problem, index) => (
            <li key={index}>
              {problem.line !== undefined && problem.file === source ? (
                <button
                  className="link"
                  data-testid="compile-error-line"
                  onClick={() => jumpTo(problem.line!, problem.column)}
                >
                  {baseName(problem.file)}:{problem.line}:{problem.column ?? 1}
                </button>
              ) : (
                <span className="mono">
                  {baseName(problem.file)}
                  {problem.line !== undefined ? `:${problem.line}:${problem.column ?? 1}` : ''}
                </span>
              )}{' '}
              {problem.message}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

export function SourcePane(): ReactElement {
  const loaded = useSource((s) => s.loaded);
  const text = useSource((s) => s.text);
  const edit = useSource((s) => s.edit);
  const error = useSource((s) => s.error);
  const conflict = useSource((s) => s.conflict);
  const dirty = useSource(isDirty);
  const jump = useSource((s) => s.jump);
  const save = useSource((s) => s.save);
  const load = useSource((s) => s.load);
  const source = useSession((s) => s.info?.source);
  const problems = useSession((s) =>
    s.status?.compileProblems?.length ? s.status.compileProblems : NO_PROBLEMS,
  );
  const [editor, setEditor] = useState<CodeEditor | undefined>(undefined);
  const isSpec = isSpecSource(source);
  const modelPath = source ? `file:///${baseName(source)}` : 'file:///composition.ts';
  const specIssues = usePreview((s) => s.specIssues);
  const [language, setLanguage] = useState(compositionLanguage);
  // Kino's types load with the TypeScript service: before it starts nothing would read them.
  useEffect(
    () =>
      onTypeScriptOn(() => {
        setLanguage(compositionLanguage());
        void configureTypes();
      }),
    [],
  );

  const revision = useSession((s) => s.status?.sourceRevision);
  useEffect(() => {
    // First load, and every outside change while there is nothing unsaved here.
    if (!useSource.getState().loaded || !isDirty(useSource.getState())) void load();
  }, [load, revision]);

  useCompileMarkers(editor, problems, source);
  const savedText = useSource((s) => s.savedText);
  // Placed again when the file is reloaded: the issues belong to the saved text.
  useSpecMarkers(monaco, editor?.getModel(), isSpec ? specIssues : NO_ISSUES, savedText);

  useEffect(() => {
    if (!jump || !editor) return;
    const position = { lineNumber: jump.line, column: jump.column };
    if (jump.end) {
      // Selected from its end back to its start: the cursor (and the view) on the first line.
      const range = new monaco.Selection(jump.end.line, jump.end.column, jump.line, jump.column);
      editor.setSelection(range);
      editor.revealRangeNearTopIfOutsideViewport(range);
    } else {
      editor.setPosition(position);
      editor.setScrollLeft(0);
      editor.revealPositionInCenter(position);
    }
    if (jump.focus) editor.focus();
  }, [jump, editor]);

  const onMount: OnMount = (mounted) => {
    setEditor(mounted);
    if (isSpec) void configureSpecJson(json, modelPath, /"variables"\s*:/.test(mounted.getValue()));
    else switchOnWhenFocused(mounted);
    mounted.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => void useSource.getState().save());
    mounted.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyR, () =>
      window.dispatchEvent(new CustomEvent('kino:render')),
    );
  };

  return (
    <section className="pane source-pane" aria-label="Source">
      <div className="pane-header">
        <span className="pane-title">Source</span>
        <span className="pane-meta">
          {dirty ? (
            <span className="badge warning">unsaved</span>
          ) : loaded ? (
            <span className="badge muted">saved</span>
          ) : null}
        </span>
      </div>
      {conflict && (
        <div className="notice warn inset">
          <div>
            <strong>The file changed on disk.</strong> Another editor saved it after it was loaded here.
            <div className="row gap">
              <button className="btn small" onClick={() => void load()}>
                Load theirs
              </button>
              <button className="btn small danger" onClick={() => void save({ overwrite: true })}>
                Keep mine (overwrite)
              </button>
            </div>
          </div>
        </div>
      )}
      {error && !conflict && <div className="notice err inset">{error}</div>}
      <CompileProblems problems={problems} />
      {isSpec && <EditWithWords />}
      <div className="editor-host" data-testid="editor" data-language={isSpec ? 'json' : 'typescript'}>
        {loaded ? (
          <Editor
            path={modelPath}
            defaultLanguage={isSpec ? 'json' : language}
            language={isSpec ? 'json' : language}
            theme="kino-dark"
            value={text}
            onChange={(value) => edit(value ?? '')}
            onMount={onMount}
            loading={<div className="empty">Loading editor…</div>}
            options={{
              minimap: { enabled: false },
              fontSize: 13,
              lineHeight: 20,
              fontFamily: "ui-monospace, 'JetBrains Mono', Menlo, Consolas, monospace",
              scrollBeyondLastLine: false,
              renderLineHighlight: 'line',
              tabSize: 2,
              automaticLayout: true,
              padding: { top: 12 },
              smoothScrolling: true,
            }}
          />
        ) : (
          <div className="empty">
            <span className="spinner" />
            Loading source…
          </div>
        )}
      </div>
    </section>
  );
}
