// `kino preview --open`: hands the URL to the desktop's default browser. Best effort: a machine
// without one (a server, a container) still has the printed URL.
import { spawn } from 'node:child_process';

function opener(url: string): [string, string[]] {
  if (process.platform === 'darwin') return ['open', [url]];
  // `start` is a cmd built-in; the empty string is its window-title argument.
  if (process.platform === 'win32') return ['cmd', ['/c', 'start', '""', url]];
  return ['xdg-open', [url]];
}

/** Starts the browser; `onError` hears why it could not (no opener installed, say). */
export function openInBrowser(url: string, onError: (error: Error) => void = () => {}): void {
  const [command, args] = opener(url);
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', onError);
    child.unref();
  } catch (error) {
    onError(error as Error);
  }
}
