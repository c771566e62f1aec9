// The session store boots once per page, so every test imports a fresh copy of it. The network
// boundary is faked twice: the host bridge (mocked module) and fetch (the workspace's HTTP answers),
// so the real WorkspaceClient runs underneath.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StudioBridge, WorkspaceConnection } from '../../../shared/studio/bridge.ts';
import { SESSION_INFO, statusAt } from './fake-workspace.fixture.ts';

const host = vi.hoisted(() => ({ bridge: undefined as unknown }));
vi.mock('./resolve-bridge.ts', () => ({ resolveBridge: () => host.bridge }));

const CONNECTION: WorkspaceConnection = {
  endpoint: 'http://127.0.0.1:4000',
  token: 'workspace-token',
  source: '/project/hello.ts',
};

function useBridge(mode: StudioBridge['mode'], connection: WorkspaceConnection | null) {
  const bridge = { mode, connection: vi.fn(async () => connection) };
  host.bridge = bridge;
  return bridge;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The workspace over HTTP: answers per path, and what each request carried. */
function useWorkspace(answers: Record<string, () => Response | Promise<Response>>) {
  const requests: { url: string; token: string | null }[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    requests.push({ url, token: new Headers(init.headers).get('x-kino-token') });
    const answer = answers[new URL(url).pathname];
    if (!answer) return json({ status: 404, title: 'Not Found' }, 404);
    return answer();
  });
  vi.stubGlobal('fetch', fetch);
  return { requests };
}

async function freshSession() {
  vi.resetModules();
  return import('./session-store.ts');
}

let document: { title: string };
beforeEach(() => {
  document = { title: 'Kino Studio' };
  vi.stubGlobal('document', document);
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
});
afterEach(() => {
  vi.clearAllTimers();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('session store: boot', () => {
  it('opens the welcome screen in the desktop app when no composition is open', async () => {
    useBridge('desktop', null);
    const { useSession } = await freshSession();
    expect(useSession.getState().phase).toBe('booting');
    await useSession.getState().boot();
    expect(useSession.getState()).toMatchObject({ phase: 'welcome', client: undefined, info: undefined });
  });

  it('asks for the workspace link in a browser that has no key', async () => {
    useBridge('browser', null);
    const { useSession } = await freshSession();
    await useSession.getState().boot();
    expect(useSession.getState().phase).toBe('locked');
  });

  it('connects: reads the session with the token, names the window, and reads the status', async () => {
    useBridge('browser', CONNECTION);
    const { requests } = useWorkspace({
      '/studio/api/session': () => json(SESSION_INFO),
      '/status': () => json(statusAt('rev-1')),
    });
    const { useSession, currentRevision, workspaceClient } = await freshSession();
    await useSession.getState().boot();

    expect(useSession.getState()).toMatchObject({
      phase: 'ready',
      connection: CONNECTION,
      info: SESSION_INFO,
      unreachable: false,
      bootError: undefined,
    });
    expect(currentRevision()).toBe('rev-1');
    expect(workspaceClient().endpoint).toBe(CONNECTION.endpoint);
    expect(document.title).toBe('hello.ts · Kino Studio');
    expect(requests).toEqual([
      { url: 'http://127.0.0.1:4000/studio/api/session', token: 'workspace-token' },
      { url: 'http://127.0.0.1:4000/status', token: 'workspace-token' },
    ]);
  });

  it('follows the workspace: the status is read again every 1.5 s', async () => {
    useBridge('desktop', CONNECTION);
    let revision = 'rev-1';
    useWorkspace({
      '/studio/api/session': () => json(SESSION_INFO),
      '/status': () => json(statusAt(revision)),
    });
    const { useSession, currentRevision } = await freshSession();
    await useSession.getState().boot();
    revision = 'rev-2';
    await vi.advanceTimersByTimeAsync(1000);
    expect(currentRevision()).toBe('rev-1');
    await vi.advanceTimersByTimeAsync(500);
    expect(currentRevision()).toBe('rev-2');
  });

  it('says the workspace stopped answering, and recovers when it answers again', async () => {
    useBridge('browser', CONNECTION);
    let up = true;
    useWorkspace({
      '/studio/api/session': () => json(SESSION_INFO),
      '/status': () => {
        if (!up) throw new TypeError('fetch failed');
        return json(statusAt('rev-1'));
      },
    });
    const { useSession } = await freshSession();
    await useSession.getState().boot();
    up = false;
    await vi.advanceTimersByTimeAsync(1500);
    expect(useSession.getState().unreachable).toBe(true);
    expect(useSession.getState().status?.sourceRevision).toBe('rev-1'); // the last one known stays
    up = true;
    await vi.advanceTimersByTimeAsync(1500);
    expect(useSession.getState().unreachable).toBe(false);
  });

  it('locks the studio when the workspace refuses the key', async () => {
    useBridge('browser', CONNECTION);
    useWorkspace({
      '/studio/api/session': () =>
        json({ status: 401, code: 'unauthorized', detail: 'a valid X-Kino-Token is required' }, 401),
    });
    const { useSession } = await freshSession();
    await useSession.getState().boot();
    expect(useSession.getState()).toMatchObject({
      phase: 'locked',
      bootError: 'a valid X-Kino-Token is required',
      client: undefined,
    });
  });

  it('fails with the reason on any other error', async () => {
    useBridge('desktop', CONNECTION);
    useWorkspace({
      '/studio/api/session': () =>
        json({ status: 500, code: 'internal', detail: 'the workspace broke' }, 500),
    });
    const { useSession } = await freshSession();
    await useSession.getState().boot();
    expect(useSession.getState()).toMatchObject({ phase: 'failed', bootError: 'the workspace broke' });
  });

  it('boots once, though React mounts twice in development', async () => {
    const bridge = useBridge('desktop', null);
    const { useSession } = await freshSession();
    await Promise.all([useSession.getState().boot(), useSession.getState().boot()]);
    await useSession.getState().boot();
    expect(bridge.connection).toHaveBeenCalledOnce();
  });
});

describe('session store: helpers', () => {
  it('has no workspace client before the session is ready', async () => {
    useBridge('desktop', null);
    const { workspaceClient, currentRevision } = await freshSession();
    expect(() => workspaceClient()).toThrow('no workspace connection');
    expect(currentRevision()).toBeUndefined();
  });

  it('reads the status only with a client', async () => {
    useBridge('desktop', null);
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { useSession } = await freshSession();
    await useSession.getState().refreshStatus();
    expect(fetch).not.toHaveBeenCalled();
    expect(useSession.getState().unreachable).toBe(false);
  });

  it('opens and closes the welcome screen over the composition (Home)', async () => {
    useBridge('desktop', null);
    const { useSession } = await freshSession();
    useSession.getState().setWelcomeOpen(true);
    expect(useSession.getState().welcomeOpen).toBe(true);
    useSession.getState().setWelcomeOpen(false);
    expect(useSession.getState().welcomeOpen).toBe(false);
  });

  it('describes an error in one line, whatever was thrown', async () => {
    useBridge('desktop', null);
    const { describeError } = await freshSession();
    const { WorkspaceProblem } = await import('./workspace-client.ts');
    expect(describeError(new WorkspaceProblem({ status: 409, detail: 'the file changed on disk' }))).toBe(
      'the file changed on disk',
    );
    expect(describeError(new WorkspaceProblem({ status: 503, title: 'Service Unavailable' }))).toBe(
      'Service Unavailable',
    );
    expect(describeError(new Error('boom'))).toBe('boom');
    expect(describeError('plain')).toBe('plain');
  });
});
