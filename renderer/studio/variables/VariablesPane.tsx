// The variables form: one field per variable the template declares (a JSON spec's `variables`, a
// template()'s), with its description, limits and default. The preview draws each edit a moment
// later; Capture frame, Review and Export render with the same values. A value that does not fit
// says why, in the words the render API would answer with.
import { useEffect, useState } from 'react';
import type { ReactElement } from 'react';
import type { ProjectAsset } from '../../../shared/studio/bridge.ts';
import type { Variable } from '../../../shared/spec/variable-schema.ts';
import { usePreview } from '../preview/preview-store.ts';
import { isSpecSource, useSession } from '../session/session-store.ts';
import { Icon } from '../ui/icons.tsx';
import { useSource } from '../editor/source-store.ts';
import {
  controlOf,
  declarationHint,
  entryShown,
  pickerColor,
  valueProblems,
  valuesOf,
} from './variable-form.ts';
import { withDefaults } from './save-defaults.ts';
import type { FormEntry } from './variable-form.ts';
import { useVariables } from './variables-store.ts';

/** The project's images and videos (for media variables), read once the form has a media field. */
function useProjectAssets(wanted: boolean): ProjectAsset[] {
  const client = useSession((s) => s.client);
  const [assets, setAssets] = useState<ProjectAsset[]>([]);
  useEffect(() => {
    if (!wanted || !client) return;
    void client.json<ProjectAsset[]>('/studio/api/assets').then(setAssets, () => undefined);
  }, [wanted, client]);
  return assets;
}

