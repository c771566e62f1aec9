import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IPC } from '../../preload/channels.ts';
import {
  APP_ORIGIN,
  IPC_ARGS,
  WELCOME_URL,
  contentSecurityPolicy,
  isAllowedNavigation,
  isPermissionGranted,
  isTrustedSender,
  isVettedExternalUrl,
  isWorkspaceOrigin,
  originOf,
  resolveAppFile,
  withContentSecurityPolicy,
} from './security.ts';

const WORKSPACE = 'http://127.0.0.1:43117';

describe('contentSecurityPolicy', () => {
  const directives = new Map(
    contentSecurityPolicy()
      .split('; ')
      .map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')] as const),
  );

  it('keeps everything on our own origin, with the exceptions the UI needs', () => {
    expect(Object.fromEntries(directives)).toEqual({
      'default-src': "'self'",
      'script-src': "'self'",
      'worker-src': "'self'",
      'style-src': "'self' 'unsafe-inline'",
      'img-src': "'self' blob: data:",
      'media-src': "'self' blob:",
      'font-src': "'self' data: blob:",
      'connect-src': "'self'",
      'object-src': "'none'",
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': "'none'",
    });
  });

  it('never allows inline or eval scripts', () => {
    expect(directives.get('script-src')).not.toMatch(/unsafe/);
  });

  it('replaces any policy the server sent, whatever its case', () => {
    const headers = withContentSecurityPolicy({
      'content-type': ['text/html'],
      'content-security-policy': ["script-src 'self'"],
      'Content-Security-Policy-Report-Only': ['x'],
    });
    expect(headers).toEqual({
      'content-type': ['text/html'],
      'Content-Security-Policy': [contentSecurityPolicy()],
    });
  });
});

describe('navigation and origins', () => {
  it('computes origins for http(s) and app:, refusing credentials and other schemes', () => {
    expect(originOf(`${WORKSPACE}/studio/`)).toBe(WORKSPACE);
    expect(originOf(WELCOME_URL)).toBe(APP_ORIGIN);
    expect(originOf('http://user:pw@127.0.0.1:43117/')).toBeUndefined();
    expect(originOf('file:///etc/passwd')).toBeUndefined();
    expect(originOf('javascript:alert(1)')).toBeUndefined();
    expect(originOf('not a url')).toBeUndefined();
  });

  it('allows only the UI origin', () => {
    expect(isAllowedNavigation(`${WORKSPACE}/studio/#x`, [WORKSPACE])).toBe(true);
    expect(isAllowedNavigation(`${APP_ORIGIN}/studio/index.html`, [APP_ORIGIN])).toBe(true);
    for (const url of [
      'http://127.0.0.1:43118/studio/',
      'http://localhost:43117/studio/',
      'https://127.0.0.1:43117/',
      `http://127.0.0.1:43117@evil.example/`,
      'https://github.com/',
      'app://other/',
      'file:///tmp/x.html',
      'data:text/html,hi',
    ]) {
      expect(isAllowedNavigation(url, [WORKSPACE, APP_ORIGIN]), url).toBe(false);
    }
  });

  it('recognises workspace origins: plain http on 127.0.0.1 with a port', () => {
    expect(isWorkspaceOrigin(WORKSPACE)).toBe(true);
    expect(isWorkspaceOrigin('http://127.0.0.1')).toBe(false);
    expect(isWorkspaceOrigin('http://localhost:43117')).toBe(false);
    expect(isWorkspaceOrigin('http://127.0.0.1:43117.evil')).toBe(false);
  });
});

describe('isVettedExternalUrl', () => {
  it('opens https links to vetted hosts only', () => {
    expect(isVettedExternalUrl('https://github.com/some/repo#readme')).toBe(true);
    for (const url of [
      'http://github.com/',
      'https://github.com.evil.example/',
      'https://evilgithub.com/',
      'https://gist.github.com/',
      'https://user@github.com/',
      'https://github.com:8443/',
      'file:///Applications/Calculator.app',
      'smb://server/share',
      'javascript:alert(1)',
      'nonsense',
    ]) {
      expect(isVettedExternalUrl(url), url).toBe(false);
    }
  });
});

