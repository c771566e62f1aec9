import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packagedToolEnv } from './resources.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// js-yaml is electron-builder's own YAML parser (a dependency of app-builder-lib).
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

describe('packagedToolEnv', () => {
  it('points at the binaries copied into the resources folder', () => {
    expect(packagedToolEnv({}, '/opt/Kino/resources', 'linux')).toEqual({
      FFMPEG_PATH: '/opt/Kino/resources/ffmpeg/ffmpeg',
      FFPROBE_PATH: '/opt/Kino/resources/ffmpeg/ffprobe',
    });
    expect(packagedToolEnv({}, 'C:\\Kino\\resources', 'win32')).toEqual({
      FFMPEG_PATH: 'C:\\Kino\\resources\\ffmpeg\\ffmpeg.exe',
      FFPROBE_PATH: 'C:\\Kino\\resources\\ffmpeg\\ffprobe.exe',
    });
  });

  it('leaves a path the user chose alone, and then sets neither (one build for both tools)', () => {
    expect(packagedToolEnv({ FFMPEG_PATH: '/usr/bin/ffmpeg' }, '/r', 'darwin')).toEqual({});
    expect(packagedToolEnv({ FFPROBE_PATH: '/opt/ff/ffprobe' }, '/r', 'linux')).toEqual({});
  });

  it.each(['darwin', 'win32', 'linux'] as const)(
    "finds ffmpeg's licence notice packaged beside the binaries (%s)",
    (platform) => {
      const key = ({ darwin: 'mac', win32: 'win', linux: 'linux' } as const)[platform];
      const config = yaml.load(readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<
        string,
        { extraResources: { from: string; to: string; filter: string[] }[] }
      >;
      const notice = config[key]!.extraResources.find((r) => r.filter.includes('ffmpeg-LICENSE.md'));
      expect(notice).toBeDefined();
      const ffmpeg = packagedToolEnv({}, '/resources', platform).FFMPEG_PATH!.replaceAll('\\', '/');
      expect(path.posix.join('/resources', notice!.to)).toBe(path.posix.dirname(ffmpeg));
      expect(existsSync(path.join(ROOT, notice!.from, 'ffmpeg-LICENSE.md'))).toBe(true);
    },
  );
});
