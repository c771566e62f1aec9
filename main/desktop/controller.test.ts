import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_STUDIO_SETTINGS } from '../../shared/studio/bridge.ts';
import type { StudioSettings, WorkspaceConnection } from '../../shared/studio/bridge.ts';
import { StudioInputError } from '../studio/errors.ts';
import { DesktopController } from './controller.ts';
import type { DesktopShell, StudioHostLike } from './controller.ts';
import { runningAuthoringJob } from '../../shared/studio/authoring.ts';
import type { AuthoringJobRequest, AuthoringJobView } from '../../shared/studio/authoring.ts';
import { APP_ORIGIN, WELCOME_URL } from './security.ts';

let nextPort = 41000;

function fakeHost() {
  let current: WorkspaceConnection | null = null;
  let settings: StudioSettings = { ...DEFAULT_STUDIO_SETTINGS };
  const start = (source: string): WorkspaceConnection => {
    current = { endpoint: `http://127.0.0.1:${nextPort++}`, token: `token-${source}`, source };
    return current;
  };
  const host = {
    settings: {
      read: vi.fn(async () => settings),
      update: vi.fn(
        async (patch: unknown) => (settings = { ...settings, ...(patch as Partial<StudioSettings>) }),
      ),
    },
    recent: { list: vi.fn(async () => []) },
    connection: () => current,
    open: vi.fn(async (file: string) => {
      if (file.includes('broken')) {
        current = null; // the previous workspace was closed before this one failed
        throw new StudioInputError('source_missing', `${file} does not exist`);
      }
      return start(file);
    }),
    newFromExample: vi.fn(async (id: string, folder: string) => start(`${folder}/compositions/${id}.ts`)),
    canReveal: vi.fn(async (file: string) => file === current?.source),
    close: vi.fn(async () => {
      current = null;
    }),
    authoring: {
      availability: vi.fn(() => ({ configured: false, provider: null, model: null, message: 'set a key' })),
      start: vi.fn((request: AuthoringJobRequest, _place: { projectFile: string }) => authoringJob(request)),
      view: vi.fn((id: string) => ({ ...authoringJob({ kind: 'generate', prompt: 'x' }), id })),
      briefing: vi.fn(() => ({ system: 'guide', user: 'prompt', tokens: 2 })),
      cancel: vi.fn((id: string) => ({ ...authoringJob({ kind: 'generate', prompt: 'x' }), id })),
    },
  } satisfies StudioHostLike;
  return host;
}

function authoringJob(request: AuthoringJobRequest): AuthoringJobView {
  return runningAuthoringJob({
    id: '00000000-0000-4000-8000-000000000000',
    kind: request.kind,
    provider: 'openai',
    model: 'gpt-stand-in',
  });
}

function fakeShell(choices: { file?: string; folder?: string } = {}) {
  const loaded: string[] = [];
  const errors: string[] = [];
  const shell = {
    chooseComposition: vi.fn(async () => choices.file),
    chooseFolder: vi.fn(async () => choices.folder),
    load: vi.fn(async (url: string) => {
      loaded.push(url);
    }),
    reveal: vi.fn(),
    showError: vi.fn((message: string) => {
      errors.push(message);
    }),
    refreshMenu: vi.fn(),
  } satisfies DesktopShell;
  return { shell, loaded, errors };
}

function setup(choices: { file?: string; folder?: string } = {}) {
  const host = fakeHost();
  const { shell, loaded, errors } = fakeShell(choices);
  const api = { apply: vi.fn(async () => undefined) };
  return { host, shell, loaded, errors, api, controller: new DesktopController(host, shell, api) };
}

