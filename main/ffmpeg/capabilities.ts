// What Kino needs from an ffmpeg build, and how to tell whether a pair of binaries has it: the
// version (5.1 or newer for the system's pair) and the encoders the output formats use. Probing is
// synchronous because binary resolution is; it costs one `ffmpeg -encoders` and one `ffprobe -version`.
import { spawnSync } from 'node:child_process';

/** The oldest release of the system's ffmpeg that Kino uses; older ones lose to the bundled pair. */
export const MIN_FFMPEG_VERSION = { major: 5, minor: 1 } as const;
/** libavcodec's version in ffmpeg 5.1: how a git snapshot ("N-…") that names no release is dated. */
const MIN_LIBAVCODEC = { major: 59, minor: 37 } as const;

export interface RequiredEncoder {
  name: string;
  /** What Kino encodes with it (main/encoder/encoder-args.ts). */
  use: string;
}

/** Every encoder main/encoder/encoder-args.ts asks for (main/encoder/required-encoders.test.ts checks). */
export const REQUIRED_ENCODERS: readonly RequiredEncoder[] = [
  { name: 'libx264', use: 'mp4 video (H.264)' },
  { name: 'aac', use: 'mp4 audio' },
  { name: 'libvpx-vp9', use: 'transparent webm video (VP9 with alpha)' },
  { name: 'libopus', use: 'transparent webm audio' },
  { name: 'prores_ks', use: 'mov video (ProRes 4444)' },
  { name: 'pcm_s16le', use: 'mov audio' },
  { name: 'gif', use: 'gif' },
];

export interface BuildProbe {
  /** What `ffmpeg -version` calls itself, e.g. "5.1.9-0+deb12u1" or "N-47683-g0e8eb07980-static". */
  ffmpegVersion: string;
  ffprobeVersion: string;
  /** libavcodec's major.minor.micro, e.g. "59.37.100", when the banner shows it. */
  libavcodec: string | undefined;
  /** Names of every encoder `ffmpeg -encoders` lists. */
  encoders: string[];
}

export class ProbeError extends Error {
  override name = 'ProbeError';
}

/** "ffmpeg version 5.1.9-0+deb12u1 Copyright…" → "5.1.9-0+deb12u1". */
export function parseVersionLine(text: string, tool: string): string | undefined {
  return new RegExp(`^${tool} version (\\S+)`, 'm').exec(text)?.[1];
}

export function parseLibavcodec(text: string): string | undefined {
  const match = /^\s*libavcodec\s+(\d+)\.\s*(\d+)\.\s*(\d+)/m.exec(text);
  return match ? `${match[1]}.${match[2]}.${match[3]}` : undefined;
}

/** The names in `ffmpeg -encoders`' table (the lines after " ------"). */
export function parseEncoderList(text: string): string[] {
  const table = text.split(/^\s*-{6}\s*$/m)[1] ?? '';
  const names: string[] = [];
  for (const line of table.split('\n')) {
    const match = /^\s*[VAS][A-Z.]{5}\s+(\S+)/.exec(line);
    if (match) names.push(match[1]!);
  }
  return names;
}

function atLeast(found: { major: number; minor: number }, needed: { major: number; minor: number }): boolean {
  return found.major > needed.major || (found.major === needed.major && found.minor >= needed.minor);
}

/**
 * Whether the build is 5.1 or newer: by its release number ("5.1.9-…", "n6.1", "7.0.2-static"),
 * else, for a git snapshot, by its libavcodec. undefined when neither tells.
 */
export function isRecentEnough(probe: Pick<BuildProbe, 'ffmpegVersion' | 'libavcodec'>): boolean | undefined {
  const release = /^n?(\d+)\.(\d+)/.exec(probe.ffmpegVersion);
  if (release) return atLeast({ major: Number(release[1]), minor: Number(release[2]) }, MIN_FFMPEG_VERSION);
  const lib = probe.libavcodec && /^(\d+)\.(\d+)/.exec(probe.libavcodec);
  if (lib) return atLeast({ major: Number(lib[1]), minor: Number(lib[2]) }, MIN_LIBAVCODEC);
  return undefined;
}

