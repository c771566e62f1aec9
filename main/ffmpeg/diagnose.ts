// What `kino doctor` reports about ffmpeg: which pair is used and why, their versions, and each
// encoder Kino needs, with a one-line fix for anything missing.
import { chooseTools, TOOL_NAMES } from './binaries.ts';
import type { ToolContext, ToolName, ToolSource } from './binaries.ts';
import { installHint, probeBuild, ProbeError, REQUIRED_ENCODERS } from './capabilities.ts';
import type { BuildProbe } from './capabilities.ts';

export interface ToolReport {
  path: string | undefined;
  version: string | undefined;
  /** Why the tool cannot be used (not found, does not run). */
  error: string | undefined;
}

export interface EncoderReport {
  name: string;
  use: string;
  found: boolean;
}

export interface Finding {
  what: string;
  /** One line: the command or setting that fixes it. */
  fix: string;
}

export interface ToolDiagnosis {
  /** Both tools run and ffmpeg has every encoder Kino uses. */
  ok: boolean;
  source: ToolSource;
  /** Why this pair (one line). */
  reason: string;
  ffmpeg: ToolReport;
  ffprobe: ToolReport;
  encoders: EncoderReport[];
  /** The first ffmpeg on PATH, whether or not it is used. */
  system:
    | { ffmpeg: string; ffprobe: string | undefined; version: string | undefined; unfit: string | undefined }
    | undefined;
  /** What stops Kino from working. */
  problems: Finding[];
  /** What works but could be better (the old npm fallback in use). */
  advice: Finding[];
}

export function diagnoseTools(context: ToolContext): ToolDiagnosis {
  const platform = context.platform ?? process.platform;
  const hint = installHint(platform);
  const choice = chooseTools(context);
  const tools = {} as Record<ToolName, ToolReport>;
  for (const tool of TOOL_NAMES) {
    const entry = choice.tools[tool];
    tools[tool] =
      'path' in entry
        ? { path: entry.path, version: undefined, error: undefined }
        : { path: undefined, version: undefined, error: entry.error };
  }
  const problems: Finding[] = [];
  const advice: Finding[] = [];
  for (const tool of TOOL_NAMES) {
    const error = tools[tool].error;
    if (error) problems.push({ what: error, fix: fixForSource(choice.source, hint) });
  }

  let probe: BuildProbe | undefined;
  if (tools.ffmpeg.path && tools.ffprobe.path) {
    try {
      probe =
        choice.source === 'system' && choice.system?.probe
          ? choice.system.probe
          : probeBuild(tools.ffmpeg.path, tools.ffprobe.path);
      tools.ffmpeg.version = probe.ffmpegVersion;
      tools.ffprobe.version = probe.ffprobeVersion;
    } catch (error) {
      if (!(error instanceof ProbeError)) throw error;
      problems.push({ what: error.message, fix: fixForSource(choice.source, hint) });
    }
  }

  const have = new Set(probe?.encoders ?? []);
  const encoders = REQUIRED_ENCODERS.map((e) => ({ ...e, found: have.has(e.name) }));
  if (probe) {
    for (const encoder of encoders.filter((e) => !e.found)) {
      problems.push({
        what: `ffmpeg has no ${encoder.name} encoder (${encoder.use})`,
        fix:
          choice.source === 'env'
            ? `point FFMPEG_PATH/FFPROBE_PATH at a build with ${encoder.name}, or unset them`
            : hint,
      });
    }
  }
  if (choice.source === 'npm' && problems.length === 0) {
    advice.push({
      what: `using the bundled npm ffmpeg (an old build) because ${choice.system?.unfit ?? 'there is no ffmpeg on PATH'}`,
      fix: hint,
    });
  }
  if (choice.source === 'system' && choice.system?.unfit) {
    advice.push({ what: choice.system.unfit, fix: hint });
  }

  const system = choice.system && {
    ffmpeg: choice.system.ffmpeg,
    ffprobe: choice.system.ffprobe,
    version: choice.system.probe?.ffmpegVersion,
    unfit: choice.system.unfit,
  };
  return {
    ok: problems.length === 0,
    source: choice.source,
    reason: choice.reason,
    ffmpeg: tools.ffmpeg,
    ffprobe: tools.ffprobe,
    encoders,
    system,
    problems,
    advice,
  };
}

function fixForSource(source: ToolSource, hint: string): string {
  switch (source) {
    case 'env':
      return 'fix or unset FFMPEG_PATH/FFPROBE_PATH';
    case 'npm':
      return `${hint} (or reinstall with npm ci)`;
    case 'system':
      return hint;
  }
}