describe('DesktopController', () => {
  it('generates into the open project, else into a chosen folder, and edits only an open file', async () => {
    const none = setup();
    expect(await none.controller.startAuthoring({ kind: 'generate', prompt: 'Hello' })).toBeNull();
    await expect(
      none.controller.startAuthoring({ kind: 'edit', spec: {}, change: 'bigger title' }),
    ).rejects.toThrow(/open a spec/);
    expect(none.host.authoring.start).not.toHaveBeenCalled();

    const folder = setup({ folder: '/work/new' });
    await folder.controller.startAuthoring({ kind: 'generate', prompt: 'Hello' });
    expect(folder.host.authoring.start).toHaveBeenLastCalledWith(
      { kind: 'generate', prompt: 'Hello' },
      { projectFile: '/work/new/generated.json' },
    );

    const open = setup({ folder: '/elsewhere' });
    await open.controller.openFile('/work/intro.ts');
    await open.controller.startAuthoring({ kind: 'edit', spec: { kinoSpec: 1 }, change: 'red' });
    expect(open.host.authoring.start).toHaveBeenLastCalledWith(
      { kind: 'edit', spec: { kinoSpec: 1 }, change: 'red' },
      { projectFile: '/work/intro.ts' },
    );
    expect(open.shell.chooseFolder).not.toHaveBeenCalled();
  });

  it('starts on the welcome page, trusting only its origin', async () => {
    const { controller, loaded } = setup();
    await controller.showWelcome();
    expect(loaded).toEqual([WELCOME_URL]);
    expect(controller.uiOrigin).toBe(APP_ORIGIN);
    expect(controller.hasFile).toBe(false);
  });

  it('opens a file: starts its workspace, loads its studio page and trusts that origin', async () => {
    const { controller, loaded, host } = setup();
    const outcome = await controller.openFile('/work/intro.ts');
    const connection = host.connection()!;
    expect(outcome).toEqual({ kind: 'opened', source: '/work/intro.ts' });
    expect(loaded).toEqual([`${connection.endpoint}/studio/`]);
    expect(controller.uiOrigin).toBe(connection.endpoint);
  });

  it('hands the token only to the page of that workspace', async () => {
    const { controller, host } = setup();
    await controller.openFile('/work/intro.ts');
    const connection = host.connection()!;
    expect(controller.connection(connection.endpoint)).toEqual(connection);
    expect(controller.connection(APP_ORIGIN)).toBeNull();
    expect(controller.connection('http://127.0.0.1:1')).toBeNull();
  });

  it('shows the dialog when no path is given, and reports a cancel', async () => {
    const canceled = setup();
    expect(await canceled.controller.openFile()).toEqual({ kind: 'canceled' });
    expect(canceled.host.open).not.toHaveBeenCalled();
    const chosen = setup({ file: '/work/chosen.ts' });
    expect(await chosen.controller.openFile()).toEqual({ kind: 'opened', source: '/work/chosen.ts' });
  });

  it('creates a project from an example in the chosen folder', async () => {
    const { controller, host } = setup({ folder: '/work/new' });
    expect(await controller.newFromExample('brand-intro')).toEqual({
      kind: 'opened',
      source: '/work/new/compositions/brand-intro.ts',
    });
    expect(host.newFromExample).toHaveBeenCalledWith('brand-intro', '/work/new');
    expect(await setup().controller.newFromExample('brand-intro')).toEqual({ kind: 'canceled' });
  });

  it('goes back to the welcome page, and says why, when a failed open took the last workspace down', async () => {
    const { controller, loaded, errors } = setup();
    await controller.openFile('/work/intro.ts');
    await expect(controller.openFile('/work/broken.ts')).rejects.toThrow('does not exist');
    expect(loaded.at(-1)).toBe(WELCOME_URL);
    expect(controller.uiOrigin).toBe(APP_ORIGIN);
    expect(errors).toEqual(['/work/broken.ts does not exist']);
  });

  it('shows the errors of menu and command-line opens in a dialog instead of throwing', async () => {
    const { controller, errors, loaded } = setup();
    await controller.openFromApp('/work/broken.ts');
    expect(errors).toEqual(['/work/broken.ts does not exist']);
    expect(loaded).toEqual([]);
  });

  it('runs opens one at a time', async () => {
    const { controller, host } = setup();
    await Promise.all([controller.openFile('/work/a.ts'), controller.openFile('/work/b.ts')]);
    expect(host.open.mock.calls.map(([file]) => file)).toEqual(['/work/a.ts', '/work/b.ts']);
    expect(controller.uiOrigin).toBe(host.connection()!.endpoint);
  });

  it('closes the file back to the welcome page', async () => {
    const { controller, host, loaded } = setup();
    await controller.openFile('/work/intro.ts');
    await controller.closeFile();
    expect(host.close).toHaveBeenCalled();
    expect(loaded.at(-1)).toBe(WELCOME_URL);
    expect(controller.uiOrigin).toBe(APP_ORIGIN);
  });

  it('applies saved settings to the embedded API, reporting a failed start apart', async () => {
    const { controller, api, errors } = setup();
    api.apply.mockRejectedValueOnce(new StudioInputError('api_port_in_use', 'port 9000 is in use'));
    const settings = await controller.updateSettings({ apiEnabled: true, apiPort: 9000 });
    expect(settings).toMatchObject({ apiEnabled: true, apiPort: 9000 });
    expect(api.apply).toHaveBeenCalledWith(settings);
    await vi.waitFor(() => expect(errors).toEqual(['The render API did not start: port 9000 is in use']));
  });
});
