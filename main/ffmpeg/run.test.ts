import { describe, expect, it } from 'vitest';
import { ffmpegPath, ffprobePath } from './binaries.ts';
import { FfmpegError, LineTail, runTool, spawnTool } from './run.ts';

describe('LineTail', () => {
  it('keeps only the last lines, joining lines split across chunks', () => {
    const tail = new LineTail(3);
    tail.push('one\ntw');
    tail.push('o\r\nthree\nfour\rfive');
    expect(tail.lines()).toEqual(['three', 'four', 'five']);
  });

  it('skips blank lines', () => {
    const tail = new LineTail(5);
    tail.push('\n\n  \nreal\n');
    expect(tail.lines()).toEqual(['real']);
  });
});

describe('runTool', () => {
  it("fails with ffmpeg's exit code and its last stderr lines", async () => {
    const error = await runTool(ffmpegPath(), [
      '-hide_banner',
      '-i',
      '/definitely/missing/input.wav',
      '-f',
      'null',
      '-',
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FfmpegError);
    const ffmpegError = error as FfmpegError;
    expect(ffmpegError.exitCode).toBe(1);
    expect(ffmpegError.message).toMatch(/^ffmpeg failed \(exit code 1\)/);
    expect(ffmpegError.message).toContain('/definitely/missing/input.wav: No such file or directory');
    expect(ffmpegError.stderrTail.length).toBeLessThanOrEqual(40);
  });

  it('bounds the stderr it keeps for a chatty process', async () => {
    // Each frame makes ffmpeg print a line at -loglevel debug: thousands of lines in all.
    const { stderrTail } = await runTool(
      ffmpegPath(),
      ['-v', 'debug', '-f', 'lavfi', '-i', 'testsrc2=s=64x64:d=2', '-f', 'null', '-'],
      {
        tailLines: 40,
      },
    );
    expect(stderrTail).toHaveLength(40);
  });

  it('captures stdout when asked (ffprobe JSON)', async () => {
    const { stdout } = await runTool(
      ffprobePath(),
      ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=64x48:d=1', '-show_streams', '-print_format', 'json'],
      { captureStdout: true },
    );
    const parsed = JSON.parse(stdout) as { streams: { width: number; height: number }[] };
    expect(parsed.streams[0]).toMatchObject({ width: 64, height: 48 });
  });

  it('kills the process when the signal aborts', async () => {
    const controller = new AbortController();
    const proc = spawnTool(ffmpegPath(), ['-f', 'lavfi', '-i', 'testsrc2=s=64x64', '-f', 'null', '-'], {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('user cancelled')), 300);
    await expect(proc.done).rejects.toThrow('user cancelled');
    expect(proc.exited).toBe(true);
    expect(proc.child.signalCode).toBe('SIGKILL');
  });
});
