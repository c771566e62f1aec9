import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { machineIdleMs, processCpuMs } from './process-cpu.ts';

describe('processCpuMs', () => {
  it.runIf(process.platform === 'linux')('reads a busy child’s CPU time as it grows', async () => {
    const child = spawn(process.execPath, ['-e', 'const end = Date.now() + 1500; while (Date.now() < end);']);
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const first = processCpuMs(child.pid)!;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const second = processCpuMs(child.pid)!;
    const elapsed = performance.now() - started;
    child.kill();
    await new Promise((resolve) => child.on('exit', resolve));
    // A busy loop gains CPU time, never more than the time that passed (it is one thread; ticks
    // are 10 ms), however busy the machine is.
    expect(first).toBeGreaterThanOrEqual(0);
    expect(second).toBeGreaterThan(first);
    expect(second).toBeLessThanOrEqual(elapsed + 100);
  });

  it('answers undefined for a process that is not there', () => {
    expect(processCpuMs(undefined)).toBeUndefined();
    expect(processCpuMs(2 ** 22 + 12345)).toBeUndefined();
  });

  it.runIf(process.platform === 'linux')('counts the machine’s idle time, at most every core’s', async () => {
    const before = machineIdleMs()!;
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const idle = machineIdleMs()! - before;
    const elapsed = performance.now() - started;
    expect(idle).toBeGreaterThanOrEqual(0);
    // Ticks are 10 ms: allow one per core either side.
    expect(idle).toBeLessThanOrEqual((elapsed + 20) * (await import('node:os')).availableParallelism());
  });
});
