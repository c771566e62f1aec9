// Where the ffmpeg and ffprobe executables are. Both always come from one place, in this order:
// FFMPEG_PATH/FFPROBE_PATH; else the system's pair on PATH when it is ffmpeg 5.1 or newer with every
// encoder Kino uses; else the pair shipped in the @ffmpeg-installer/@ffprobe-installer npm packages
// (an old ffmpeg, with a one-line warning saying why the system's was not used). The system pair is
// probed at most once per process, and the verdict is kept in the user cache (keyed by the binaries'
// identity) so later processes only stat them. npm may skip the packages' install scripts that set
// the execute bit, so a package binary is made executable here or, when its file cannot be changed,
// copied into the cache with the right mode.
import { execFile } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { installHint, probeBuild, ProbeError, unfitReason } from './capabilities.ts';
import type { BuildProbe } from './capabilities.ts';

export type ToolName = 'ffmpeg' | 'ffprobe';
export const TOOL_NAMES: readonly ToolName[] = ['ffmpeg', 'ffprobe'];

/** Where the pair comes from: the environment override, the system's PATH, or the npm packages. */
export type ToolSource = 'env' | 'system' | 'npm';

const ENV_OVERRIDE: Record<ToolName, string> = { ffmpeg: 'FFMPEG_PATH', ffprobe: 'FFPROBE_PATH' };

export class MissingBinaryError extends Error {
  override name = 'MissingBinaryError';
}

/** What resolution reads; everything else (the machine's PATH, the npm packages) comes through it. */
export interface ToolContext {
  /** FFMPEG_PATH, FFPROBE_PATH, PATH (and KINO_CACHE_DIR/XDG_CACHE_HOME for the default cacheDir). */
  env: NodeJS.ProcessEnv;
  /** Where verdicts on the system pair and executable copies are kept. Default: binaryCacheDir(env). */
  cacheDir?: string | undefined;
  /** The npm pair. Default: the binaries of this platform's @ffmpeg-installer/@ffprobe-installer. */
  bundled?: Partial<Record<ToolName, string>> | undefined;
  platform?: NodeJS.Platform | undefined;
}

/** A pair found on PATH (ffprobe from the same directory as ffmpeg) and what probing it found. */
export interface SystemPair {
  ffmpeg: string;
  ffprobe: string | undefined;
  probe: BuildProbe | undefined;
  /** Why Kino does not use it; undefined when it does (or would, were an override not set). */
  unfit: string | undefined;
}

export interface ToolChoice {
  source: ToolSource;
  /** One line: why this pair. */
  reason: string;
  /** Each tool's path, or why it cannot be used (then asking for that tool throws). */
  tools: Record<ToolName, { path: string } | { error: string }>;
  /** The system pair as looked at; undefined when an override made looking unnecessary or none is on PATH. */
  system: SystemPair | undefined;
  /** The one-line warning for the npm fallback: why the system pair was not used and what to install. */
  warning: string | undefined;
}

