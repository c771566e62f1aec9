// `kino` command line: render, frame, serve, mcp and schema.
// Start-up is kept short: this file and the register* functions import only commander and small
// option lists; each action imports what it runs when it runs (`kino schema` never loads Skia or
// Fastify, `kino --help` neither). cli-imports.test.ts holds it to that.
import { Command, CommanderError, Option } from 'commander';
import { writeFile } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { ASPECT_NAMES } from '../../shared/spec/sizes.ts';
import type { AspectName } from '../../shared/spec/sizes.ts';
import { OUTPUT_FORMATS, QUALITIES } from '../../shared/output/formats.ts';
import {
  parseRasterThreadsOption,
  parseTimeOption,
  parseWholeNumber,
  parseWorkerConcurrency,
} from './option-parsers.ts';
import {
  SessionExit,
  SessionUsageError,
  normalizeSessionArgv,
  registerSessionCommand,
} from './session-command.ts';
import { registerWorkspaceCommand } from './workspace-command.ts';
import { registerPreviewCommand } from './preview-command.ts';
import { registerStudioCommand } from './studio-command.ts';
import { registerDoctorCommand } from './doctor-command.ts';
import { registerAuthoringCommands } from './authoring-commands.ts';
import { registerCaptionsCommand } from './captions-command.ts';
import { registerReviewCommand } from './review-command.ts';
import type { RenderCommandOptions } from './render-to-file.ts';
import { addVariableOptions, variableValues } from './variable-options.ts';
import { addEncoderOptions } from './encoder-options.ts';
import { registerTemplatesCommand } from './templates-command.ts';
import type { VariableOptions } from './variable-options.ts';
import { kinoVersion } from './version.ts';

const EXIT_FAILURE = 1;
const EXIT_USAGE = 64;

/** Default output names follow the key, or the input file's name without its extension. */
function outputStem(input: string, key: string | undefined): string {
  return key ?? basename(input, extname(input));
}

async function renderCommand(input: string, opts: RenderCommandOptions & VariableOptions): Promise<void> {
  const [{ resolveRenderInput, compositionSource }, { subjectOf }, { renderToFile }] = await Promise.all([
    import('../project/resolve-input.ts'),
    import('../engine/receipt.ts'),
    import('./render-to-file.ts'),
  ]);
  const resolved = await resolveRenderInput(input, process.cwd(), await variableValues(opts));
  await renderToFile(
    {
      model: resolved.model,
      project: resolved.project,
      subject: subjectOf(resolved),
      composition: compositionSource(resolved),
    },
    outputStem(input, resolved.key),
    { input, ...(resolved.variables ? { variables: resolved.variables } : {}) },
    opts,
  );
}

async function frameCommand(
  input: string,
  opts: { frame: number; output?: string; aspect?: AspectName } & VariableOptions,
): Promise<void> {
  const [{ resolveRenderInput }, { projectContext }, { renderFrameToPng }] = await Promise.all([
    import('../project/resolve-input.ts'),
    import('../engine/project-context.ts'),
    import('../engine/render-frame.ts'),
  ]);
  const resolved = await resolveRenderInput(input, process.cwd(), await variableValues(opts));
  const name = outputStem(input, resolved.key);
  const outputPath = resolve(opts.output ?? `${name}.frame${opts.frame}.png`);
  const result = await renderFrameToPng({
    model: resolved.model,
    project: await projectContext(resolved.project),
    frame: opts.frame,
    aspect: opts.aspect,
    outputPath,
  });
  process.stdout.write(
    `${result.path}\n  frame ${result.frame} of ${result.framesTotal}, ${result.width}×${result.height}\n`,
  );
}

