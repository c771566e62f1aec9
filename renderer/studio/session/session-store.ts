// The studio session: which bridge hosts the UI, the workspace it talks to, and the workspace's
// status (source revision, worker state, compile problems), polled while the page is open.
import { create } from 'zustand';
import type { StudioBridge, WorkspaceConnection } from '../../../shared/studio/bridge.ts';
import type { FontFace } from '../../../shared/spec/schema.ts';
import { resolveBridge } from './resolve-bridge.ts';
import { WorkspaceClient, WorkspaceProblem } from './workspace-client.ts';
import type { WorkspaceStatus } from '../../../shared/protocol/workspace.ts';

export interface SessionInfo {
  mode: 'desktop' | 'browser';
  appVersion: string;
  source: string;
  projectRoot: string;
  projectFonts: FontFace[];
  resultsDir: string;
  previewKey: string;
}

export type SessionPhase = 'booting' | 'welcome' | 'locked' | 'ready' | 'failed';

interface SessionState {
  bridge: StudioBridge;
  phase: SessionPhase;
  bootError: string | undefined;
  connection: WorkspaceConnection | undefined;
  client: WorkspaceClient | undefined;
  info: SessionInfo | undefined;
  status: WorkspaceStatus | undefined;
  /** The workspace stopped answering (kino was stopped). */
  unreachable: boolean;
  /** The welcome screen over an open composition (Home). */
  welcomeOpen: boolean;
  boot(): Promise<void>;
  refreshStatus(): Promise<void>;
  setWelcomeOpen(open: boolean): void;
}

const STATUS_POLL_MS = 1500;
let booted = false;

export const useSession = create<SessionState>((set, get) => ({
  bridge: resolveBridge(),
  phase: 'booting',
  bootError: undefined,
  connection: undefined,
  client: undefined,
  info: undefined,
  status: undefined,
  unreachable: false,
  welcomeOpen: false,

  async boot() {
    if (booted) return; // React's StrictMode mounts twice in development
    booted = true;
    const { bridge } = get();
    try {
      const connection = await bridge.connection();
      if (!connection) {
        set({ phase: bridge.mode === 'browser' ? 'locked' : 'welcome' });
        return;
      }
      const client = new WorkspaceClient(connection.endpoint, connection.token);
      const info = await client.json<SessionInfo>('/studio/api/session');
      set({ connection, client, info, phase: 'ready' });
      document.title = `${info.source.split(/[\\/]/).pop()} · Kino Studio`;
      await get().refreshStatus();
      setInterval(() => void get().refreshStatus(), STATUS_POLL_MS);
    } catch (error) {
      const locked = error instanceof WorkspaceProblem && error.status === 401;
      set({
        phase: locked ? 'locked' : 'failed',
        bootError: error instanceof Error ? error.message : String(error),
      });
    }
  },

  async refreshStatus() {
    const client = get().client;
    if (!client) return;
    try {
      set({ status: await client.status(), unreachable: false });
    } catch {
      set({ unreachable: true });
    }
  },

  setWelcomeOpen(open) {
    set({ welcomeOpen: open });
  },
}));

/** The client of a ready session (components below the ready gate only). */
/** Whether the open source is a JSON spec (or template), not code: its editor, form and lookups differ. */
export function isSpecSource(source: string | undefined): boolean {
  return source?.toLowerCase().endsWith('.json') ?? false;
}

export function workspaceClient(): WorkspaceClient {
  const client = useSession.getState().client;
  if (!client) throw new Error('no workspace connection');
  return client;
}

/** The revision the workspace reports now. */
export function currentRevision(): string | undefined {
  return useSession.getState().status?.sourceRevision;
}

export function describeError(error: unknown): string {
  if (error instanceof WorkspaceProblem) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
