import { describe, expect, it } from 'vitest';
import { packagedToolEnv } from './resources.ts';

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

  it('leaves a path the user chose alone', () => {
    expect(packagedToolEnv({ FFMPEG_PATH: '/usr/bin/ffmpeg' }, '/r', 'darwin')).toEqual({
      FFPROBE_PATH: '/r/ffmpeg/ffprobe',
    });
  });
});