export function buildProgram(): Command {
  const program = new Command('kino')
    .description('Programmatic video: render JSON specs and code compositions to verified video files.')
    .version(kinoVersion(), '-V, --version', 'print the version')
    .showHelpAfterError('(run "kino --help" for usage)')
    .exitOverride();
  const aspectOption = () =>
    new Option('--aspect <aspect>', "output aspect (default: the spec's, else reels)").choices(ASPECT_NAMES);

  const render = program
    .command('render')
    .description('Render a spec (.json), a composition (.ts) or a registered key to a verified video file')
    .argument('<input>', 'spec.json, composition.ts, or a composition key of the render project')
    .option('-o, --output <file>', 'output file (default: <name>.<ext> in the current directory)')
    .addOption(new Option('-f, --format <format>', 'output format').choices(OUTPUT_FORMATS).default('mp4'))
    .addOption(new Option('-q, --quality <quality>', 'quality level').choices(QUALITIES).default('standard'))
    .addOption(aspectOption())
    .option(
      '--poster <time>',
      'also write a poster image of the frame at this time, e.g. 1.5s',
      parseTimeOption,
    )
    .option('--frames <n>', 'render only the first n frames', parseWholeNumber)
    .option(
      '--concurrency <n>',
      'threads that draw frames, 1–16 (default RENDER_THREADS, else chosen by measuring the first frames, up to one per core)',
      parseRasterThreadsOption,
    )
    .option('--json', 'print the result (path, bytes, sha256, probe, timings, receipt) as JSON')
    .option('--no-receipt', 'do not write <output>.render.json beside the video');
  addEncoderOptions(addVariableOptions(render)).action(renderCommand);

  const frame = program
    .command('frame')
    .description('Render one frame to a PNG')
    .argument('<input>', 'spec.json, composition.ts, or a composition key')
    .requiredOption('--frame <n>', 'frame number (0-based)', parseWholeNumber)
    .option('-o, --output <file>', 'output PNG (default: <name>.frame<n>.png)')
    .addOption(aspectOption());
  addVariableOptions(frame).action(frameCommand);

  program
    .command('serve')
    .description('Run the render API (configured by environment variables; see the README)')
    .option('--port <n>', 'port to listen on (default PORT, else 8080)', parseWholeNumber)
    .option('--host <host>', 'address to bind (default HOST, else 127.0.0.1; 0.0.0.0 for all)')
    .action(async (opts: { port?: number; host?: string }) => {
      const { serve } = await import('../api/serve.ts');
      const { mcpRoutes } = await import('../mcp/http-route.ts');
      await serve({ ...opts, mcpRoutes });
    });

  program
    .command('worker')
    .description(
      'Take renders from the shared Redis queue (QUEUE_BACKEND=redis, REDIS_URL; see the README, "Scale out")',
    )
    .option(
      '--concurrency <n>',
      'renders at once (default RENDER_CONCURRENCY, else 1)',
      parseWorkerConcurrency,
    )
    .action(async (opts: { concurrency?: number }) => {
      const { runWorker } = await import('./worker-command.ts');
      process.exitCode = await runWorker(opts);
    });

  program
    .command('mcp')
    .description(
      'Run the MCP server on stdio, for an MCP client (Claude, Cursor, …) to start; see the README',
    )
    .option('--out <dir>', 'where renders and frames go', './kino-out')
    .option(
      '--project <dir>',
      'the render project (default RENDER_PROJECT, else the project around this folder, else the examples)',
    )
    .action(async (opts: { out: string; project?: string }) => {
      const { serveMcpStdio } = await import('../mcp/stdio.ts');
      process.exitCode = await serveMcpStdio(opts);
    });

  program
    .command('schema')
    .description('Print the video spec JSON Schema (draft 2020-12)')
    .option('-o, --output <file>', 'write it to a file instead')
    .action(async (opts: { output?: string }) => {
      const { videoSpecJsonSchema } = await import('../../shared/spec/json-schema.ts');
      const text = JSON.stringify(videoSpecJsonSchema(), null, 2) + '\n';
      if (opts.output) await writeFile(opts.output, text);
      else process.stdout.write(text);
    });

  registerWorkspaceCommand(program);
  registerSessionCommand(program);
  registerPreviewCommand(program);
  registerStudioCommand(program);
  registerReviewCommand(program);
  registerDoctorCommand(program);
  registerAuthoringCommands(program);
  registerTemplatesCommand(program);
  registerCaptionsCommand(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(normalizeSessionArgv(argv), { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander already printed its message; help and version are successful exits.
      // Asked-for help and the version are successful exits; help shown because a command is missing
      // (commander.help) is a usage error.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      return EXIT_USAGE;
    }
    if (error instanceof SessionUsageError) {
      process.stderr.write(`error: ${error.message}\n`);
      return EXIT_USAGE;
    }
    if (error instanceof SessionExit) {
      if (error.message) process.stderr.write(error.message + '\n');
      return error.exitCode;
    }
    const { describeError } = await import('../engine/describe-error.ts');
    process.stderr.write(describeError(error) + '\n');
    return EXIT_FAILURE;
  }
}
