// The desktop preload's API over HTTP, for the studio in a browser (`kino studio`): the same calls,
// answered by /studio/api/* on the workspace server. The token arrives once, in the URL fragment
// (never sent to a server, never in a query string); it is then kept in this tab's sessionStorage,
// so a reload keeps working, and removed from the address bar.
import type {
  AuthoringAvailability,
  AuthoringBriefing,
  AuthoringJobView,
} from '../../../shared/studio/authoring.ts';
import type {
  ExampleInfo,
  OpenOutcome,
  RecentFile,
  StudioBridge,
  StudioSettings,
  WorkspaceConnection,
} from '../../../shared/studio/bridge.ts';
import { WorkspaceClient } from './workspace-client.ts';

const TOKEN_KEY = 'kino.studio.token';

/** Takes the token out of the fragment (once), else the one this tab stored. */
export function takeTokenFromLocation(): string | undefined {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const fromFragment = fragment.get('token');
  if (fromFragment) {
    sessionStorage.setItem(TOKEN_KEY, fromFragment);
    history.replaceState(null, '', location.pathname + location.search);
    return fromFragment;
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

export function createBrowserBridge(): StudioBridge {
  const token = takeTokenFromLocation();
  const client = token ? new WorkspaceClient(location.origin, token) : undefined;
  const api = () => {
    if (!client) throw new Error('this page has no workspace key: open the link `kino studio` printed');
    return client;
  };
  const post = <T>(path: string, body: unknown) =>
    api().json<T>(path, { method: 'POST', body: JSON.stringify(body) });
  const follow = (outcome: OpenOutcome): OpenOutcome => {
    if (outcome.kind === 'navigate') location.assign(outcome.url);
    return outcome;
  };
  return {
    mode: 'browser',
    async appVersion() {
      return (await api().json<{ version: string }>('/studio/api/app')).version;
    },
    async connection(): Promise<WorkspaceConnection | null> {
      if (!client || !token) return null;
      const session = await client.json<{ source: string }>('/studio/api/session');
      return { endpoint: location.origin, token, source: session.source };
    },
    async openFile(path?: string) {
      if (!path) return { kind: 'canceled' };
      return follow(await post<OpenOutcome>('/studio/api/open', { path }));
    },
    async newFromExample(exampleId: string, folder?: string) {
      if (!folder) return { kind: 'canceled' };
      return follow(await post<OpenOutcome>('/studio/api/new-from-example', { exampleId, folder }));
    },
    listExamples: () => api().json<ExampleInfo[]>('/studio/api/examples'),
    recentFiles: () => api().json<RecentFile[]>('/studio/api/recent'),
    getSettings: () => api().json<StudioSettings>('/studio/api/settings'),
    updateSettings: (patch) =>
      api().json<StudioSettings>('/studio/api/settings', { method: 'PATCH', body: JSON.stringify(patch) }),
    async revealInFolder(path: string) {
      await post<void>('/studio/api/reveal', { path });
    },
    authoringAvailability: () => api().json<AuthoringAvailability>('/studio/api/authoring'),
    startAuthoring: (request) => post<AuthoringJobView>('/studio/api/authoring/jobs', request),
    authoringJob: (id) =>
      api().json<AuthoringJobView>(`/studio/api/authoring/jobs/${encodeURIComponent(id)}`),
    authoringBriefing: (id) =>
      api().json<AuthoringBriefing>(`/studio/api/authoring/jobs/${encodeURIComponent(id)}/briefing`),
    cancelAuthoring: (id) =>
      api().json<AuthoringJobView>(`/studio/api/authoring/jobs/${encodeURIComponent(id)}`, {
        method: 'DELETE',
      }),
  };
}
