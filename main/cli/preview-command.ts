// `kino preview <file.ts>`: plays a composition in the browser with live reload (see main/preview).
import { InvalidArgumentError } from 'commander';
import type { Command } from 'commander';
import { untilStopped } from './until-stopped.ts';

function parsePort(value: string): number {
  const port = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new InvalidArgumentError('expected a port number, 0–65535');
  return port;
}

async function previewCommand(file: string, opts: { port?: number; open?: boolean }): Promise<void> {
  // Imported here: the preview server (Fastify, esbuild, chokidar) costs the other commands nothing.
  const [{ startPreviewServer }, { openInBrowser }] = await Promise.all([
    import('../preview/server.ts'),
    import('../preview/open-browser.ts'),
  ]);
  const server = await startPreviewServer({ file, port: opts.port });
  process.stdout.write(
    `Previewing ${file} at ${server.url}\n` +
      '  Reloads when the composition or its assets change. Ctrl+C stops.\n',
  );
  if (opts.open) {
    openInBrowser(server.url, (error) =>
      process.stderr.write(
        `kino: could not open a browser (${error.message}); open ${server.url} yourself\n`,
      ),
    );
  }
  await untilStopped();
  await server.close();
}

export function registerPreviewCommand(program: Command): Command {
  program
    .command('preview')
    .description('Play a composition (.ts) in the browser, reloading when its sources change')
    .argument('<file.ts>', 'composition file')
    .option('--port <n>', 'port to listen on at 127.0.0.1 (default: any free port)', parsePort)
    .option('--open', 'open the preview in the default browser')
    .action(previewCommand);
  return program;
}
