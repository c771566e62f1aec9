// How inspect names a terminal element and lists its commands, from the spec alone.
import { DEFAULT_PROMPT } from '../../shared/elements/terminal/terminal-timeline.ts';
import type { TerminalElement } from '../../shared/spec/terminal-element.ts';

const PART_CHARS = 60;

function commands(element: TerminalElement): string[] {
  return element.session.flatMap((entry) => (entry.command === undefined ? [] : [entry.command]));
}

/** e.g. "terminal, 3 commands". */
export function terminalLabel(element: TerminalElement): string {
  const count = commands(element).length;
  return `terminal, ${count} command${count === 1 ? '' : 's'}`;
}

/** Each command as typed after its prompt, e.g. "$ npm test", cut to 60 characters. */
export function terminalParts(element: TerminalElement): string[] {
  return commands(element).map((command) => {
    const typed = `${element.prompt ?? DEFAULT_PROMPT}${command}`;
    return typed.length <= PART_CHARS ? typed : `${typed.slice(0, PART_CHARS - 1).trimEnd()}…`;
  });
}