/** Resolves both tools for the given context. Probes the system pair unless a verdict is cached. */
export function chooseTools(context: ToolContext): ToolChoice {
  const cacheDir = context.cacheDir ?? binaryCacheDir(context.env);
  const platform = context.platform ?? process.platform;
  const override = envChoice(context.env, cacheDir, platform);
  if (override) return override;

  const system = findSystemPair(context.env, platform, cacheDir);
  if (system && !system.unfit) {
    return {
      source: 'system',
      reason: `the system's ffmpeg ${system.probe!.ffmpegVersion} on PATH has every encoder Kino uses`,
      tools: { ffmpeg: { path: system.ffmpeg }, ffprobe: { path: system.ffprobe! } },
      system,
      warning: undefined,
    };
  }
  const why = system?.unfit ?? 'there is no ffmpeg on PATH';
  const bundled = context.bundled ?? { ffmpeg: bundledBinary('ffmpeg'), ffprobe: bundledBinary('ffprobe') };
  const npmMissing = TOOL_NAMES.filter((tool) => !bundled[tool] || !existsSync(bundled[tool]));
  if (npmMissing.length > 0) {
    const packages = npmMissing.map((tool) => `@${tool}-installer/${platform}-${process.arch}`).join(', ');
    if (system?.ffprobe && system.probe) {
      // Nothing better to fall back on: the system's pair, with the warning, beats no ffmpeg at all.
      return {
        source: 'system',
        reason: `the system's pair although ${why}: no bundled binary (${packages}) for this platform`,
        tools: { ffmpeg: { path: system.ffmpeg }, ffprobe: { path: system.ffprobe } },
        system,
        warning: `kino: warning: ${why}, and ${packages} has no binary for this platform; install ffmpeg 5.1 or newer: ${installHint(platform)}`,
      };
    }
    const error = `no usable ffmpeg: ${why}, and ${packages} has no binary for ${platform}-${process.arch}; install ffmpeg 5.1 or newer (${installHint(platform)}) or set FFMPEG_PATH and FFPROBE_PATH.`;
    return {
      source: 'npm',
      reason: error,
      tools: { ffmpeg: { error }, ffprobe: { error } },
      system,
      warning: undefined,
    };
  }
  const tools = Object.fromEntries(
    TOOL_NAMES.map((tool) => [tool, executableOrError(bundled[tool]!, cacheDir)]),
  ) as ToolChoice['tools'];
  return {
    source: 'npm',
    reason: `the bundled npm pair, because ${why}`,
    tools,
    system,
    warning: `kino: warning: using the bundled ffmpeg from npm (an old build) because ${why}; for a current one install ffmpeg 5.1 or newer: ${installHint(platform)}`,
  };
}

function executableOrError(path: string, cacheDir: string): { path: string } | { error: string } {
  try {
    return { path: ensureExecutable(path, cacheDir) };
  } catch (error) {
    if (error instanceof MissingBinaryError) return { error: error.message };
    throw error;
  }
}

/**
 * FFMPEG_PATH/FFPROBE_PATH. One set alone takes the other tool from the same directory (one build
 * for both), or says to set the second too; undefined when neither is set.
 */
function envChoice(
  env: NodeJS.ProcessEnv,
  cacheDir: string,
  platform: NodeJS.Platform,
): ToolChoice | undefined {
  const given = TOOL_NAMES.filter((tool) => env[ENV_OVERRIDE[tool]]);
  if (given.length === 0) return undefined;
  const tools = {} as ToolChoice['tools'];
  for (const tool of TOOL_NAMES) {
    const variable = ENV_OVERRIDE[tool];
    const value = env[variable];
    if (value) {
      tools[tool] = existsSync(value)
        ? executableOrError(value, cacheDir)
        : { error: `${variable} points to ${value}, which does not exist; fix or unset ${variable}.` };
      continue;
    }
    const other = given[0]!;
    const sibling = join(dirname(env[ENV_OVERRIDE[other]]!), executableName(tool, platform));
    tools[tool] = existsSync(sibling)
      ? executableOrError(sibling, cacheDir)
      : {
          error: `${ENV_OVERRIDE[other]} is set but ${variable} is not, and there is no ${tool} beside ${env[ENV_OVERRIDE[other]]}; set ${variable} too (Kino takes both tools from one build).`,
        };
  }
  return {
    source: 'env',
    reason: `set by ${given.map((tool) => ENV_OVERRIDE[tool]).join(' and ')}`,
    tools,
    system: undefined,
    warning: undefined,
  };
}

function executableName(tool: ToolName, platform: NodeJS.Platform): string {
  return platform === 'win32' ? `${tool}.exe` : tool;
}

function isExecutableFile(path: string): boolean {
  try {
    return statSync(path).isFile() && isExecutable(path);
  } catch {
    return false;
  }
}

