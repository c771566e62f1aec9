// A value typed on a command line, kept apart from variables.ts so that declaring `--var` costs the
// CLI nothing at start-up (variables.ts loads the colour and media schemas).

/**
 * A value typed on a command line (`--var price=19`), read as its variable's declared type when it
 * is bound: the command line cannot know the types before the template is loaded.
 */
export class VariableText {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  toJSON(): string {
    return this.text;
  }
}
