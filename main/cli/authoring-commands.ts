// `kino generate "<prompt>"` and `kino edit <spec.json> "<change>"`: a spec authored by the AI
// provider the environment configures (validated, reviewed and repaired as the API does), written
// with --spec-out, then rendered like `kino render` (or not, with --dry-run).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Option } from 'commander';
import type { Command } from 'commander';
import { OUTPUT_FORMATS, QUALITIES } from '../../shared/output/formats.ts';
import type { VideoSpec } from '../../shared/spec/schema.ts';
import { ASPECT_NAMES } from '../../shared/spec/sizes.ts';
import type { AuthoringRequest, AuthoringResult } from '../authoring/author-spec.ts';
import { KinoInputError } from '../project/input-error.ts';
import type { RenderProject } from '../project/load.ts';
import { addEncoderOptions } from './encoder-options.ts';
import type { RenderCommandOptions } from './render-to-file.ts';
// The rest (the AI SDK, the engine, the project loader) is imported when a command runs, so that
// registering these commands costs the CLI's start-up nothing.

interface AuthoringCommandOptions extends RenderCommandOptions {
  provider?: string;
  model?: string;
  specOut?: string;
  dryRun?: boolean;
}

function say(line: string): void {
  process.stderr.write(`kino: ${line}\n`);
}

async function author(
  request: AuthoringRequest,
  project: RenderProject,
  opts: AuthoringCommandOptions,
): Promise<AuthoringResult> {
  const [{ authorSpec }, { AuthoringError }, { chooseProvider, readAiSettings }, { projectContext }] =
    await Promise.all([
      import('../authoring/author-spec.ts'),
      import('../authoring/provider-errors.ts'),
      import('../authoring/providers.ts'),
      import('../engine/project-context.ts'),
    ]);
  const choice = chooseProvider(readAiSettings(process.env), { provider: opts.provider, model: opts.model });
  if (!choice.ok) throw new KinoInputError(choice.message);
  const { provider } = choice;
  const abort = new AbortController();
  const onSignal = () => abort.abort(new Error('canceled'));
  process.once('SIGINT', onSignal);
  try {
    const result = await authorSpec({
      request,
      provider,
      project: await projectContext(project),
      aspect: opts.aspect,
      format: opts.format,
      signal: abort.signal,
      onStage: (stage, attempt) =>
        say(
          stage === 'authoring'
            ? `authoring with ${provider.name} ${provider.model}${attempt > 1 ? ` (repair ${attempt - 1})` : ''}`
            : `reviewing the spec on sampled frames`,
        ),
      onWarning: (message) => say(`warning: ${message}`),
    });
    const { record } = result;
    for (const [index, repair] of record.repairs.entries()) {
      say(
        `answer ${index + 1}: ${repair.errors.length} error${repair.errors.length === 1 ? '' : 's'}, ${repair.findings.length} finding${repair.findings.length === 1 ? '' : 's'} sent back`,
      );
    }
    say(
      `spec authored in ${record.attempts} answer${record.attempts === 1 ? '' : 's'} (${record.usage.inputTokens} tokens in, ${record.usage.outputTokens} out, ${(record.durationMs / 1000).toFixed(1)} s)` +
        (record.remainingFindings.length > 0
          ? `; ${record.remainingFindings.length} finding(s) remain: ${record.remainingFindings.map((f) => f.code).join(', ')}`
          : ''),
    );
    if (result.changes) say(`changed: ${result.changes.join(', ') || 'nothing'}`);
    return result;
  } catch (error) {
    if (error instanceof AuthoringError) throw new KinoInputError(`${error.code}: ${error.message}`);
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
  }
}