/** The first ffmpeg on PATH, as a shell would find it, with ffprobe from the same directory. */
function findSystemPair(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  cacheDir: string,
): SystemPair | undefined {
  const dirs = (env.PATH ?? env.Path ?? '').split(platform === 'win32' ? ';' : delimiter).filter(Boolean);
  const dir = dirs.find((d) => isExecutableFile(join(d, executableName('ffmpeg', platform))));
  if (!dir) return undefined;
  const ffmpeg = join(dir, executableName('ffmpeg', platform));
  const ffprobe = join(dir, executableName('ffprobe', platform));
  if (!isExecutableFile(ffprobe)) {
    return { ffmpeg, ffprobe: undefined, probe: undefined, unfit: `${ffmpeg} has no ffprobe beside it` };
  }
  try {
    const probe = cachedProbe(ffmpeg, ffprobe, cacheDir);
    return { ffmpeg, ffprobe, probe, unfit: unfitReason(ffmpeg, probe) };
  } catch (error) {
    if (!(error instanceof ProbeError)) throw error;
    return { ffmpeg, ffprobe, probe: undefined, unfit: error.message };
  }
}

/** A verdict is trusted this long even when the binaries look unchanged (a shared library may not be). */
const PROBE_CACHE_MAX_AGE_MS = 7 * 24 * 3600_000;
const PROBE_CACHE_FILE = 'system-ffmpeg.json';

interface ProbeCacheFile {
  key: string;
  probedAt: number;
  probe: BuildProbe;
}

/** Identifies both binaries by path, inode, size and mtime: an upgrade changes the key. */
function probeKey(ffmpeg: string, ffprobe: string): string {
  return [ffmpeg, ffprobe]
    .map((path) => {
      const stats = statSync(path);
      return `${path}:${stats.ino}:${stats.size}:${Math.floor(stats.mtimeMs)}`;
    })
    .join('|');
}

function cachedProbe(ffmpeg: string, ffprobe: string, cacheDir: string): BuildProbe {
  const key = probeKey(ffmpeg, ffprobe);
  const file = join(cacheDir, PROBE_CACHE_FILE);
  try {
    const cached = JSON.parse(readFileSync(file, 'utf8')) as Partial<ProbeCacheFile>;
    const fresh =
      typeof cached.probedAt === 'number' && Date.now() - cached.probedAt < PROBE_CACHE_MAX_AGE_MS;
    if (cached.key === key && fresh && cached.probe && Array.isArray(cached.probe.encoders)) {
      return cached.probe;
    }
  } catch {
    // No verdict yet, or an unreadable one: probe.
  }
  const probe = probeBuild(ffmpeg, ffprobe);
  try {
    mkdirSync(cacheDir, { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, JSON.stringify({ key, probedAt: Date.now(), probe } satisfies ProbeCacheFile));
    renameSync(partial, file);
  } catch {
    // A read-only cache only means probing again in the next process.
  }
  return probe;
}

export interface ToolResolver {
  /** The choice, made on first use and kept; the warning (if any) is written then, once. */
  choice(): ToolChoice;
  /** The tool's path; throws MissingBinaryError when it cannot be used. */
  path(tool: ToolName): string;
}

/** Set in the environment once the fallback warning was printed, so forked workers stay quiet. */
const WARNED_VARIABLE = 'KINO_FFMPEG_FALLBACK_WARNED';

export function createToolResolver(
  context: () => ToolContext,
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): ToolResolver {
  let made: ToolChoice | undefined;
  const choice = (): ToolChoice => {
    if (made) return made;
    const ctx = context();
    made = chooseTools(ctx);
    if (made.warning && !ctx.env[WARNED_VARIABLE]) {
      warn(made.warning);
      ctx.env[WARNED_VARIABLE] = '1';
    }
    return made;
  };
  return {
    choice,
    path(tool) {
      const entry = choice().tools[tool];
      if ('error' in entry) throw new MissingBinaryError(entry.error);
      return entry.path;
    },
  };
}

const processTools = createToolResolver(() => ({ env: process.env }));

export function ffmpegPath(): string {
  return processTools.path('ffmpeg');
}

export function ffprobePath(): string {
  return processTools.path('ffprobe');
}

/** How this process resolved its tools (for `kino doctor`). */
export function toolChoice(): ToolChoice {
  return processTools.choice();
}

/** One tool as chooseTools would give it; throws MissingBinaryError when it cannot be used. */
export function locateTool(tool: ToolName, env: NodeJS.ProcessEnv, cacheDir = binaryCacheDir(env)): string {
  const entry = chooseTools({ env, cacheDir }).tools[tool];
  if ('error' in entry) throw new MissingBinaryError(entry.error);
  return entry.path;
}

function bundledBinary(tool: ToolName): string | undefined {
  const require = createRequire(import.meta.url);
  const platformPackage = `@${tool}-installer/${process.platform}-${process.arch}`;
  try {
    const packageDir = dirname(require.resolve(`${platformPackage}/package.json`));
    return join(packageDir, executableName(tool, process.platform));
  } catch {
    return undefined;
  }
}

/** The npm pair's paths (as shipped, before any executable copy), for benchmarks and packaging. */
export function bundledBinaries(): Partial<Record<ToolName, string>> {
  return { ffmpeg: bundledBinary('ffmpeg'), ffprobe: bundledBinary('ffprobe') };
}

export function binaryCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.KINO_CACHE_DIR) return join(env.KINO_CACHE_DIR, 'bin');
  return join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kino', 'bin');
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Returns a path to the same binary that can be executed: the file itself, once chmod worked, or a
 * copy in `cacheDir` with mode 0755 (keyed by size and mtime, so a new package version is copied anew).
 */
