import { describe, expect, it } from 'vitest';
import { defaultUserDataDir } from './user-data-dir.ts';

describe('defaultUserDataDir', () => {
  it('follows XDG_CONFIG_HOME on Linux, else ~/.config', () => {
    expect(defaultUserDataDir('linux', { XDG_CONFIG_HOME: '/x/conf' }, '/home/a')).toBe('/x/conf/kino');
    expect(defaultUserDataDir('linux', {}, '/home/a')).toBe('/home/a/.config/kino');
    expect(defaultUserDataDir('freebsd', { XDG_CONFIG_HOME: '' }, '/home/a')).toBe('/home/a/.config/kino');
  });

  it('ignores a relative XDG_CONFIG_HOME, as the XDG spec asks', () => {
    expect(defaultUserDataDir('linux', { XDG_CONFIG_HOME: 'conf' }, '/home/a')).toBe('/home/a/.config/kino');
  });

  it('uses Application Support on macOS, whatever XDG says', () => {
    expect(defaultUserDataDir('darwin', { XDG_CONFIG_HOME: '/x' }, '/Users/a')).toBe(
      '/Users/a/Library/Application Support/Kino',
    );
  });

  it('uses %APPDATA% on Windows, else the usual roaming folder', () => {
    expect(defaultUserDataDir('win32', { APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'C:\\Users\\a')).toBe(
      'C:\\Users\\a\\AppData\\Roaming\\Kino',
    );
    expect(defaultUserDataDir('win32', {}, 'C:\\Users\\a')).toBe('C:\\Users\\a\\AppData\\Roaming\\Kino');
  });
});
