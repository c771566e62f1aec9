// The template's values as the variables form edits them. The preview draws with them (a little after
// the last keystroke), and Capture frame, Review and Export send them as the job's `variables`.
// What the template declares comes from the preview (the player reads it from the build it plays).
import { create } from 'zustand';
import type { Variables } from '../../../shared/spec/variable-schema.ts';
import { valuesOf } from './variable-form.ts';
import type { FormEntry, FormValue } from './variable-form.ts';

interface VariablesState {
  /** Each edited variable's entry, by name; unedited ones take their defaults. */
  entries: Record<string, FormEntry>;
  set(name: string, entry: FormEntry): void;
  reset(name?: string): void;
}

export const useVariables = create<VariablesState>((set, get) => ({
  entries: {},
  set(name, entry) {
    set({ entries: { ...get().entries, [name]: entry } });
  },
  reset(name) {
    if (name === undefined) {
      set({ entries: {} });
      return;
    }
    const { [name]: _dropped, ...rest } = get().entries;
    set({ entries: rest });
  },
}));

/**
 * The `variables` of a job body: the edited values the template declares, or nothing to add (a
 * composition that is no template takes none).
 */
export function jobVariables(declared: Variables | undefined): { variables?: Record<string, FormValue> } {
  const values = valuesOf(declared, useVariables.getState().entries);
  return Object.keys(values).length > 0 ? { variables: values } : {};
}
