// Where the ffmpeg and ffprobe executables are. They ship inside npm packages, but npm may skip the
// packages' install scripts that set the execute bit, so a binary is made executable here or, when
// its file cannot be changed, copied into a user cache with the right mode.
import { execFile } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  renameSync,
  statSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export type ToolName = 'ffmpeg' | 'ffprobe';

const ENV_OVERRIDE: Record<ToolName, string> = { ffmpeg: 'FFMPEG_PATH', ffprobe: 'FFPROBE_PATH' };

export class MissingBinaryError extends Error {
  override name = 'MissingBinaryError';
}

const resolved = new Map<ToolName, string>();

export function ffmpegPath(): string {
  return toolPath('ffmpeg');
}

export function ffprobePath(): string {
  return toolPath('ffprobe');
}

function toolPath(tool: ToolName): string {
  const cached = resolved.get(tool);
  if (cached) return cached;
  const path = locateTool(tool, process.env);
  resolved.set(tool, path);
  return path;
}

/** Finds a tool: the environment override wins, else the binary shipped by the npm package. */
export function locateTool(tool: ToolName, env: NodeJS.ProcessEnv, cacheDir = binaryCacheDir(env)): string {
  const variable = ENV_OVERRIDE[tool];
  const override = env[variable];
  if (override) {
    if (!existsSync(override)) {
      throw new MissingBinaryError(
        `${variable} points to ${override}, which does not exist; fix or unset ${variable}.`,
      );
    }
    return ensureExecutable(override, cacheDir);
  }
  const bundled = bundledBinary(tool);
  if (!bundled || !existsSync(bundled)) {
    throw new MissingBinaryError(
      `${tool} was not found (the @${tool}-installer package has no binary for ${process.platform}-${process.arch}); install ${tool} and set ${variable} to its path.`,
    );
  }
  return ensureExecutable(bundled, cacheDir);
}

function bundledBinary(tool: ToolName): string | undefined {
  const require = createRequire(import.meta.url);
  const platformPackage = `@${tool}-installer/${process.platform}-${process.arch}`;
  try {
    const packageDir = dirname(require.resolve(`${platformPackage}/package.json`));
    return join(packageDir, process.platform === 'win32' ? `${tool}.exe` : tool);
  } catch {
    return undefined;
  }
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
  const [ffmpeg, ffprobe] = await Promise.all([
    firstLineVersion(ffmpegPath()),
    firstLineVersion(ffprobePath()),
  ]);
  return { ffmpeg, ffprobe };
}
