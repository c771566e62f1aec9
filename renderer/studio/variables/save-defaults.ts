// "Save as defaults" for a JSON template: the form's values written into the spec as its variables'
// defaults, each one edited in place (a default replaced where it stands, or added first in its
// variable's object), so the rest of the file keeps its own formatting.
import { sourceSpanOfPointer } from '../editor/json-pointer.ts';
import type { FormValue } from './variable-form.ts';

interface TextEdit {
  at: number;
  remove: number;
  insert: string;
}

/** How to write `"default": value` first in the object whose `{` is at `brace`. */
function addDefault(text: string, brace: number, value: string): TextEdit {
  const after = text.slice(brace + 1);
  const empty = /^\s*}/.test(after);
  const nextLine = /^[ \t]*\r?\n([ \t]*)/.exec(after);
  const field = `"default": ${value}${empty ? '' : ','}`;
  // A multi-line object gets the field on a line of its own, indented as its next line is.
  const insert = nextLine ? `\n${nextLine[1]}${field}` : ` ${field}${empty ? ' ' : ''}`;
  return { at: brace + 1, remove: 0, insert };
}

/**
 * The spec's text with `values` as the defaults of its variables, or undefined when a variable's
 * declaration is not written in the text as an object (the form's values would have nowhere to go).
 */
export function withDefaults(text: string, values: Record<string, FormValue>): string | undefined {
  const edits: TextEdit[] = [];
  for (const [name, value] of Object.entries(values)) {
    const written = JSON.stringify(value);
    const current = sourceSpanOfPointer(text, `/variables/${name}/default`, { exact: true });
    if (current) {
      edits.push({ at: current.start, remove: current.end - current.start, insert: written });
      continue;
    }
    // An object is found at its key; its `{` is the next one after the key.
    const declaration = sourceSpanOfPointer(text, `/variables/${name}`, { exact: true });
    if (!declaration) return undefined;
    const brace = text.indexOf('{', declaration.end);
    if (brace === -1 || text.slice(declaration.end, brace).trim() !== ':') return undefined;
    edits.push(addDefault(text, brace, written));
  }
  // From the end backwards: each edit leaves the offsets before it as they were.
  return edits
    .sort((a, b) => b.at - a.at)
    .reduce(
      (edited, edit) => edited.slice(0, edit.at) + edit.insert + edited.slice(edit.at + edit.remove),
      text,
    );
}
