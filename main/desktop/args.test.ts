import { describe, expect, it } from 'vitest';
import { ArgsError, parseDesktopArgs, userArgs } from './args.ts';

describe('userArgs', () => {
  it('drops the executable, and the app folder when unpackaged', () => {
    expect(userArgs(['/opt/Kino/kino', 'a.ts'], false)).toEqual(['a.ts']);
    expect(userArgs(['/x/electron', '.', 'a.ts'], true)).toEqual(['a.ts']);
  });
});

describe('parseDesktopArgs', () => {
  it('reads a file, --headless and --api-port in either spelling', () => {
    expect(parseDesktopArgs([])).toEqual({ headless: false });
    expect(parseDesktopArgs(['intro.ts'])).toEqual({ headless: false, file: 'intro.ts' });
    expect(parseDesktopArgs(['--headless', '--api-port', '9000'])).toEqual({ headless: true, apiPort: 9000 });
    expect(parseDesktopArgs(['--api-port=9001', 'a.ts'])).toEqual({
      headless: false,
      apiPort: 9001,
      file: 'a.ts',
    });
  });

  it('ignores switches it does not know (Chromium, macOS) and takes the first file', () => {
    expect(parseDesktopArgs(['--no-sandbox', '-psn_0_1234', 'a.ts', 'b.ts', '--enable-logging'])).toEqual({
      headless: false,
      file: 'a.ts',
    });
  });

  it('takes anything after -- as the file', () => {
    expect(parseDesktopArgs(['--', '--odd-name.ts'])).toEqual({ headless: false, file: '--odd-name.ts' });
  });

  it.each([
    [['--api-port'], '--api-port expects a port number from 1 to 65535, got ""'],
    [['--api-port', 'abc'], 'got "abc"'],
    [['--api-port=0'], 'got "0"'],
    [['--api-port', '65536'], 'got "65536"'],
    [['--api-port', '-1'], 'got "-1"'],
    [['--headless', 'a.ts'], '--headless runs the render API only; leave out the file'],
  ])('refuses %j in one line', (args, message) => {
    expect(() => parseDesktopArgs(args)).toThrow(ArgsError);
    expect(() => parseDesktopArgs(args)).toThrow(message);
  });
});