export function missingEncoders(probe: Pick<BuildProbe, 'encoders'>): RequiredEncoder[] {
  const have = new Set(probe.encoders);
  return REQUIRED_ENCODERS.filter((encoder) => !have.has(encoder.name));
}

function runSync(path: string, args: string[]): { stdout: string; stderr: string } {
  const result = spawnSync(path, args, {
    encoding: 'utf8',
    timeout: 15_000,
    maxBuffer: 8 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  if (result.error) {
    throw new ProbeError(`${path} ${args.join(' ')} failed: ${result.error.message.split('\n')[0]}`);
  }
  if (result.status !== 0) {
    const last = result.stderr.trim().split('\n').pop()?.trim();
    const how = result.status === null ? `signal ${result.signal}` : `exit code ${result.status}`;
    throw new ProbeError(`${path} ${args.join(' ')} failed (${how})${last ? `: ${last.slice(0, 200)}` : ''}`);
  }
  return { stdout: result.stdout, stderr: result.stderr };
}

/**
 * Runs `ffmpeg -encoders` (its banner on stderr carries the version and libavcodec's) and
 * `ffprobe -version`. Throws ProbeError when either does not run or says nothing recognisable.
 */
export function probeBuild(ffmpeg: string, ffprobe: string): BuildProbe {
  const encoders = runSync(ffmpeg, ['-encoders']);
  const banner = `${encoders.stderr}\n${encoders.stdout}`;
  const ffmpegVersion = parseVersionLine(banner, 'ffmpeg');
  if (!ffmpegVersion) throw new ProbeError(`${ffmpeg} does not say which ffmpeg version it is`);
  const probeOut = runSync(ffprobe, ['-version']);
  const ffprobeVersion = parseVersionLine(`${probeOut.stdout}\n${probeOut.stderr}`, 'ffprobe');
  if (!ffprobeVersion) throw new ProbeError(`${ffprobe} does not say which ffprobe version it is`);
  return {
    ffmpegVersion,
    ffprobeVersion,
    libavcodec: parseLibavcodec(banner),
    encoders: parseEncoderList(encoders.stdout),
  };
}

/**
 * Why a system pair is not good enough for Kino, or undefined when it is: older than 5.1, an
 * encoder missing, or ffmpeg and ffprobe from different builds.
 */
export function unfitReason(ffmpeg: string, probe: BuildProbe): string | undefined {
  const recent = isRecentEnough(probe);
  const wanted = `${MIN_FFMPEG_VERSION.major}.${MIN_FFMPEG_VERSION.minor}`;
  if (recent === false) return `${ffmpeg} is ffmpeg ${probe.ffmpegVersion}, older than ${wanted}`;
  if (recent === undefined) {
    return `${ffmpeg} reports version "${probe.ffmpegVersion}", which cannot be told to be ${wanted} or newer`;
  }
  const missing = missingEncoders(probe);
  if (missing.length > 0) {
    return `${ffmpeg} (${probe.ffmpegVersion}) lacks the encoder${missing.length === 1 ? '' : 's'} ${missing.map((e) => e.name).join(', ')}`;
  }
  if (probe.ffprobeVersion !== probe.ffmpegVersion) {
    return `ffprobe beside ${ffmpeg} is ${probe.ffprobeVersion} but ffmpeg is ${probe.ffmpegVersion} (not one build)`;
  }
  return undefined;
}

/** The command that installs a new enough ffmpeg (with ffprobe) on this platform. */
export function installHint(platform: NodeJS.Platform = process.platform): string {
  switch (platform) {
    case 'darwin':
      return 'brew install ffmpeg';
    case 'win32':
      return 'winget install Gyan.FFmpeg';
    default:
      return 'sudo apt-get install ffmpeg (Debian 12 and Ubuntu 22.10 or newer ship 5.1+)';
  }
}