/** Writes the spec (to --spec-out, else <name>.json with --dry-run) and renders it unless --dry-run. */
async function finish(
  result: AuthoringResult,
  project: RenderProject,
  name: string,
  request: Record<string, unknown>,
  opts: AuthoringCommandOptions,
): Promise<void> {
  const specPath = opts.specOut ?? (opts.dryRun ? `${name}.json` : undefined);
  if (specPath) {
    const { writeFileAtomically } = await import('../fs/atomic-write.ts');
    const written = await writeFileAtomically(
      path.resolve(specPath),
      JSON.stringify(result.spec, null, 2) + '\n',
    );
    if (opts.dryRun) process.stdout.write(`${written}\n`);
    else say(`spec written to ${written}`);
  }
  if (opts.dryRun) return;
  const { provider: _provider, model: _model, specOut: _specOut, dryRun: _dryRun, ...renderOptions } = opts;
  const { renderToFile } = await import('./render-to-file.ts');
  await renderToFile(
    {
      model: result.spec,
      project,
      subject: specPath
        ? { kind: 'spec', path: path.resolve(specPath) }
        : { kind: 'spec', specText: JSON.stringify(result.spec) },
    },
    name,
    { ...request, authoring: result.record },
    renderOptions,
  );
}

function authoringOptions(command: Command): Command {
  return command
    .option('-o, --output <file>', 'output file (default: <name>.<ext> in the current directory)')
    .option(
      '--provider <name>',
      'AI provider: openai, anthropic, google, openai-compatible (default AI_PROVIDER)',
    )
    .option('--model <model>', "the provider's model (default its *_MODEL setting)")
    .addOption(new Option('-f, --format <format>', 'output format').choices(OUTPUT_FORMATS).default('mp4'))
    .addOption(new Option('-q, --quality <quality>', 'quality level').choices(QUALITIES).default('standard'))
    .addOption(
      new Option('--aspect <aspect>', "output aspect (default: the spec's, else reels)").choices(
        ASPECT_NAMES,
      ),
    )
    .option('--spec-out <file>', 'also write the authored spec to this file')
    .option('--dry-run', 'write the spec (to --spec-out, else <name>.json) and stop before rendering')
    .option('--json', 'print the render result as JSON')
    .option('--no-receipt', 'do not write <output>.render.json beside the video');
}

/** The render options, then the encoder settings (checked against --format before authoring). */
function renderingCommand(command: Command): Command {
  return addEncoderOptions(authoringOptions(command));
}

export function registerAuthoringCommands(program: Command): void {
  renderingCommand(
    program
      .command('generate')
      .description(
        'Author a spec from a prompt with an AI provider (validated, reviewed, repaired), then render it',
      )
      .argument('<prompt>', 'what the video should show'),
  ).action(async (prompt: string, opts: AuthoringCommandOptions) => {
    const { projectForFile } = await import('../project/load.ts');
    const project = await projectForFile(path.join(process.cwd(), 'generated.json'));
    const result = await author({ kind: 'prompt', prompt }, project, opts);
    await finish(result, project, 'generated', { prompt }, opts);
  });

  renderingCommand(
    program
      .command('edit')
      .description(
        'Change a spec with an AI provider as a JSON Patch (the rest stays as it was), then render it',
      )
      .argument('<spec>', 'the spec (.json) to start from')
      .argument('<change>', 'what to change'),
  ).action(async (specFile: string, change: string, opts: AuthoringCommandOptions) => {
    const [{ projectForFile }, { checkSpec }] = await Promise.all([
      import('../project/load.ts'),
      import('../project/resolve-input.ts'),
    ]);
    const file = path.resolve(specFile);
    const text = await readFile(file, 'utf8').catch(() => {
      throw new KinoInputError(`${specFile} cannot be read`);
    });
    let base: unknown;
    try {
      base = JSON.parse(text);
    } catch {
      throw new KinoInputError(`${specFile} is not JSON`);
    }
    const checked = checkSpec(base);
    if (!checked.ok) throw new KinoInputError(`${specFile} is not a valid spec`, { issues: checked.issues });
    const project = await projectForFile(file);
    const result = await author({ kind: 'edit', base: checked.spec as VideoSpec, change }, project, opts);
    await finish(result, project, `${path.basename(file, '.json')}.edited`, { edit: specFile, change }, opts);
  });
}
