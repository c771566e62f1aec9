import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StudioInputError } from './errors.ts';
import { LazyPreviewSite, WorkspaceStudioHost } from './workspace-studio.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'kino-workspace-studio-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function hostFor(source: string): WorkspaceStudioHost {
  return new WorkspaceStudioHost({ source, dataDir: path.join(dir, 'data'), appVersion: '1.2.3' });
}

describe('WorkspaceStudioHost', () => {
  it('opens its own file once the workspace listens, and refuses any other in one line', async () => {
    const source = path.join(dir, 'intro.ts');
    const host = hostFor(source);
    expect(host.mode).toBe('browser');
    expect(host.connection()).toBeNull();
    const connection = { endpoint: 'http://127.0.0.1:4000', token: 't', source };
    host.serving(connection, path.join(dir, 'results'));
    expect(host.connection()).toBe(connection);
    await expect(host.open(source)).resolves.toBe(connection);
    const other = host.open(path.join(dir, 'outro.ts'));
    await expect(other).rejects.toBeInstanceOf(StudioInputError);
    await expect(other).rejects.toThrow(/workspace of intro\.ts: open outro\.ts with "kino studio /);
    await expect(host.newFromExample()).rejects.toThrow(/start a new video with "kino studio"/);
  });

  it('reveals the composition and its results only', async () => {
    const source = path.join(dir, 'intro.ts');
    writeFileSync(source, '');
    const results = path.join(dir, 'results');
    mkdirSync(path.join(results, 'renders'), { recursive: true });
    writeFileSync(path.join(results, 'renders', 'a.mp4'), '');
    writeFileSync(path.join(dir, 'secret.txt'), '');
    const host = hostFor(source);
    expect(await host.canReveal(path.join(results, 'renders', 'a.mp4'))).toBe(false); // not serving yet
    host.serving({ endpoint: 'http://127.0.0.1:4000', token: 't', source }, results);
    expect(await host.canReveal(source)).toBe(true);
    expect(await host.canReveal(path.join(results, 'renders', 'a.mp4'))).toBe(true);
    expect(await host.canReveal(path.join(dir, 'secret.txt'))).toBe(false);
    expect(await host.canReveal(path.join(results, '..', 'secret.txt'))).toBe(false);
  });
});

describe('LazyPreviewSite', () => {
  it('starts nothing until asked, and closes without having started', async () => {
    const site = new LazyPreviewSite(path.join(dir, 'intro.ts'));
    expect(site.started).toBe(false);
    await site.close();
    expect(site.started).toBe(false);
  });
});
