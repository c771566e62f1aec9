// Edit with words, over an open JSON spec: the editor's spec (unsaved edits included) and a change
// go to the host's AI provider (the edit path of `kino edit`: a JSON Patch, validated and reviewed);
// what changed is shown value by value, and only Accept puts it in the editor and saves it, as one
// edit that Ctrl+Z takes back. An editor changed since the request is never replaced unasked.
import { useEffect, useMemo, useState } from 'react';
import type { ReactElement } from 'react';
import { MAX_CHANGE_CHARS } from '../../../shared/studio/authoring.ts';
import { useSource } from '../editor/source-store.ts';
import { Icon } from '../ui/icons.tsx';
import { AuthoringProgress } from './AuthoringProgress.tsx';
import { shortValue, useWords, valueAt } from './words-store.ts';

/** The editor's text as a spec object, or why it is not one. */
function specOf(text: string): { spec: Record<string, unknown> } | { problem: string } {
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { problem: 'the spec is not a JSON object' };
    }
    return { spec: value as Record<string, unknown> };
  } catch {
    return { problem: 'the editor does not hold valid JSON: fix it before editing with words' };
  }
}

export function EditWithWords(): ReactElement {
  const availability = useWords((s) => s.availability);
  const loadAvailability = useWords((s) => s.loadAvailability);
  const job = useWords((s) => (s.job?.kind === 'edit' ? s.job : undefined));
  const baseText = useWords((s) => s.baseText);
  const error = useWords((s) => s.error);
  const run = useWords((s) => s.run);
  const clear = useWords((s) => s.clear);
  const [change, setChange] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const base = useMemo<unknown>(() => (baseText ? JSON.parse(baseText) : undefined), [baseText]);

  useEffect(() => {
    void loadAvailability();
  }, [loadAvailability]);

  const configured = availability?.configured === true;
  const running = job?.state === 'running';
  const edited = job?.state === 'done' ? job.edited : null;

  const start = () => {
    const text = useSource.getState().text;
    const parsed = specOf(text);
    if ('problem' in parsed) {
      setProblem(parsed.problem);
      return;
    }
    setProblem(undefined);
    void run({ kind: 'edit', spec: parsed.spec, change: change.trim() }, text);
  };

  const accept = async () => {
    if (!edited) return;
    const source = useSource.getState();
    if (
      source.text !== baseText &&
      !window.confirm('The editor changed since this edit was asked for. Replace its text with the edit?')
    )
      return;
    // Through the editor's own text: Monaco records it as one edit, so Ctrl+Z brings the old spec back.
    source.edit(`${JSON.stringify(edited.spec, null, 2)}\n`);
    const saved = await useSource.getState().save();
    if (saved) {
      clear();
      setChange('');
    }
  };

  return (
    <div className="words-edit" data-testid="edit-with-words">
      <form
        className="row gap"
        onSubmit={(event) => {
          event.preventDefault();
          if (change.trim()) start();
        }}
      >
        <Icon name="sparkle" size={14} />
        <input
          className="input grow"
          maxLength={MAX_CHANGE_CHARS}
          placeholder={configured ? 'Edit with words: "make the title bigger and red"' : 'Edit with words'}
          value={change}
          onChange={(event) => setChange(event.target.value)}
          aria-label="Edit with words"
          disabled={!configured || running}
        />
        <button className="btn small" type="submit" disabled={!configured || running || !change.trim()}>
          Edit
        </button>
      </form>
      {availability && !configured && (
        // One line over the editor: the source stays in view; the variables to set are a click away.
        <details className="muted words-unavailable" data-testid="edit-unavailable">
          <summary>No AI provider is configured</summary>
          {availability.message}.
        </details>
      )}
      {problem && <div className="notice err">{problem}</div>}
      {error && <div className="notice err">{error}</div>}
      {job && <AuthoringProgress job={job} />}
      {edited && (
        <div className="words-diff" data-testid="edit-diff">
          <div className="label">
            {edited.changes.length === 0
              ? 'Nothing changed'
              : `${edited.changes.length} change${edited.changes.length === 1 ? '' : 's'}`}
          </div>
          <ul>
            {edited.changes.map((pointer) => (
              <li key={pointer}>
                <span className="mono">{pointer}</span>{' '}
                <span className="words-old">{shortValue(valueAt(base, pointer))}</span>
                {' → '}
                <span className="words-new">{shortValue(valueAt(edited.spec, pointer))}</span>
              </li>
            ))}
          </ul>
          <div className="row gap">
            <button className="btn primary small" onClick={() => void accept()} data-testid="edit-accept">
              <Icon name="check" size={12} /> Accept and save
            </button>
            <button className="btn small" onClick={clear} data-testid="edit-discard">
              Discard
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
