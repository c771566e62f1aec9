// A JSON spec that does not check, as the preview shows it: each issue the shared check found (the
// ones a render would refuse it for), at its line in the saved file, which the editor jumps to; and
// as Monaco markers at the same ranges. An issue about a value the form gives opens the form.
import { useEffect } from 'react';
import type { ReactElement } from 'react';
import type { SpecIssue } from '../../../shared/spec/validate.ts';
import { useLayout } from '../ui/layout-store.ts';
import { sourceRangeOfPointer } from './json-pointer.ts';
import type { SourceRange } from './json-pointer.ts';
import type { monaco as Monaco } from './monaco-setup.ts';
import { useSource } from './source-store.ts';

type EditorModel = NonNullable<ReturnType<typeof Monaco.editor.getModel>>;

/** An issue about a value the render was given (the form's), not about the spec's text. */
const aboutValue = (issue: SpecIssue) => 'in' in issue && (issue as { in?: string }).in === 'variables';

/** Where each issue is in `text`; issues about values have no place in it. */
export function placeIssues(text: string, issues: SpecIssue[]): { issue: SpecIssue; range?: SourceRange }[] {
  return issues.map((issue) => {
    if (aboutValue(issue)) return { issue };
    const range = sourceRangeOfPointer(text, issue.pointer);
    return range ? { issue, range } : { issue };
  });
}

export function SpecIssues({ issues }: { issues: SpecIssue[] }): ReactElement | null {
  const text = useSource((s) => s.savedText);
  const jumpTo = useSource((s) => s.jumpTo);
  const setTab = useLayout((s) => s.setTab);
  if (issues.length === 0) return null;
  return (
    <div className="notice err compile-problems" role="alert" data-testid="spec-error">
      <div>
        <strong>The spec is not valid: a render would refuse it</strong>
        <ul>
          {placeIssues(text, issues).map(({ issue, range }, index) => (
            <li key={index}>
              {range ? (
                <button
                  className="link spec-issue-line"
                  data-testid="spec-error-line"
                  onClick={() => jumpTo(range.startLineNumber, range.startColumn)}
                >
                  line {range.startLineNumber}
                </button>
              ) : aboutValue(issue) ? (
                <button className="link" onClick={() => setTab('variables')}>
                  Variables
                </button>
              ) : null}{' '}
              <span className="mono muted">{issue.pointer || '/'}</span> {issue.message}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/** The issues as markers in the open JSON (cleared when there are none). */
export function useSpecMarkers(
  monaco: typeof Monaco,
  model: EditorModel | null | undefined,
  issues: SpecIssue[],
  text: string,
): void {
  useEffect(() => {
    if (!model) return;
    const placed = placeIssues(text, issues);
    monaco.editor.setModelMarkers(
      model,
      'kino-spec',
      placed
        .filter((entry) => entry.range !== undefined)
        .map(({ issue, range }) => ({
          severity: monaco.MarkerSeverity.Error,
          message: `${issue.pointer}: ${issue.message}`,
          ...range!,
          source: 'kino',
        })),
    );
  }, [monaco, model, issues, text]);
}
