// Where the studio keeps its settings and recent files when it runs in the browser (`kino studio`):
// the platform's per-user config folder. The desktop app uses Electron's userData folder instead,
// which is the same place on macOS and Windows.
import { homedir } from 'node:os';
import path from 'node:path';

export function defaultUserDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', 'Kino');
  if (platform === 'win32') {
    return path.win32.join(env.APPDATA || path.win32.join(home, 'AppData', 'Roaming'), 'Kino');
  }
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(home, '.config');
  return path.posix.join(base, 'kino');
}
