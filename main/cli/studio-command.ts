// `kino studio <file.ts|spec.json>`: the desktop app's UI in the browser. Serves the studio from the
// composition's workspace on loopback and opens it with the token in the URL fragment.
import type { Command } from 'commander';
import { untilStopped } from './until-stopped.ts';

interface StudioOptions {
  open: boolean;
  dataDir?: string;
}

async function studioCommand(file: string, opts: StudioOptions): Promise<void> {
  const [{ StudioHost }, { defaultUserDataDir }, { kinoVersion }, { studioUiDir }, { openInBrowser }] =
    await Promise.all([
      import('../studio/host.ts'),
      import('../studio/user-data-dir.ts'),
      import('../studio/app-version.ts'),
      import('../studio/build-ui.ts'),
      import('../preview/open-browser.ts'),
    ]);
  const uiDir = await studioUiDir((line) => process.stderr.write(`${line}\n`));
  const host = new StudioHost({
    dataDir: opts.dataDir ?? defaultUserDataDir(),
    mode: 'browser',
    appVersion: kinoVersion(),
    uiDir,
  });
  const connection = await host.open(file);
  // The fragment never reaches a server, a log or a Referer; the page moves it into the tab's storage.
  const url = `${connection.endpoint}/studio/#token=${encodeURIComponent(connection.token)}`;
  process.stdout.write(
    `Kino Studio for ${connection.source}\n` +
      `  ${url}\n` +
      "  The link carries this session's key: share it with no one. Ctrl+C stops the studio.\n",
  );
  if (opts.open) {
    openInBrowser(url, (error) =>
      process.stderr.write(
        `kino: could not open a browser (${error.message}); open the link above yourself\n`,
      ),
    );
  }
  await untilStopped();
  await host.close();
}

export function registerStudioCommand(program: Command): Command {
  program
    .command('studio')
    .description(
      'Open the Kino Studio UI for a composition (.ts) or a JSON spec or template (.json) in the browser',
    )
    .argument('<file>', 'composition (.ts) or spec (.json) file')
    .option('--no-open', 'print the link instead of opening the default browser')
    .option('--data-dir <dir>', 'where settings and recent files are kept (default: the user config folder)')
    .action(studioCommand);
  return program;
}
