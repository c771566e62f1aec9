// The desktop app's security policy as plain functions, so it is tested without Electron: what the
// UI may load, where the window may go, which links leave the app, which IPC senders and arguments
// are accepted, and which file the app:// protocol may serve.
import { contentSecurityPolicy } from '../studio/content-security-policy.ts';
import path from 'node:path';
import { z } from 'zod';
import { IPC } from '../../preload/channels.ts';
import type { IpcChannel } from '../../preload/channels.ts';
import { MAX_CHANGE_CHARS, MAX_PROMPT_CHARS } from '../../shared/studio/authoring.ts';

/** The welcome screen's origin: the built UI served by the app:// protocol (see app-protocol.ts). */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = 'app://kino';
export const WELCOME_URL = `${APP_ORIGIN}/studio/`;

/** One policy for both hosts: the browser-mode page gets the same header from the workspace. */
export { contentSecurityPolicy };

/** Response headers with our policy in place of any the server sent (two policies would both apply). */
export function withContentSecurityPolicy(
  headers: Record<string, string | string[]> | undefined,
  policy = contentSecurityPolicy(),
): Record<string, string | string[]> {
  const kept = Object.entries(headers ?? {}).filter(
    ([name]) => !/^content-security-policy(-report-only)?$/i.test(name),
  );
  return { ...Object.fromEntries(kept), 'Content-Security-Policy': [policy] };
}

/**
 * scheme://host[:port] of an http(s) or app: URL; undefined for anything else and for URLs with
 * credentials. (Node's URL gives "null" as the origin of a custom scheme, so it is built here.)
 */
export function originOf(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.username || parsed.password) return undefined;
  if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.origin;
  if (parsed.protocol === `${APP_SCHEME}:` && parsed.host) return `${APP_SCHEME}://${parsed.host}`;
  return undefined;
}

/** A workspace the app itself started: plain http on the IPv4 loopback address, with a port. */
export function isWorkspaceOrigin(origin: string): boolean {
  return /^http:\/\/127\.0\.0\.1:[1-9]\d{0,4}$/.test(origin);
}

/** Navigation stays on the UI's own origin(s); everything else is refused. */
export function isAllowedNavigation(url: string, allowedOrigins: readonly string[]): boolean {
  const origin = originOf(url);
  return origin !== undefined && allowedOrigins.includes(origin);
}

/** Hosts links may open in the user's browser (exact names: no subdomains, no look-alikes). */
export const VETTED_EXTERNAL_HOSTS: readonly string[] = ['github.com'];

export function isVettedExternalUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (
    parsed.protocol === 'https:' &&
    !parsed.username &&
    !parsed.password &&
    parsed.port === '' &&
    VETTED_EXTERNAL_HOSTS.includes(parsed.hostname)
  );
}

export interface IpcSender {
  /** The sending frame's URL (its origin is what counts). */
  url: string;
  isMainFrame: boolean;
}

/** Only the UI page itself may call the bridge: its main frame, on the origin the app loaded. */
export function isTrustedSender(sender: IpcSender | undefined, uiOrigin: string): boolean {
  return sender !== undefined && sender.isMainFrame && originOf(sender.url) === uiOrigin;
}

/**
 * Permissions the UI page may use: writing (sanitized) text to the clipboard (Monaco's Copy) and
 * fullscreen for the preview. Everything else (camera, notifications, geolocation...) is refused.
 */
const GRANTED_PERMISSIONS: readonly string[] = ['clipboard-sanitized-write', 'fullscreen'];

export function isPermissionGranted(permission: string, requestingUrl: string, uiOrigin: string): boolean {
  return GRANTED_PERMISSIONS.includes(permission) && originOf(requestingUrl) === uiOrigin;
}

/**
 * The file under `root` that an app:// path names, or undefined when the path would leave `root`
 * (dot segments, encoded or back slashes, NUL, drive names). "/studio/..." and "/..." both
 * map to the UI root, so the welcome page works whatever base the UI was built with.
 */
export function resolveAppFile(root: string, pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const segments = decoded.split('/').filter((segment) => segment !== '');
  // A ':' could name a Windows drive ("C:x" resolves against that drive, not `root`).
  if (segments.some((segment) => segment === '..' || segment === '.' || segment.includes(':'))) {
    return undefined;
  }
  if (segments[0] === 'studio') segments.shift();
  if (segments.length === 0 || decoded.endsWith('/')) segments.push('index.html');
  const file = path.resolve(root, ...segments);
  const relative = path.relative(path.resolve(root), file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return file;
}

const AbsolutePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.includes('\0') && path.isAbsolute(p), 'expected an absolute path');

/** The extensions StudioHost opens (main/studio/host.ts): code compositions and JSON specs. */
export const COMPOSITION_EXTENSIONS: readonly string[] = ['ts', 'tsx', 'mts', 'js', 'mjs', 'jsx', 'json'];

const CompositionPath = AbsolutePath.refine(
  (p) => COMPOSITION_EXTENSIONS.includes(path.extname(p).slice(1).toLowerCase()),
  'expected a composition file (.ts or .js) or a spec (.json)',
);

/** Example ids are composition keys (see shared/project/config.ts). */
const ExampleId = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'expected an example id');

/** AuthoringJobRequestSchema (shared/studio/authoring.ts) in zod, with the same limits. */
const AuthoringRequest = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('generate'), prompt: z.string().min(1).max(MAX_PROMPT_CHARS) }),
  z.strictObject({
    kind: z.literal('edit'),
    spec: z.record(z.string(), z.unknown()),
    change: z.string().min(1).max(MAX_CHANGE_CHARS),
  }),
]);

const JobId = z.string().regex(/^[0-9a-f-]{36}$/, 'expected a job id');

/** The arguments each channel accepts, as a tuple: extra or missing arguments are refused too. */
export const IPC_ARGS = {
  [IPC.appVersion]: z.tuple([]),
  [IPC.connection]: z.tuple([]),
  [IPC.openFile]: z.tuple([CompositionPath.optional()]),
  [IPC.newFromExample]: z.tuple([ExampleId, AbsolutePath.optional()]),
  [IPC.listExamples]: z.tuple([]),
  [IPC.recentFiles]: z.tuple([]),
  [IPC.getSettings]: z.tuple([]),
  // Only the shape here; the settings store validates each setting and names the bad one.
  [IPC.updateSettings]: z.tuple([z.record(z.string(), z.unknown())]),
  [IPC.revealInFolder]: z.tuple([AbsolutePath]),
  [IPC.authoringAvailability]: z.tuple([]),
  [IPC.startAuthoring]: z.tuple([AuthoringRequest]),
  [IPC.authoringJob]: z.tuple([JobId]),
  [IPC.authoringBriefing]: z.tuple([JobId]),
  [IPC.cancelAuthoring]: z.tuple([JobId]),
} satisfies Record<IpcChannel, z.ZodType<unknown[]>>;

export type IpcArgs<C extends IpcChannel> = z.infer<(typeof IPC_ARGS)[C]>;
