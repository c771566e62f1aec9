import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWorkspaceClient, connectSession, problem } from '../session/fake-workspace.fixture.ts';
import { useSession } from '../session/session-store.ts';
import { isDirty, useSource } from './source-store.ts';

vi.mock('../session/resolve-bridge.ts', () => ({ resolveBridge: () => ({ mode: 'browser' }) }));

const initial = { source: useSource.getState(), session: useSession.getState() };
let client: FakeWorkspaceClient;

beforeEach(() => {
  useSource.setState(initial.source, true);
  useSession.setState(initial.session, true);
  client = new FakeWorkspaceClient();
  connectSession(client);
});

describe('source store: load and edit', () => {
  it('loads the text and remembers what is on disk', async () => {
    await useSource.getState().load();
    expect(useSource.getState()).toMatchObject({
      loaded: true,
      text: 'hello',
      savedText: 'hello',
      savedSha256: 'sha-1',
      conflict: false,
      error: undefined,
    });
    expect(isDirty(useSource.getState())).toBe(false);
  });

  it('is dirty once edited, and clean again when the edit is undone', async () => {
    await useSource.getState().load();
    useSource.getState().edit('hello, world');
    expect(isDirty(useSource.getState())).toBe(true);
    useSource.getState().edit('hello');
    expect(isDirty(useSource.getState())).toBe(false);
  });

  it('shows why the source could not be loaded, and is not dirty while nothing is loaded', async () => {
    client.source.mockRejectedValueOnce(problem(0, 'workspace_unreachable', 'the workspace does not answer'));
    await useSource.getState().load();
    expect(useSource.getState()).toMatchObject({ loaded: false, error: 'the workspace does not answer' });
    useSource.getState().edit('typed before the load');
    expect(isDirty(useSource.getState())).toBe(false);
  });
});

describe('source store: save', () => {
  it('saves an edit against the sha256 it loaded, then counts it as saved', async () => {
    await useSource.getState().load();
    useSource.getState().edit('hello, world');
    client.status.mockClear();
    expect(await useSource.getState().save()).toBe(true);
    expect(client.saveSource).toHaveBeenCalledExactlyOnceWith('hello, world', 'sha-1');
    expect(useSource.getState()).toMatchObject({
      savedText: 'hello, world',
      savedSha256: 'sha-2',
      saving: false,
      error: undefined,
    });
    expect(isDirty(useSource.getState())).toBe(false);
    expect(client.status).toHaveBeenCalled(); // the new revision shows at once
  });

  it('never writes an unchanged file or one it did not load', async () => {
    useSource.getState().edit('an editor that never loaded');
    expect(await useSource.getState().save()).toBe(false);
    await useSource.getState().load();
    expect(await useSource.getState().save()).toBe(false);
    expect(client.saveSource).not.toHaveBeenCalled();
  });

  it('saves once while a save is in flight', async () => {
    await useSource.getState().load();
    useSource.getState().edit('hello, world');
    const first = useSource.getState().save();
    expect(useSource.getState().saving).toBe(true);
    expect(await useSource.getState().save()).toBe(false);
    expect(await first).toBe(true);
    expect(client.saveSource).toHaveBeenCalledOnce();
  });

  it('refuses to overwrite a file saved elsewhere: a conflict, the edit kept', async () => {
    await useSource.getState().load();
    useSource.getState().edit('my edit');
    client.saveSource.mockRejectedValueOnce(
      problem(409, 'source_conflict', 'the file changed on disk since it was read'),
    );
    expect(await useSource.getState().save()).toBe(false);
    expect(useSource.getState()).toMatchObject({
      conflict: true,
      error: 'the file changed on disk since it was read',
      text: 'my edit',
      savedText: 'hello',
      savedSha256: 'sha-1',
      saving: false,
    });
    expect(isDirty(useSource.getState())).toBe(true);
  });

  it('overwrites on request after a conflict: no expected sha256, the conflict cleared', async () => {
    await useSource.getState().load();
    useSource.getState().edit('my edit');
    client.saveSource.mockRejectedValueOnce(problem(409, 'source_conflict', 'changed on disk'));
    await useSource.getState().save();
    expect(await useSource.getState().save({ overwrite: true })).toBe(true);
    expect(client.saveSource).toHaveBeenLastCalledWith('my edit', undefined);
    expect(useSource.getState()).toMatchObject({ conflict: false, error: undefined, savedText: 'my edit' });
  });

  it('reloading after a conflict takes the file on disk and clears the conflict', async () => {
    await useSource.getState().load();
    useSource.getState().edit('my edit');
    client.saveSource.mockRejectedValueOnce(problem(409, 'source_conflict', 'changed on disk'));
    await useSource.getState().save();
    client.source.mockResolvedValueOnce({
      source: '/project/hello.ts',
      sourceRevision: 'rev-3',
      bytes: 9,
      sha256: 'sha-3',
      text: 'theirs',
    });
    await useSource.getState().load();
    expect(useSource.getState()).toMatchObject({
      conflict: false,
      text: 'theirs',
      savedText: 'theirs',
      savedSha256: 'sha-3',
    });
  });

  it('reports another failure without calling it a conflict', async () => {
    await useSource.getState().load();
    useSource.getState().edit('my edit');
    client.saveSource.mockRejectedValueOnce(problem(413, 'source_too_large', 'the source is too large'));
    expect(await useSource.getState().save()).toBe(false);
    expect(useSource.getState()).toMatchObject({ conflict: false, error: 'the source is too large' });
  });
});

describe('source store: jump', () => {
  it('asks the editor to jump to a line, anew each time even for the same line', () => {
    useSource.getState().jumpTo(12, 5);
    const first = useSource.getState().jump;
    useSource.getState().jumpTo(12, 5);
    const second = useSource.getState().jump;
    expect(first).toMatchObject({ line: 12, column: 5 });
    expect(second).toMatchObject({ line: 12, column: 5 });
    // A new request each time: the editor follows the change of request, not of line.
    expect(second).not.toBe(first);
    useSource.getState().jumpTo(3);
    expect(useSource.getState().jump).toMatchObject({ line: 3, column: 1 });
  });
});
