// `kino studio <file.ts|spec.json>`: the desktop app's UI in the browser. Serves the studio from the
// composition's workspace on loopback and opens it with the token in the URL fragment. With
// `--attach <descriptor>` (or when `kino workspace` already serves the file) it opens that
// workspace's studio instead of starting another.
import type { Command } from 'commander';
import type { WorkspaceConnection } from '../../shared/studio/bridge.ts';
import { untilStopped } from './until-stopped.ts';

interface StudioOptions {
  open: boolean;
  dataDir?: string;
  attach?: string;
}

function openLink(url: string, open: boolean): Promise<void> {
  if (!open) return Promise.resolve();
  return import('../preview/open-browser.ts').then(({ openInBrowser }) =>
    openInBrowser(url, (error) =>
      process.stderr.write(
        `kino: could not open a browser (${error.message}); open the link above yourself\n`,
      ),
    ),
  );
}

/** The workspace `kino workspace` runs for `file`, if one does (its descriptor's path). */
async function runningWorkspaceFor(file: string): Promise<string | undefined> {
  const [{ projectForFile }, { runningWorkspace, workspacePaths }, path] = await Promise.all([
    import('../project/load.ts'),
    import('../workspace/descriptor.ts'),
    import('node:path'),
  ]);
  const source = path.resolve(file);
  const project = await projectForFile(source).catch(() => undefined);
  if (!project) return undefined;
  const descriptor = workspacePaths(project.root, source).descriptor;
  return (await runningWorkspace(descriptor)) ? descriptor : undefined;
}

/** Prints the link of a workspace's own studio and leaves it running there. */
async function attachCommand(descriptor: string, opts: StudioOptions): Promise<void> {
  const [{ attachToWorkspace }, { studioLink }] = await Promise.all([
    import('../studio/attach.ts'),
    import('../studio/studio-link.ts'),
  ]);
  const connection = await attachToWorkspace(descriptor);
  process.stdout.write(
    `Kino Studio for ${connection.source} (the workspace in ${descriptor})\n` +
      `  ${studioLink(connection)}\n` +
      "  The link carries the workspace's key: share it with no one. Stopping the workspace stops the studio.\n",
  );
  await openLink(studioLink(connection), opts.open);
}

async function studioCommand(file: string | undefined, opts: StudioOptions): Promise<void> {
  if (opts.attach) return attachCommand(opts.attach, opts);
  if (!file)
    throw new Error('name a composition (kino studio <file.ts>) or a workspace (--attach <descriptor>)');
  // One workspace per source: when `kino workspace` serves this file, its studio is the one to open.
  const running = await runningWorkspaceFor(file);
  if (running) return attachCommand(running, opts);

  const [{ StudioHost }, { defaultUserDataDir }, { kinoVersion }, { studioUiDir }, { studioLink }] =
    await Promise.all([
      import('../studio/host.ts'),
      import('../studio/user-data-dir.ts'),
      import('../studio/app-version.ts'),
      import('../studio/build-ui.ts'),
      import('../studio/studio-link.ts'),
    ]);
  const uiDir = await studioUiDir((line) => process.stderr.write(`${line}\n`));
  const host = new StudioHost({
    dataDir: opts.dataDir ?? defaultUserDataDir(),
    mode: 'browser',
    appVersion: kinoVersion(),
    uiDir,
    // The page moves itself to the new link; a reader of this terminal needs it too.
    onSwitched: (switched: WorkspaceConnection) =>
      process.stdout.write(`Kino Studio switched to ${switched.source}\n  ${studioLink(switched)}\n`),
  });
  const connection = await host.open(file);
  process.stdout.write(
    `Kino Studio for ${connection.source}\n` +
      `  ${studioLink(connection)}\n` +
      "  The link carries this session's key: share it with no one. Ctrl+C stops the studio.\n",
  );
  await openLink(studioLink(connection), opts.open);
  await untilStopped();
  await host.close();
}

export function registerStudioCommand(program: Command): Command {
  program
    .command('studio')
    .description(
      'Open the Kino Studio UI for a composition (.ts) or a JSON spec or template (.json) in the browser',
    )
    .argument('[file]', 'composition (.ts) or spec (.json) file')
    .option('--no-open', 'print the link instead of opening the default browser')
    .option('--data-dir <dir>', 'where settings and recent files are kept (default: the user config folder)')
    .option(
      '--attach <descriptor>',
      'open the studio of a running "kino workspace" (its session.json) instead of starting one',
    )
    .action(studioCommand);
  return program;
}
