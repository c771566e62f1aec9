import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_STUDIO_SETTINGS } from '../../shared/studio/bridge.ts';
import { StudioInputError } from './errors.ts';
import { SettingsStore } from './settings-store.ts';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'kino-settings-'));
  file = path.join(dir, 'data', 'settings.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('SettingsStore', () => {
  it('reads the defaults when nothing is saved', async () => {
    expect(await new SettingsStore(file).read()).toEqual(DEFAULT_STUDIO_SETTINGS);
  });

  it('merges an update over the saved settings and keeps it', async () => {
    const store = new SettingsStore(file);
    await store.update({ apiEnabled: true });
    const after = await store.update({ reviewFrames: 6, allowQuality: ['low_contrast', 'low_contrast'] });
    expect(after).toEqual({
      ...DEFAULT_STUDIO_SETTINGS,
      apiEnabled: true,
      reviewFrames: 6,
      allowQuality: ['low_contrast'],
    });
    expect(await new SettingsStore(file).read()).toEqual(after);
  });

  it.skipIf(process.platform === 'win32')('writes the file 0600 in a folder created 0700', async () => {
    await new SettingsStore(file).update({ apiPort: 9000 });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(await readdir(path.dirname(file))).toEqual(['settings.json']);
  });

  it.each([
    [{ theme: 'dark' }, 'unknown setting: theme'],
    [{ apiPort: 80 }, 'invalid setting apiPort'],
    [{ apiPort: 8787.5 }, 'invalid setting apiPort'],
    [{ reviewFrames: 25 }, 'invalid setting reviewFrames'],
    [{ apiEnabled: 'yes' }, 'invalid setting apiEnabled'],
    [{ allowQuality: ['not_a_code'] }, 'invalid setting allowQuality.0'],
    [null, 'settings must be an object'],
    [[], 'settings must be an object'],
  ])('refuses %j with a one-line message', async (patch, message) => {
    const error = await new SettingsStore(file).update(patch).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StudioInputError);
    expect((error as StudioInputError).code).toBe('invalid_settings');
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain('\n');
    await expect(stat(file)).rejects.toThrow();
  });

  it('reads a corrupt file as the defaults and leaves it until the next update', async () => {
    await new SettingsStore(file).update({ apiPort: 9000 });
    await writeFile(file, '{ not json');
    const store = new SettingsStore(file);
    expect(await store.read()).toEqual(DEFAULT_STUDIO_SETTINGS);
    expect(await readFile(file, 'utf8')).toBe('{ not json');
    await store.update({ reviewFrames: 3 });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ ...DEFAULT_STUDIO_SETTINGS, reviewFrames: 3 });
  });

  it('keeps the valid values of a file with one bad value', async () => {
    await writeFile(
      path.join(dir, 'partial.json'),
      JSON.stringify({ apiEnabled: true, apiPort: 'x', extra: 1 }),
    );
    expect(await new SettingsStore(path.join(dir, 'partial.json')).read()).toEqual({
      ...DEFAULT_STUDIO_SETTINGS,
      apiEnabled: true,
    });
  });

  it('applies concurrent updates one after another', async () => {
    const store = new SettingsStore(file);
    await Promise.all([store.update({ apiEnabled: true }), store.update({ reviewFrames: 2 })]);
    expect(await store.read()).toMatchObject({ apiEnabled: true, reviewFrames: 2 });
  });
});
