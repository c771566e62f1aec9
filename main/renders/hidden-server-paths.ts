// The server folders a remote caller (the API, MCP over HTTP) must not learn from a message, and
// the names it reads instead. Home and the temporary folder come last as a net: a worker on another
// machine may keep its files elsewhere under them.
import { realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import type { HiddenPath } from '../http/hidden-paths.ts';
import { mediaCacheDir } from '../engine/project-context.ts';
import type { ServerConfig } from './config.ts';

/** A folder as configured and, when a symlink leads there, as the file system resolves it. */
function spellings(folder: string): string[] {
  try {
    const real = realpathSync.native(folder);
    return real === folder ? [folder] : [folder, real];
  } catch {
    return [folder];
  }
}

export function hiddenServerPaths(config: ServerConfig): HiddenPath[] {
  const named: [string, string][] = [
    [config.renderProject, '<render project>'],
    [config.dataDir, '<data dir>'],
    [config.localStorageDir, '<storage dir>'],
    [mediaCacheDir(), '<media cache>'],
    [path.dirname(mediaCacheDir()), '<cache>'],
    [tmpdir(), '<tmp>'],
    [homedir(), '<home>'],
  ];
  return named.flatMap(([folder, as]) => spellings(folder).map((spelling) => ({ path: spelling, as })));
}
