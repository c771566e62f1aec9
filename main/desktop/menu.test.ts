import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { menuTemplate } from './menu.ts';
import type { MenuActions, MenuState } from './menu.ts';
import { DOCS_URL } from './menu.ts';
import { isVettedExternalUrl } from './security.ts';

const state: MenuState = {
  platform: 'linux',
  isDev: false,
  hasFile: true,
  recent: [
    { path: '/work/a.ts', openedAt: '2026-01-01T00:00:00.000Z', exists: true },
    { path: '/work/gone.ts', openedAt: '2026-01-01T00:00:00.000Z', exists: false },
  ],
  examples: [{ id: 'brand-intro', title: 'Brand intro', description: 'The mark arrives.' }],
};

function actions(): MenuActions {
  return {
    open: vi.fn(),
    openRecent: vi.fn(),
    newFromExample: vi.fn(),
    closeFile: vi.fn(),
    openDocs: vi.fn(),
  };
}

const submenu = (item: MenuItemConstructorOptions | undefined) =>
  item?.submenu as MenuItemConstructorOptions[];
const labels = (items: MenuItemConstructorOptions[]) =>
  items.map((item) => item.label ?? item.role ?? item.type);
const find = (items: MenuItemConstructorOptions[], label: string) =>
  items.find((item) => item.label === label);
/** Calls an item's click handler the way Electron would (the arguments are unused here). */
const click = (item: MenuItemConstructorOptions | undefined) => (item?.click as (() => void) | undefined)?.();

describe('menuTemplate', () => {
  it('has File, Edit, View and Help; the app and Window menus on macOS', () => {
    expect(labels(menuTemplate(state, actions()))).toEqual(['File', 'editMenu', 'View', 'help']);
    expect(labels(menuTemplate({ ...state, platform: 'darwin' }, actions()))).toEqual([
      'appMenu',
      'File',
      'editMenu',
      'View',
      'windowMenu',
      'help',
    ]);
  });

  it('offers Open, Open Recent, New from Example, Close and Quit, wired to the actions', () => {
    const a = actions();
    const file = submenu(menuTemplate(state, a)[0]);
    expect(labels(file)).toEqual([
      'Open…',
      'Open Recent',
      'New from Example',
      'separator',
      'Close',
      'separator',
      'quit',
    ]);
    click(find(file, 'Open…'));
    expect(a.open).toHaveBeenCalled();
    const recent = submenu(find(file, 'Open Recent'));
    expect(recent.map((item) => [item.label, item.enabled])).toEqual([
      ['/work/a.ts', true],
      ['/work/gone.ts', false],
    ]);
    click(recent[0]);
    expect(a.openRecent).toHaveBeenCalledWith('/work/a.ts');
    click(submenu(find(file, 'New from Example'))[0]);
    expect(a.newFromExample).toHaveBeenCalledWith('brand-intro');
    click(find(file, 'Close'));
    expect(a.closeFile).toHaveBeenCalled();
  });

  it('leaves Quit to the app menu on macOS, and Close to the window when no file is open', () => {
    const file = submenu(
      menuTemplate({ ...state, platform: 'darwin', hasFile: false, recent: [] }, actions())[1],
    );
    expect(labels(file)).toEqual(['Open…', 'Open Recent', 'New from Example', 'separator', 'close']);
    expect(submenu(find(file, 'Open Recent'))).toEqual([{ label: 'No Recent Files', enabled: false }]);
  });

  it('keeps Save and Render out of the menu: the UI handles those keys', () => {
    const accelerators = JSON.stringify(menuTemplate(state, actions()), (_key, value: unknown) =>
      typeof value === 'function' ? undefined : value,
    );
    expect(accelerators).not.toMatch(/CmdOrCtrl\+(S|R|Enter)"/);
  });

  it('shows developer tools only in development', () => {
    const viewRoles = (isDev: boolean) =>
      submenu(menuTemplate({ ...state, isDev }, actions())[2]).map((item) => item.role);
    expect(viewRoles(false)).not.toContain('toggleDevTools');
    expect(viewRoles(true)).toContain('toggleDevTools');
  });

  it('links Help to vetted documentation', () => {
    const a = actions();
    click(submenu(menuTemplate(state, a).at(-1))[0]);
    expect(a.openDocs).toHaveBeenCalled();
    expect(isVettedExternalUrl(DOCS_URL)).toBe(true);
  });
});
