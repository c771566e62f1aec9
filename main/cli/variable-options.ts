// --var name=value and --vars file.json: the values a template render binds. Each --var is read as
// its variable's declared type when the template is loaded (VariableText); --vars holds JSON values,
// and a --var of the same name wins over it.
import { InvalidArgumentError, Option } from 'commander';
import type { Command } from 'commander';
import { VARIABLE_NAME_PATTERN } from '../../shared/spec/variable-schema.ts';
import { VariableText } from '../../shared/spec/variable-text.ts';
import type { VariableValues } from '../../shared/spec/variables.ts';
import { KinoInputError } from '../project/input-error.ts';
import { readJsonFile } from '../project/json-file.ts';

export interface VariableOptions {
  var?: Record<string, VariableText>;
  vars?: string;
}

function collectVar(text: string, previous: Record<string, VariableText> = {}): Record<string, VariableText> {
  const equals = text.indexOf('=');
  const name = equals < 0 ? text : text.slice(0, equals);
  if (equals < 0)
    throw new InvalidArgumentError(`expected name=value, e.g. --var ${name || 'title'}="Hello"`);
  if (!VARIABLE_NAME_PATTERN.test(name)) {
    throw new InvalidArgumentError(
      `"${name}" is not a variable name (a letter or _, then letters, digits or _)`,
    );
  }
  return { ...previous, [name]: new VariableText(text.slice(equals + 1)) };
}

/** `--var name=value`, repeatable. */
export function variableOption(): Option {
  return new Option(
    '--var <name=value>',
    'a template variable (repeatable); read as its declared type',
  ).argParser(collectVar);
}

export function addVariableOptions(command: Command): Command {
  return command
    .addOption(variableOption())
    .option(
      '--vars <file.json>',
      'template variables from a JSON object file ({"title": "Hi", "price": 19})',
    );
}

/** The values the options give, --vars first and each --var over it. */
export async function variableValues(opts: VariableOptions): Promise<VariableValues> {
  let fromFile: VariableValues = {};
  if (opts.vars !== undefined) {
    const read = await readJsonFile(opts.vars, 'variables file');
    if (typeof read !== 'object' || read === null || Array.isArray(read)) {
      throw new KinoInputError(
        `${opts.vars}: expected a JSON object of variable values, like {"title": "Hi"}`,
      );
    }
    fromFile = read as VariableValues;
  }
  return { ...fromFile, ...opts.var };
}
