// `kino session <descriptor> <subcommand>`: drives a running workspace. Exit codes: 0 ok, 1 failure,
// 2 quality gate (strict quality and findings remain), 64 usage, 130 canceled (Ctrl+C).
import { variableOption } from './variable-options.ts';
import { addEncoderOptions, encoderSettingsOf } from './encoder-options.ts';
import type { EncoderOptions } from './encoder-options.ts';
import type { VariableOptions } from './variable-options.ts';
import { Command, InvalidArgumentError, Option } from 'commander';
import { OUTPUT_FORMATS, QUALITIES } from '../../shared/output/formats.ts';
import { FINDING_CODES, isFindingCode } from '../../shared/protocol/finding.ts';
import { ASPECT_NAMES } from '../../shared/spec/sizes.ts';
import { parsePositiveSeconds, parseTimeOption, parseWholeNumber } from './option-parsers.ts';
import type { SessionDescriptor } from '../session/descriptor.ts';
import {
  formatFrame,
  formatInspect,
  formatProblem,
  formatRender,
  formatReview,
  formatStatus,
} from '../session/format.ts';
import { DEFAULT_REVIEW_FRAMES, MAX_REVIEW_FRAMES } from '../../shared/protocol/review-frames.ts';
import type {
  FrameAnswer,
  InspectAnswer,
  RenderAnswer,
  ReviewAnswer,
  SourceText,
  WorkspaceJob,
  WorkspaceStatus,
} from '../../shared/protocol/workspace.ts';
import type { ProblemBody } from '../../shared/protocol/problem.ts';

export const EXIT_QUALITY_GATE = 2;
/** 128 + SIGINT, as a shell reports a command stopped by Ctrl+C. */
export const EXIT_CANCELED = 130;
const DEFAULT_SESSION_TIMEOUT_SECONDS = 900;

/** Set by an action whose exit code is not 0 or a thrown failure (the quality gate). */
export class SessionExit extends Error {
  readonly exitCode: number;
  constructor(exitCode: number, message: string) {
    super(message);
    this.exitCode = exitCode;
  }
}

function findingCodes(value: string): string[] {
  const codes = value
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const unknown = codes.filter((c) => !isFindingCode(c));
  if (unknown.length > 0) {
    throw new InvalidArgumentError(
      `unknown finding code ${unknown.join(', ')}; known: ${FINDING_CODES.join(', ')}`,
    );
  }
  return codes;
}

/**
 * Sends the job; Ctrl+C closes the request, which cancels the job on the workspace (it stops the
 * operation and keeps none of its files). A second Ctrl+C is not caught: it ends the CLI at once.
 */
