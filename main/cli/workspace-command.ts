// `kino workspace <file.ts>`: serves one composition on loopback until Ctrl+C or SIGTERM.
import type { Command } from 'commander';
import { parsePositiveSeconds } from './option-parsers.ts';

export function registerWorkspaceCommand(program: Command): void {
  program
    .command('workspace')
    .description('Serve one composition on loopback for "kino session" (frame, review, inspect, render)')
    .argument('<file.ts>', 'the composition source file')
    .option(
      '--startup-timeout <s>',
      'seconds the worker may take to compile and load (default 300)',
      parsePositiveSeconds,
    )
    .option(
      '--request-timeout <s>',
      'seconds one request may run before its worker is stopped (default 300)',
      parsePositiveSeconds,
    )
    .action(async (file: string, opts: { startupTimeout?: number; requestTimeout?: number }) => {
      const [{ startWorkspace }, studioModules] = await Promise.all([
        import('../workspace/server.ts'),
        Promise.all([
          import('../studio/workspace-studio.ts'),
          import('../studio/ui-files.ts'),
          import('../studio/user-data-dir.ts'),
          import('../studio/app-version.ts'),
        ]),
      ]);
      const [
        { workspaceStudio },
        { STUDIO_UI_DIR, studioUiIsStale },
        { defaultUserDataDir },
        { kinoVersion },
      ] = studioModules;
      // Its studio too (`kino studio --attach`), when the UI is built: this never waits for a build.
      const studio = (await studioUiIsStale())
        ? undefined
        : workspaceStudio({
            source: file,
            dataDir: defaultUserDataDir(),
            appVersion: kinoVersion(),
            uiDir: STUDIO_UI_DIR,
          });
      const workspace = await startWorkspace({
        source: file,
        startupTimeoutSeconds: opts.startupTimeout,
        requestTimeoutSeconds: opts.requestTimeout,
        extensions: studio ? [studio.extension] : [],
      });
      const { descriptor } = workspace;
      studio?.host.serving(
        { endpoint: workspace.endpoint, token: descriptor.token, source: descriptor.source },
        workspace.resultsDir,
      );
      process.stdout.write(
        `Kino workspace for ${descriptor.source}\n` +
          `  ${workspace.endpoint}\n` +
          `  descriptor ${workspace.descriptorPath}\n` +
          `  results    ${workspace.resultsDir}\n` +
          (studio ? `  studio     kino studio --attach ${workspace.descriptorPath}\n` : '') +
          `Try: kino session ${workspace.descriptorPath} status   (Ctrl+C stops the workspace)\n`,
      );
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          void workspace.close().then(resolve, resolve);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });
}
