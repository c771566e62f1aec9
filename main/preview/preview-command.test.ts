// `kino preview` as a user runs it: prints the URL, serves, and stops cleanly on Ctrl+C.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestProject } from './test-project.fixture.ts';
import type { TestProject } from './test-project.fixture.ts';

const KINO_BIN = fileURLToPath(new URL('../cli/kino.mjs', import.meta.url));

let project: TestProject | undefined;
afterEach(() => project?.cleanup());

function runPreview(args: string[]) {
  const child = spawn(process.execPath, [KINO_BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]+\//.exec(stdout);
      if (match) resolve(match[0]);
    });
    void exited.then(() => reject(new Error(`exited before printing a URL:\n${stdout}\n${stderr}`)));
  });
  url.catch(() => undefined); // handled by whoever awaits it; runs that fail on purpose never do
  return { child, url, exited, output: () => ({ stdout, stderr }) };
}

describe('kino preview', () => {
  it('prints the URL, serves the preview, and exits 0 on Ctrl+C', async () => {
    project = makeTestProject();
    const run = runPreview(['preview', project.composition]);
    const url = await run.url;
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<canvas');
    // An open event stream must not keep the process alive after Ctrl+C.
    const events = await fetch(new URL('events', url));
    expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(run.output().stdout).toContain(`Previewing ${project.composition} at ${url}`);
  });

  it('refuses a bad port and a missing file', async () => {
    project = makeTestProject();
    const badPort = runPreview(['preview', project.composition, '--port', '70000']);
    expect(await badPort.exited).not.toBe(0);
    expect(badPort.output().stderr).toMatch(/port number/);
    const missing = runPreview(['preview', `${project.root}/missing.ts`]);
    expect(await missing.exited).toBe(1);
    expect(missing.output().stderr).toMatch(/not found/);
  });
});
