// Encoder settings a user may choose over the quality level's (CLI flags, the API's options.encoder),
// declared in shared/output/encoder-settings.ts; and whether a hardware encoder chosen runs here.
// ffmpeg builds list hardware encoders they were compiled with whatever the machine has (Debian's
// lists h264_nvenc without a GPU), so a listed one is also tried on one generated frame.
import { parseEncoderList } from '../ffmpeg/capabilities.ts';
import { ffmpegPath } from '../ffmpeg/binaries.ts';
import { FfmpegError, runTool } from '../ffmpeg/run.ts';
import { isHardwareEncoder } from '../../shared/output/encoder-settings.ts';
import type { EncoderSettings, HardwareH264Encoder } from '../../shared/output/encoder-settings.ts';
import { hardwareTrialArgs } from './encoder-args.ts';

export type { EncoderSettings } from '../../shared/output/encoder-settings.ts';

/** A hardware encoder was chosen that this machine's ffmpeg does not list or cannot open. */
export class EncoderUnavailableError extends Error {
  override name = 'EncoderUnavailableError';
  readonly codec: string;

  constructor(codec: string, message: string) {
    super(message);
    this.codec = codec;
  }
}

/** The line of ffmpeg's stderr that says why, without its "[h264_nvenc @ 0x…]" prefix. */
function firstReason(error: unknown): string {
  const lines = error instanceof FfmpegError ? error.stderrTail : [];
  const line = lines.find((text) => text.trim() !== '') ?? (error instanceof Error ? error.message : '');
  return line
    .replace(/^\[[^\]]*\]\s*/, '')
    .trim()
    .slice(0, 200);
}

/** A wedged driver must not hang every request that asks for the encoder. */
const TRIAL_TIMEOUT_MS = 15_000;

async function trial(ffmpeg: string, codec: HardwareH264Encoder): Promise<string | undefined> {
  const listing = await runTool(ffmpeg, ['-hide_banner', '-encoders'], {
    captureStdout: true,
    signal: AbortSignal.timeout(TRIAL_TIMEOUT_MS),
  });
  if (!parseEncoderList(listing.stdout).includes(codec)) {
    return `${codec} is not available: this ffmpeg (${ffmpeg}) does not list it (ffmpeg -hide_banner -encoders); leave the encoder out to use libx264`;
  }
  try {
    await runTool(ffmpeg, hardwareTrialArgs(codec), { signal: AbortSignal.timeout(TRIAL_TIMEOUT_MS) });
    return undefined;
  } catch (error) {
    const reason =
      error instanceof Error && error.name === 'TimeoutError'
        ? `one test frame took over ${TRIAL_TIMEOUT_MS / 1000} s`
        : firstReason(error);
    return `${codec} is listed by this ffmpeg but cannot encode here (${reason}); leave the encoder out to use libx264`;
  }
}

/** One answer per ffmpeg and encoder for the life of the process: the hardware does not come and go. */
const verdicts = new Map<string, Promise<string | undefined>>();

/**
 * Why the hardware encoder chosen cannot run here, or undefined when it can or none is chosen
 * (libx264 is checked at start-up with the rest, by main/ffmpeg).
 */
export function hardwareEncoderProblem(
  settings: EncoderSettings | undefined,
  ffmpeg: string = ffmpegPath(),
): Promise<string | undefined> {
  const codec = settings?.codec;
  if (!isHardwareEncoder(codec)) return Promise.resolve(undefined);
  const key = `${ffmpeg}\0${codec}`;
  let verdict = verdicts.get(key);
  if (!verdict) {
    verdict = trial(ffmpeg, codec);
    verdicts.set(key, verdict);
    // A failure to run ffmpeg at all is not kept: the next request tries again.
    verdict.catch(() => verdicts.delete(key));
  }
  return verdict;
}

/** Throws EncoderUnavailableError when the hardware encoder chosen cannot run here. */
export async function assertEncoderAvailable(settings: EncoderSettings | undefined): Promise<void> {
  const problem = await hardwareEncoderProblem(settings);
  if (problem) throw new EncoderUnavailableError(settings!.codec!, problem);
}
