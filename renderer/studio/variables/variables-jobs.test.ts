// The form's values travel with every job that draws the video: capture, review, inspect, export.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useExport } from '../export/export-store.ts';
import { useFrames } from '../frames/frames-store.ts';
import { usePreview } from '../preview/preview-store.ts';
import { useReview } from '../review/review-store.ts';
import { FakeWorkspaceClient, connectSession } from '../session/fake-workspace.fixture.ts';
import { useSession } from '../session/session-store.ts';
import { useVariables } from './variables-store.ts';

vi.mock('../session/resolve-bridge.ts', () => ({ resolveBridge: () => ({ mode: 'browser' }) }));

const initial = {
  session: useSession.getState(),
  preview: usePreview.getState(),
  review: useReview.getState(),
  export: useExport.getState(),
  frames: useFrames.getState(),
};
let client: FakeWorkspaceClient;

beforeEach(() => {
  useSession.setState(initial.session, true);
  usePreview.setState(initial.preview, true);
  useReview.setState(initial.review, true);
  useExport.setState(initial.export, true);
  useFrames.setState(initial.frames, true);
  useVariables.getState().reset();
  client = new FakeWorkspaceClient();
  connectSession(client);
  usePreview.setState({
    declared: { author: { type: 'string', default: 'Ada' }, users: { type: 'number' } },
  });
});

describe('the variables in job bodies', () => {
  it('sends the edited values with a capture, a review, an inspect and an export', async () => {
    useVariables.getState().set('author', 'Grace');
    useVariables.getState().set('users', '7');
    const variables = { author: 'Grace', users: 7 };

    void useFrames.getState().capture(3);
    expect(client.job().request).toMatchObject({ operation: 'frame', frameIndex: 3, variables });
    client.job().reject(new Error('stop'));

    void useReview.getState().run();
    await vi.waitFor(() => expect(client.jobs.at(-1)?.request.operation).toBe('review'));
    expect(client.jobs.at(-1)!.request).toMatchObject({ variables });

    void useReview.getState().inspectFrame(5);
    await vi.waitFor(() => expect(client.jobs.at(-1)?.request.operation).toBe('inspect'));
    expect(client.jobs.at(-1)!.request).toMatchObject({ frameIndex: 5, variables });

    void useExport.getState().render();
    await vi.waitFor(() => expect(client.jobs.at(-1)?.request.operation).toBe('render'));
    expect(client.jobs.at(-1)!.request).toMatchObject({ variables });
  });

  it('sends none for a composition that declares none', () => {
    usePreview.setState({ declared: undefined });
    useVariables.getState().set('author', 'Grace');
    void useFrames.getState().capture(0);
    expect(client.job().request).toEqual({ operation: 'frame', frameIndex: 0 });
  });
});