describe('isTrustedSender', () => {
  it('accepts the main frame of the UI origin only', () => {
    expect(isTrustedSender({ url: `${WORKSPACE}/studio/`, isMainFrame: true }, WORKSPACE)).toBe(true);
    expect(isTrustedSender({ url: `${WORKSPACE}/studio/`, isMainFrame: false }, WORKSPACE)).toBe(false);
    expect(isTrustedSender({ url: 'http://127.0.0.1:1/studio/', isMainFrame: true }, WORKSPACE)).toBe(false);
    expect(isTrustedSender({ url: WELCOME_URL, isMainFrame: true }, WORKSPACE)).toBe(false);
    expect(isTrustedSender(undefined, WORKSPACE)).toBe(false);
  });
});

describe('isPermissionGranted', () => {
  it('grants clipboard writes and fullscreen to the UI, nothing else to anyone', () => {
    expect(isPermissionGranted('clipboard-sanitized-write', `${WORKSPACE}/studio/`, WORKSPACE)).toBe(true);
    expect(isPermissionGranted('fullscreen', `${WORKSPACE}/`, WORKSPACE)).toBe(true);
    expect(isPermissionGranted('fullscreen', 'http://127.0.0.1:1/', WORKSPACE)).toBe(false);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      expect(isPermissionGranted(permission, `${WORKSPACE}/`, WORKSPACE), permission).toBe(false);
    }
  });
});

describe('resolveAppFile', () => {
  const root = path.resolve('/srv/ui');

  it('maps / and /studio/ to the built UI', () => {
    expect(resolveAppFile(root, '/studio/')).toBe(path.join(root, 'index.html'));
    expect(resolveAppFile(root, '/')).toBe(path.join(root, 'index.html'));
    expect(resolveAppFile(root, '/studio/assets/app-1.js')).toBe(path.join(root, 'assets', 'app-1.js'));
    expect(resolveAppFile(root, '/assets/a%20b.css')).toBe(path.join(root, 'assets', 'a b.css'));
  });

  it('never leaves the root', () => {
    for (const pathname of [
      '/../secret',
      '/studio/../../etc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/assets%2F..%2F..%2Fx',
      '/..%5C..%5Cx',
      '/C:/Windows/win.ini',
      '/x/C:y',
      '/a%00.html',
      '/%E0%A4%A',
      '/./index.html',
    ]) {
      expect(resolveAppFile(root, pathname), pathname).toBeUndefined();
    }
  });
});

describe('IPC_ARGS', () => {
  const ok = (channel: keyof typeof IPC_ARGS, args: unknown[]) => IPC_ARGS[channel].safeParse(args).success;
  const abs = path.resolve('/work/intro.ts');

  it('takes exactly the arguments each call has', () => {
    expect(ok(IPC.appVersion, [])).toBe(true);
    expect(ok(IPC.appVersion, ['x'])).toBe(false);
    expect(ok(IPC.openFile, [])).toBe(true);
    expect(ok(IPC.openFile, [abs])).toBe(true);
    expect(ok(IPC.openFile, [abs, abs])).toBe(false);
    expect(ok(IPC.openFile, [path.resolve('/work/specs/quote-card.json')])).toBe(true);
    expect(ok(IPC.newFromExample, ['brand-intro'])).toBe(true);
    expect(ok(IPC.newFromExample, ['brand-intro', path.resolve('/work/new')])).toBe(true);
    expect(ok(IPC.updateSettings, [{ apiEnabled: true }])).toBe(true);
    expect(ok(IPC.revealInFolder, [abs])).toBe(true);
  });

  it('refuses relative paths, non-compositions, odd ids and non-objects', () => {
    expect(ok(IPC.openFile, ['intro.ts'])).toBe(false);
    expect(ok(IPC.openFile, [path.resolve('/work/notes.txt')])).toBe(false);
    expect(ok(IPC.openFile, [`${abs}\0.ts`])).toBe(false);
    expect(ok(IPC.openFile, [42])).toBe(false);
    expect(ok(IPC.newFromExample, ['../x'])).toBe(false);
    expect(ok(IPC.newFromExample, ['brand-intro', 'relative'])).toBe(false);
    expect(ok(IPC.updateSettings, [null])).toBe(false);
    expect(ok(IPC.updateSettings, [[1]])).toBe(false);
    expect(ok(IPC.revealInFolder, ['x'])).toBe(false);
    expect(ok(IPC.revealInFolder, ['/'.padEnd(5000, 'a')])).toBe(false);
  });
});
