// The CPU time another process has used so far: what a render needs to see how much of the machine
// its encoder takes. Linux only (procfs); elsewhere there is no cheap way, and callers fall back.
import { readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc reports CPU time in these ticks, 100 a second on every mainstream kernel. */
const TICKS_PER_SECOND = 100;

/**
 * The fields of /proc/<pid>/stat after the command name (field 3, the state, first), or undefined
 * where there is none. The name may hold spaces and parentheses: fields are counted after its last ')'.
 */
export function procStatFields(pid: number | 'self'): string[] | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** CPU milliseconds from /proc ticks. */
export const ticksToMs = (ticks: number): number => (ticks * 1000) / TICKS_PER_SECOND;

/** User plus system CPU milliseconds of process `pid` (all its threads), or undefined where unknown. */
export function processCpuMs(pid: number | undefined): number | undefined {
  const fields = pid === undefined ? undefined : procStatFields(pid);
  if (!fields) return undefined;
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name and state.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
  return ticksToMs(utime + stime);
}

/**
 * Idle milliseconds summed over every core since boot (idle + iowait in /proc/stat), or undefined
 * where unknown: over an interval, how much of the machine nobody used, other programs included.
 */
export function machineIdleMs(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const line = readFileSync('/proc/stat', 'latin1').split('\n', 1)[0]!;
    const ticks = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = (ticks[3] ?? NaN) + (ticks[4] ?? 0);
    return Number.isFinite(idle) ? ticksToMs(idle) : undefined;
  } catch {
    return undefined;
  }
}