export function ensureExecutable(path: string, cacheDir: string): string {
  if (process.platform === 'win32' || isExecutable(path)) return path;
  try {
    chmodSync(path, statSync(path).mode | 0o111);
    if (isExecutable(path)) return path;
  } catch {
    // Read-only package directory or another owner: fall through to the cached copy.
  }
  const stats = statSync(path);
  const name = path.split(/[\\/]/).pop() ?? 'tool';
  const copy = join(cacheDir, `${name}-${stats.size}-${Math.floor(stats.mtimeMs)}`);
  if (isExecutable(copy)) return copy;
  try {
    mkdirSync(cacheDir, { recursive: true });
    const partial = `${copy}.${process.pid}.partial`;
    copyFileSync(path, partial);
    chmodSync(partial, 0o755);
    renameSync(partial, copy);
  } catch (error) {
    throw new MissingBinaryError(
      `${path} is not executable and could not be copied to ${cacheDir} (${(error as Error).message}); run chmod +x on it or set ${name === 'ffprobe' ? 'FFPROBE_PATH' : 'FFMPEG_PATH'}.`,
    );
  }
  return copy;
}

function firstLineVersion(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(path, ['-version'], { timeout: 15_000 }, (error, stdout) => {
      if (error) {
        reject(new MissingBinaryError(`${path} -version failed: ${error.message.split('\n')[0]}`));
        return;
      }
      const match = /version\s+(\S+)/.exec(stdout);
      resolve(match?.[1] ?? stdout.split('\n')[0]?.trim() ?? 'unknown');
    });
  });
}

/** The version strings the two tools report, e.g. for `kino doctor` or a bug report. */
export async function toolVersions(): Promise<{ ffmpeg: string; ffprobe: string }> {
  const { source, system } = toolChoice();
  // The system pair was probed already: no need to start both again (each start loads ~200 libraries).
  if (source === 'system' && system?.probe) {
    return { ffmpeg: system.probe.ffmpegVersion, ffprobe: system.probe.ffprobeVersion };
  }
  const [ffmpeg, ffprobe] = await Promise.all([
    firstLineVersion(ffmpegPath()),
    firstLineVersion(ffprobePath()),
  ]);
  return { ffmpeg, ffprobe };
}
