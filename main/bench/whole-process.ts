// A command measured as a user meets it: the whole process tree's wall time, CPU time and peak
// resident memory (Linux: CPU from this process's reaped-children counters, memory from /proc).
import { spawn } from 'node:child_process';
import { procStatFields, ticksToMs } from '../processes/process-cpu.ts';
import { sampleTreePeak } from './process-tree-rss.ts';

export interface WholeProcess {
  wallMs: number;
  /** User + system CPU of the command and every process under it. */
  cpuMs: number;
  treeRssMB: number;
  stdout: string;
}

/** CPU milliseconds of this process's waited-for children (cutime + cstime, fields 16 and 17). */
function childrenCpuMs(): number {
  const fields = procStatFields('self')!;
  return ticksToMs(Number(fields[13]) + Number(fields[14]));
}

/** Runs `command` to its end (one at a time: the CPU counters are this process's children's). */
export async function measureProcess(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<WholeProcess> {
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const peak = sampleTreePeak(child.pid!, 25);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const wallMs = performance.now() - started;
  const treeRssMB = peak.stop();
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}: ${stderr}`);
  return { wallMs, cpuMs: childrenCpuMs() - cpuBefore, treeRssMB, stdout };
}
