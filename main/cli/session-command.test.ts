import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerSessionCommand } from './session-command.ts';

describe('kino session --help', () => {
  it('lists each subcommand the way it is typed and the README shows it: descriptor first', () => {
    const program = new Command('kino');
    registerSessionCommand(program);
    const help = program.commands.find((command) => command.name() === 'session')!.helpInformation();
    expect(help).toContain('Usage: kino session <descriptor> <subcommand> [options]');
    for (const name of ['status', 'source', 'frame', 'review', 'inspect', 'render']) {
      expect(help).toContain(`<descriptor> ${name} [options]`);
      expect(help).not.toContain(`${name} [options] <descriptor>`);
    }
  });
});
