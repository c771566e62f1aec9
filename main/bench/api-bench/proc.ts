// What the API bench reads from /proc (Linux): a process's CPU ticks and nice, its descendants,
// whether one is a render worker, a main thread's scheduler figures, the machine's CPU ticks. Each
// reader answers null (or an empty answer) where /proc or the process is not there.
import { readdirSync, readFileSync } from 'node:fs';

export const TICK_MS = 10; // USER_HZ is 100 on Linux

export interface ProcInfo {
  ppid: number;
  ticks: number;
  nice: number;
}

export function readProc(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      ppid: Number(fields[1]),
      ticks: Number(fields[11]) + Number(fields[12]),
      nice: Number(fields[16]),
    };
  } catch {
    return null;
  }
}

export function descendants(root: number): Map<number, ProcInfo> {
  const all = new Map<number, ProcInfo>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const info = readProc(Number(name));
    if (info) all.set(Number(name), info);
  }
  const found = new Map<number, ProcInfo>();
  const parents = [root];
  while (parents.length > 0) {
    const parent = parents.pop()!;
    for (const [pid, info] of all)
      if (info.ppid === parent && !found.has(pid)) {
        found.set(pid, info);
        parents.push(pid);
      }
  }
  return found;
}

export function isRenderWorker(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('render-job-process');
  } catch {
    return false;
  }
}

/** Main-thread scheduler figures: nanoseconds on a CPU and waiting runnable for one. */
export function readSchedstat(pid: number): { runNs: number; waitNs: number; slices: number } | null {
  try {
    const [run, wait, slices] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(' ');
    return { runNs: Number(run), waitNs: Number(wait), slices: Number(slices) };
  } catch {
    return null;
  }
}

/** Machine CPU ticks since boot: busy at nice 0 or below, busy at a positive nice, and the total. */
export function readMachine(): { plain: number; niced: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const plain = user! + system! + irq! + softirq! + steal!;
    return { plain, niced: nice!, total: plain + nice! + idle! + iowait! };
  } catch {
    return null;
  }
}