function Control({
  name,
  variable,
  entry,
  invalid,
  assets,
  onChange,
}: {
  name: string;
  variable: Variable;
  entry: FormEntry;
  invalid: boolean;
  assets: ProjectAsset[];
  onChange: (entry: FormEntry) => void;
}): ReactElement {
  const id = `variable-input-${name}`;
  const common = {
    id,
    'aria-invalid': invalid,
    'aria-describedby': `variable-help-${name}`,
    'data-testid': id,
  };
  const placeholder = variable.default === undefined ? 'required' : String(variable.default);
  switch (controlOf(variable)) {
    case 'checkbox':
      return (
        <input
          {...common}
          type="checkbox"
          checked={entry === true}
          onChange={(event) => onChange(event.target.checked)}
        />
      );
    case 'color': {
      const text = String(entry);
      return (
        <div className="row gap">
          <input
            type="color"
            className="color-swatch"
            value={pickerColor(text) ?? '#000000'}
            onChange={(event) => onChange(event.target.value)}
            aria-label={`${name} colour picker`}
          />
          <input
            {...common}
            className="input grow mono"
            value={text}
            placeholder={placeholder}
            onChange={(event) => onChange(event.target.value)}
          />
        </div>
      );
    }
    case 'choice':
      // The entry is the option's text: read as the declared type as any typed value is.
      return (
        <select
          {...common}
          className="input"
          value={String(entry)}
          onChange={(event) => onChange(event.target.value)}
        >
          {variable.default === undefined && String(entry) === '' && (
            <option value="" disabled>
              choose…
            </option>
          )}
          {(variable.options ?? []).map((option) => (
            <option key={String(option)} value={String(option)}>
              {String(option)}
            </option>
          ))}
        </select>
      );
    case 'number':
      return (
        <input
          {...common}
          className="input mono"
          inputMode="decimal"
          value={String(entry)}
          placeholder={placeholder}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    case 'media': {
      // The project's files of this kind are offered; a URL the media policy allows works too.
      const listId = `variable-assets-${name}`;
      return (
        <>
          <input
            {...common}
            className="input mono"
            list={listId}
            value={String(entry)}
            placeholder={variable.type === 'image' ? 'asset:photo.jpg' : 'asset:clip.mp4'}
            onChange={(event) => onChange(event.target.value)}
          />
          <datalist id={listId}>
            {assets
              .filter((asset) => asset.kind === variable.type)
              .map((asset) => (
                <option key={asset.src} value={asset.src} />
              ))}
          </datalist>
        </>
      );
    }
    default:
      return (
        <input
          {...common}
          className="input"
          value={String(entry)}
          placeholder={placeholder}
          maxLength={variable.maxLength === undefined ? undefined : variable.maxLength * 4}
          onChange={(event) => onChange(event.target.value)}
        />
      );
  }
}

/**
 * "Save as defaults" for a JSON template: the values go into the spec's text in the editor (one edit,
 * Ctrl+Z takes it back) and are saved; the form then shows them as the defaults they now are.
 */
function SaveAsDefaults({ canSave }: { canSave: boolean }): ReactElement | null {
  const source = useSession((s) => s.info?.source);
  const reset = useVariables((s) => s.reset);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  if (!isSpecSource(source)) return null;
  const save = async () => {
    const values = valuesOf(usePreview.getState().declared, useVariables.getState().entries);
    const text = withDefaults(useSource.getState().text, values);
    if (text === undefined) {
      setNotice('The variables are not written as objects in this file: edit their defaults in the source.');
      return;
    }
    setNotice(undefined);
    useSource.getState().edit(text);
    if (await useSource.getState().save()) reset();
  };
  return (
    <>
      <button
        type="button"
        className="btn ghost small"
        disabled={!canSave}
        onClick={() => void save()}
        title="Write these values into the spec as its variables' defaults, and save it"
        data-testid="save-defaults"
      >
        Save as defaults
      </button>
      {notice && <div className="notice err">{notice}</div>}
    </>
  );
}

export function VariablesPane(): ReactElement {
  const declared = usePreview((s) => s.declared);
  const entries = useVariables((s) => s.entries);
  const set = useVariables((s) => s.set);
  const reset = useVariables((s) => s.reset);
  const hasMedia = Object.values(declared ?? {}).some((variable) => controlOf(variable) === 'media');
  const assets = useProjectAssets(hasMedia);
  if (!declared || Object.keys(declared).length === 0) {
    return (
      <div className="side-body" data-testid="variables-pane">
        <div className="empty">
          <Icon name="sliders" size={28} />
          <h3>No variables</h3>
          <p>
            A template declares variables a render fills in: <code>"variables"</code> in a JSON spec, or{' '}
            <code>template(…)</code> in code. This composition declares none.
          </p>
        </div>
      </div>
    );
  }
  const problems = valueProblems(declared, entries);
  const edited = Object.keys(entries).filter((name) => Object.hasOwn(declared, name)).length;
  return (
    <div className="side-body" data-testid="variables-pane">
      <div className="row gap">
        <span className="label">Template variables</span>
        <span className="push" />
        <SaveAsDefaults canSave={edited > 0 && Object.keys(problems).length === 0} />
        <button className="btn ghost small" disabled={edited === 0} onClick={() => reset()}>
          Reset all
        </button>
      </div>
      <p className="muted variables-intro">
        The preview, Capture frame, Review and Export all use these values. Unset ones take their defaults.
      </p>
      <form className="variables-form" onSubmit={(event) => event.preventDefault()}>
        {Object.entries(declared).map(([name, variable]) => {
          const problem = problems[name];
          const changed = Object.hasOwn(entries, name);
          return (
            <div
              key={name}
              className={`variable-field${problem ? ' invalid' : ''}`}
              data-testid={`variable-${name}`}
            >
              <div className="row gap">
                <label className="variable-name mono" htmlFor={`variable-input-${name}`}>
                  {name}
                </label>
                <span className="muted variable-hint">{declarationHint(variable)}</span>
                {changed && (
                  <button
                    type="button"
                    className="btn ghost small push"
                    onClick={() => reset(name)}
                    title="Back to the declared default"
                    aria-label={`Reset ${name}`}
                  >
                    Reset
                  </button>
                )}
              </div>
              <Control
                name={name}
                variable={variable}
                entry={entryShown(variable, entries, name)}
                invalid={problem !== undefined}
                assets={assets}
                onChange={(entry) => set(name, entry)}
              />
              <div id={`variable-help-${name}`}>
                {problem ? (
                  <div className="variable-error" role="alert" data-testid={`variable-error-${name}`}>
                    {problem}
                  </div>
                ) : variable.description ? (
                  <div className="muted variable-description">{variable.description}</div>
                ) : null}
              </div>
            </div>
          );
        })}
      </form>
    </div>
  );
}
