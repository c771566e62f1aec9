// The studio's host API: what the UI may ask of the process that hosts it. In the desktop app the
// preload exposes it over IPC (window.kinoDesktop); in browser mode (`kino studio`) the same calls go
// over HTTP to /studio/api/* on the workspace server. The UI code is the same in both modes.
import type { RenderReceipt } from '../protocol/receipt.ts';
import type {
  AuthoringAvailability,
  AuthoringBriefing,
  AuthoringJobRequest,
  AuthoringJobView,
} from './authoring.ts';

/** Where the UI reaches the workspace of the open composition. */
export interface WorkspaceConnection {
  /** http://127.0.0.1:<port>, the workspace's own origin. */
  endpoint: string;
  /** Sent as X-Kino-Token on every workspace request. */
  token: string;
  /** Absolute path of the composition source. */
  source: string;
}

/**
 * What an input file is: code (`composition`), a JSON spec (`spec`), or either one declaring variables
 * a render fills in (`template`).
 */
export type InputKind = 'composition' | 'spec' | 'template';

/** An image or video of the project (/studio/api/assets), as a template's media variable takes it. */
export interface ProjectAsset {
  /** "asset:<path in the assets folder>" */
  src: string;
  /** The variable type that takes it. */
  kind: 'image' | 'clip';
}

/** A render the open composition's workspace made, read back from its receipt (/studio/api/exports). */
export interface PastExport {
  receiptPath: string;
  /** Whether the video the receipt describes is still there. */
  exists: boolean;
  receipt: RenderReceipt;
}

export interface RecentFile {
  path: string;
  /** ISO time it was last opened. */
  openedAt: string;
  /** Whether the file is still there (checked when the list is read). */
  exists: boolean;
}

export interface StudioSettings {
  /** Start the embedded render API with the app (off by default). */
  apiEnabled: boolean;
  /** Port of the embedded render API on 127.0.0.1. */
  apiPort: number;
  /** Frames a review samples by default (1–24). */
  reviewFrames: number;
  /** Finding codes allowed (intentional) in every composition. */
  allowQuality: string[];
}

export const DEFAULT_STUDIO_SETTINGS: StudioSettings = {
  apiEnabled: false,
  apiPort: 8787,
  reviewFrames: 12,
  allowQuality: [],
};

/** A bundled example the welcome screen offers ("New from example"). */
export interface ExampleInfo {
  id: string;
  title: string;
  description: string;
}

/**
 * The outcome of opening a composition. `navigate`: the UI loads this URL (browser mode: the new
 * workspace's studio page, token in the fragment); the desktop app navigates the window itself and
 * answers `opened`. `canceled`: the user closed the dialog.
 */
export type OpenOutcome =
  | { kind: 'opened'; source: string }
  | { kind: 'navigate'; url: string; source: string }
  | { kind: 'canceled' };

export interface StudioBridge {
  readonly mode: 'desktop' | 'browser';
  appVersion(): Promise<string>;
  /** The workspace this window works on; null on the welcome screen. */
  connection(): Promise<WorkspaceConnection | null>;
  /** Desktop: no path shows the open dialog. Browser: the path (absolute, or relative to the project). */
  openFile(path?: string): Promise<OpenOutcome>;
  /** Copies a bundled example into `folder` (desktop: chosen in a dialog when left out) and opens it. */
  newFromExample(exampleId: string, folder?: string): Promise<OpenOutcome>;
  listExamples(): Promise<ExampleInfo[]>;
  recentFiles(): Promise<RecentFile[]>;
  getSettings(): Promise<StudioSettings>;
  updateSettings(patch: Partial<StudioSettings>): Promise<StudioSettings>;
  /** Shows the file in the system's file manager (browser mode: on the machine running kino). */
  revealInFolder(path: string): Promise<void>;
  /** Whether Generate and Edit with words can run here (an AI provider is configured), and how. */
  authoringAvailability(): Promise<AuthoringAvailability>;
  /**
   * Starts a Generate or an Edit with words. A generate writes into the open composition's project
   * (desktop, with none open: a folder chosen in a dialog; null when that is canceled).
   */
  startAuthoring(request: AuthoringJobRequest): Promise<AuthoringJobView | null>;
  authoringJob(id: string): Promise<AuthoringJobView>;
  /** What the model is sent (instructions and request), once the job has prepared it. */
  authoringBriefing(id: string): Promise<AuthoringBriefing>;
  cancelAuthoring(id: string): Promise<AuthoringJobView>;
  /** Desktop only: the path of a file dropped on the window (a browser cannot know it). */
  pathForFile?(file: File): string;
}

/** Errors crossing the bridge carry a one-line message meant for the user. */
export interface BridgeError {
  code: string;
  message: string;
}
