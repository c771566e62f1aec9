import { describe, expect, it } from 'vitest';
import type { TerminalElement } from '../../shared/spec/terminal-element.ts';
import { terminalLabel, terminalParts } from './terminal-facts.ts';

describe('terminal facts', () => {
  const session: TerminalElement['session'] = [
    { command: 'npm test', output: '\u001b[32m✓\u001b[0m passed' },
    { output: 'a log line' },
    { command: 'npx kino render launch.json' },
    { command: 'ls' },
  ];

  it('counts the commands and lists each after its prompt', () => {
    const element: TerminalElement = { type: 'terminal', session };
    expect(terminalLabel(element)).toBe('terminal, 3 commands');
    expect(terminalParts(element)).toEqual(['$ npm test', '$ npx kino render launch.json', '$ ls']);
    expect(terminalParts({ ...element, prompt: '❯ ' })[0]).toBe('❯ npm test');
  });

  it('names a single command, and cuts a long one', () => {
    const element: TerminalElement = { type: 'terminal', session: [{ command: 'x'.repeat(100) }] };
    expect(terminalLabel(element)).toBe('terminal, 1 command');
    expect(terminalParts(element)[0]).toHaveLength(60);
    expect(terminalParts(element)[0]!.endsWith('…')).toBe(true);
  });
});
