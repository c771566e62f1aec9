// The desktop app's command line: `kino-desktop [file] [--headless] [--api-port N]`. Anything else
// that starts with "-" is left alone: Chromium and the OS add their own switches (--no-sandbox,
// macOS's -psn_...), and refusing them would stop the app from starting.
export interface DesktopArgs {
  /** The composition to open, as given (relative to the launching directory). */
  file?: string;
  /** Run the render API with no window, as `kino serve` does. */
  headless: boolean;
  apiPort?: number;
}

export class ArgsError extends Error {
  override name = 'ArgsError';
}

function parsePort(text: string | undefined): number {
  if (text === undefined || !/^\d{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 65535) {
    throw new ArgsError(
      `--api-port expects a port number from 1 to 65535, got ${JSON.stringify(text ?? '')}`,
    );
  }
  return Number(text);
}

/**
 * The user's part of process.argv: after the executable, and after the app folder too when the app
 * runs unpackaged (`electron .`, where process.defaultApp is true).
 */
export function userArgs(argv: readonly string[], defaultApp: boolean): string[] {
  return argv.slice(defaultApp ? 2 : 1);
}

export function parseDesktopArgs(args: readonly string[]): DesktopArgs {
  const parsed: DesktopArgs = { headless: false };
  let positionalOnly = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!positionalOnly && arg === '--') {
      positionalOnly = true;
    } else if (!positionalOnly && arg === '--headless') {
      parsed.headless = true;
    } else if (!positionalOnly && arg === '--api-port') {
      parsed.apiPort = parsePort(args[++i]);
    } else if (!positionalOnly && arg.startsWith('--api-port=')) {
      parsed.apiPort = parsePort(arg.slice('--api-port='.length));
    } else if (!positionalOnly && arg.startsWith('-')) {
      continue;
    } else if (parsed.file === undefined) {
      // A file manager may pass several files; the app works on one at a time and takes the first.
      parsed.file = arg;
    }
  }
  if (parsed.headless && parsed.file !== undefined) {
    throw new ArgsError('--headless runs the render API only; leave out the file');
  }
  return parsed;
}
