// Peak resident memory of a process and all its descendants (the render, its worker threads, and
// the ffmpeg it runs), sampled from /proc: a child's own maxRSS misses ffmpeg, which is its child.
import { readdirSync, readFileSync } from 'node:fs';
import { procStatFields } from '../processes/process-cpu.ts';

const PAGE_BYTES = 4096;

function parentOf(pid: number): number | undefined {
  const ppid = procStatFields(pid)?.[1];
  return ppid === undefined ? undefined : Number(ppid);
}

function residentBytes(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
  } catch {
    return 0;
  }
}

export function treeResidentBytes(root: number): number {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const parent = parentOf(pid);
    if (parent === undefined) continue;
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  let total = 0;
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    total += residentBytes(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Samples the tree every `intervalMs` until stopped; returns the peak in MB. */
export function sampleTreePeak(root: number, intervalMs = 50): { stop: () => number } {
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, treeResidentBytes(root));
  };
  const timer = setInterval(sample, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      return peak / 1024 / 1024;
    },
  };
}