async function submitJob(descriptor: SessionDescriptor, body: WorkspaceJob, timeoutSeconds: number) {
  const { SessionCanceledError, callWorkspace } = await import('../session/client.ts');
  const interrupt = new AbortController();
  const onInterrupt = () => interrupt.abort();
  process.once('SIGINT', onInterrupt);
  try {
    return await callWorkspace(descriptor, 'POST', '/jobs', body, timeoutSeconds, interrupt.signal);
  } catch (error) {
    if (!(error instanceof SessionCanceledError)) throw error;
    throw new SessionExit(
      EXIT_CANCELED,
      `kino: canceled (Ctrl+C); the workspace stops the ${body.operation} and keeps none of its files`,
    );
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

interface SessionOptions {
  revision?: string;
  timeout: number;
  allowQuality?: string[];
  strictQuality?: boolean;
  json?: boolean;
}

type Subcommand = 'status' | 'source' | 'frame' | 'review' | 'inspect' | 'render';

async function runSession(
  descriptorPath: string,
  subcommand: Subcommand,
  job: Omit<WorkspaceJob, 'operation'>,
  opts: SessionOptions,
): Promise<void> {
  // The HTTP client (undici) and the descriptor's checks (node:http, through the loopback guard)
  // are imported when a session command runs, not when the CLI starts.
  const [{ callWorkspace }, { readSessionDescriptor }] = await Promise.all([
    import('../session/client.ts'),
    import('../session/descriptor.ts'),
  ]);
  const descriptor = await readSessionDescriptor(descriptorPath);
  const write = (text: string) => {
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  };
  let answer;
  if (subcommand === 'status' || subcommand === 'source') {
    answer = await callWorkspace(descriptor, 'GET', `/${subcommand}`, undefined, opts.timeout);
    const current = answer.body.sourceRevision;
    if (answer.status < 400 && opts.revision && current !== opts.revision) {
      throw new SessionExit(
        1,
        `kino: the source is at revision ${String(current)}, not ${opts.revision}; capture again at ${String(current)} (or leave out --revision)`,
      );
    }
  } else {
    const body: WorkspaceJob = {
      operation: subcommand,
      ...job,
      ...(opts.revision ? { sourceRevision: opts.revision } : {}),
      ...(opts.allowQuality ? { allowQuality: opts.allowQuality as WorkspaceJob['allowQuality'] } : {}),
      ...(opts.strictQuality ? { strictQuality: true } : {}),
    };
    answer = await submitJob(descriptor, body, opts.timeout);
  }
  const { status, body } = answer;
  if (status >= 400) {
    if (opts.json) write(JSON.stringify(body, null, 2));
    const exitCode = body.code === 'quality_gate' ? EXIT_QUALITY_GATE : 1;
    throw new SessionExit(
      exitCode,
      opts.json ? '' : formatProblem(body as Partial<ProblemBody>, descriptorPath),
    );
  }
  if (opts.json) {
    write(JSON.stringify(body, null, 2));
    return;
  }
  // A 2xx answer is the one shared/protocol/workspace.ts declares for the request made.
  const formatted: Record<Subcommand, () => string> = {
    status: () => formatStatus(body as unknown as WorkspaceStatus),
    source: () => (body as unknown as SourceText).text,
    frame: () => formatFrame(body as unknown as FrameAnswer),
    review: () => formatReview(body as unknown as ReviewAnswer, descriptorPath),
    inspect: () => formatInspect(body as unknown as InspectAnswer),
    render: () => formatRender(body as unknown as RenderAnswer, descriptorPath),
  };
  // The source is printed exactly as it is; everything else as lines.
  if (subcommand === 'source') process.stdout.write(formatted.source());
  else write(formatted[subcommand]());
}

export class SessionUsageError extends Error {
  override name = 'SessionUsageError';
}

const SUBCOMMANDS: readonly string[] = ['status', 'source', 'frame', 'review', 'inspect', 'render'];

/**
 * `kino session <descriptor> <subcommand>` puts the descriptor first, which commander cannot route;
 * internally the subcommand comes first and takes the descriptor as its argument.
 */
export function normalizeSessionArgv(argv: readonly string[]): string[] {
  if (argv[0] !== 'session') return [...argv];
  const [, first, second] = argv;
  if (first !== undefined && !first.startsWith('-') && !SUBCOMMANDS.includes(first)) {
    if (second === undefined || second.startsWith('-')) {
      throw new SessionUsageError(
        `missing subcommand: kino session ${first} <${SUBCOMMANDS.join('|')}> (see "kino session --help")`,
      );
    }
    if (!SUBCOMMANDS.includes(second)) {
      throw new SessionUsageError(`unknown subcommand "${second}": use one of ${SUBCOMMANDS.join(', ')}`);
    }
  }
  if (argv.length < 3) return [...argv];
  if (SUBCOMMANDS.includes(argv[1]!) || !SUBCOMMANDS.includes(argv[2]!)) return [...argv];
  return ['session', argv[2]!, argv[1]!, ...argv.slice(3)];
}

export function registerSessionCommand(program: Command): void {
  const session = new Command('session')
    .usage('<descriptor> <subcommand> [options]')
    .description(
      'Drive a running workspace (see "kino workspace"): status, source, frame, review, inspect, render',
    )
    .addHelpText(
      'after',
      '\nExit codes: 0 ok, 1 failure, 2 quality gate (--strict-quality and findings remain), 64 usage, 130 canceled (Ctrl+C).',
    );
  // Usage errors and help behave as for every other command (exit 64, no stack trace).
  session.copyInheritedSettings(program);
  // Listed as typed (normalizeSessionArgv takes the descriptor first), the way the README shows it.
  session.configureHelp({
    subcommandTerm: (command) =>
      command.name() === 'help' ? 'help [command]' : `<descriptor> ${command.name()} [options]`,
  });
  const shared = (command: Command) =>
    command
      .option('--revision <sourceRevision>', 'refuse to run unless the source is still at this revision')
      .option(
        '--timeout <seconds>',
        'whole-request budget',
        parsePositiveSeconds,
        DEFAULT_SESSION_TIMEOUT_SECONDS,
      )
      .option(
        '--allow-quality <codes>',
        'comma-separated finding codes that are intentional here',
        findingCodes,
      )
      .option('--strict-quality', 'fail (exit 2) when any finding that is not allowed remains')
      .option('--json', 'print the workspace answer as JSON, as it is');
  const aspect = () => new Option('--aspect <aspect>', 'output aspect').choices(ASPECT_NAMES);
  /** A template's values, for the operations that mount the composition. */
  const withVariables = (opts: VariableOptions) =>
    opts.var
      ? { variables: Object.fromEntries(Object.entries(opts.var).map(([name, value]) => [name, value.text])) }
      : {};

  const sub = (name: Subcommand, description: string) =>
    shared(
      session
        .command(name)
        .usage(`[options]   (as: kino session <descriptor> ${name})`)
        .description(description)
        .argument('<descriptor>', 'the session.json the workspace printed'),
    );

  sub('status', 'source path, revision, worker state and queue').action(function (
    descriptor: string,
    opts: SessionOptions,
  ) {
    return runSession(descriptor, 'status', {}, opts);
  });
  sub('source', 'print the composition source').action(function (descriptor: string, opts: SessionOptions) {
    return runSession(descriptor, 'source', {}, opts);
  });
  sub('frame', 'draw one frame to a PNG in the results folder')
    .requiredOption('--frame <n>', 'frame number (0-based)', parseWholeNumber)
    .addOption(aspect())
    .addOption(variableOption())
    .action(function (
      descriptor: string,
      opts: SessionOptions & VariableOptions & { frame: number; aspect?: string },
    ) {
      return runSession(
        descriptor,
        'frame',
        {
          frameIndex: opts.frame,
          ...(opts.aspect ? { aspect: opts.aspect as WorkspaceJob['aspect'] } : {}),
          ...withVariables(opts),
        },
        opts,
      );
    });
  sub('review', 'sample frames and report findings')
    .option(
      '--review-frames <n>',
      `frames to sample (1–${MAX_REVIEW_FRAMES}, default ${DEFAULT_REVIEW_FRAMES})`,
      parseWholeNumber,
    )
    .option('--determinism', 'draw every sample again in a fresh mount and compare hashes')
    .addOption(aspect())
    .addOption(variableOption())
    .action(function (
      descriptor: string,
      opts: SessionOptions &
        VariableOptions & { reviewFrames?: number; determinism?: boolean; aspect?: string },
    ) {
      return runSession(
        descriptor,
        'review',
        {
          ...(opts.reviewFrames === undefined ? {} : { reviewFrames: opts.reviewFrames }),
          ...(opts.determinism ? { reviewDeterminism: true } : {}),
          ...(opts.aspect ? { aspect: opts.aspect as WorkspaceJob['aspect'] } : {}),
          ...withVariables(opts),
        },
        opts,
      );
    });
  sub('inspect', 'the mounted timeline, resources and warnings; with --frame, what is drawn there')
    .option('--frame <n>', 'frame to look at (0-based)', parseWholeNumber)
    .addOption(aspect())
    .addOption(variableOption())
    .action(function (
      descriptor: string,
      opts: SessionOptions & VariableOptions & { frame?: number; aspect?: string },
    ) {
      return runSession(
        descriptor,
        'inspect',
        {
          ...(opts.frame === undefined ? {} : { frameIndex: opts.frame }),
          ...(opts.aspect ? { aspect: opts.aspect as WorkspaceJob['aspect'] } : {}),
          ...withVariables(opts),
        },
        opts,
      );
    });
  const render = sub('render', 'encode, verify with ffprobe, and write the file with its receipt')
    .option('--frames <n>', 'render only the first n frames', parseWholeNumber)
    .addOption(new Option('-f, --format <format>', 'output format').choices(OUTPUT_FORMATS))
    .addOption(new Option('-q, --quality <quality>', 'quality level').choices(QUALITIES))
    .addOption(aspect())
    .option(
      '--poster <time>',
      'also write a PNG of the frame at this time next to the video, e.g. 1.5s, 500ms, 45f',
      parseTimeOption,
    )
    .addOption(variableOption());
  addEncoderOptions(render).action(function (
    descriptor: string,
    opts: SessionOptions &
      VariableOptions &
      EncoderOptions & {
        frames?: number;
        format?: string;
        quality?: string;
        aspect?: string;
        poster?: string;
      },
  ) {
    return runSession(
      descriptor,
      'render',
      {
        ...(opts.frames === undefined ? {} : { frameCount: opts.frames }),
        ...(opts.format ? { format: opts.format as WorkspaceJob['format'] } : {}),
        ...(opts.quality ? { quality: opts.quality as WorkspaceJob['quality'] } : {}),
        ...(opts.aspect ? { aspect: opts.aspect as WorkspaceJob['aspect'] } : {}),
        ...(opts.poster ? { poster: opts.poster } : {}),
        ...(encoderSettingsOf(opts) ? { encoder: encoderSettingsOf(opts)! } : {}),
        ...withVariables(opts),
      },
      opts,
    );
  });
  program.addCommand(session);
}
