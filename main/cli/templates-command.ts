// `kino templates [--project <dir>] [--json]`: the render project's templates, each key with its
// variables (type, default or "required", limits, description), so a user knows what --var takes.
import type { Command } from 'commander';
import type { Variable } from '../../shared/spec/variable-schema.ts';
import type { TemplateListing } from '../project/templates.ts';

function limits(variable: Variable): string {
  const parts: string[] = [];
  if (variable.min !== undefined) parts.push(`≥ ${variable.min}`);
  if (variable.max !== undefined) parts.push(`≤ ${variable.max}`);
  if (variable.maxLength !== undefined) parts.push(`≤ ${variable.maxLength} chars`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(1, width - [...text].length));
}

/** The listing as people read it: a block per template, a line per variable. */
export function formatTemplates(listing: TemplateListing): string {
  const lines: string[] = [];
  for (const template of listing.templates) {
    lines.push(`${template.key}${template.title ? `  ${template.title}` : ''}  (${template.kind})`);
    const entries = Object.entries(template.variables);
    const nameWidth = Math.max(0, ...entries.map(([name]) => name.length)) + 2;
    for (const [name, variable] of entries) {
      const value = variable.default === undefined ? 'required' : `= ${JSON.stringify(variable.default)}`;
      const description = variable.description ? `  ${variable.description}` : '';
      lines.push(
        `  ${pad(name, nameWidth)}${pad(variable.type, 8)}${value}${limits(variable)}${description}`,
      );
    }
    lines.push('');
  }
  if (listing.templates.length === 0)
    lines.push('no templates: no key of this project declares variables', '');
  const example = listing.templates.find((template) => Object.keys(template.variables).length > 0);
  if (example) {
    const [name] = Object.keys(example.variables);
    lines.push(`render one with: kino render ${example.key} --var ${name}=… (or --vars values.json)`);
  }
  return lines.join('\n') + '\n';
}

export function registerTemplatesCommand(program: Command): void {
  program
    .command('templates')
    .description("List the render project's templates and their variables")
    .option('--project <dir>', 'the render project (default RENDER_PROJECT, else the examples)')
    .option('--json', 'print the listing as JSON')
    .action(async (opts: { project?: string; json?: boolean }) => {
      const [{ defaultProjectDir, loadProject }, { TemplateCatalog }] = await Promise.all([
        import('../project/load.ts'),
        import('../project/templates.ts'),
      ]);
      const project = await loadProject(opts.project ?? defaultProjectDir());
      const listing = await new TemplateCatalog({ isolate: false }).list(project);
      if (opts.json) process.stdout.write(JSON.stringify(listing, null, 2) + '\n');
      else process.stdout.write(formatTemplates(listing));
      for (const failure of listing.failures) {
        process.stderr.write(`kino: key "${failure.key}" could not be read: ${failure.message}\n`);
      }
      if (listing.failures.length > 0) process.exitCode = 1;
    });
}
