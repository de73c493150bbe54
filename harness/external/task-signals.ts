import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Finding and killing the processes of one external solver call (its task), and removing its
 * folders: shared by the harness and its reaper (`reaper.ts`), so this module imports nothing of
 * the project's, and the reaper starts by reading two small files.
 */

/** The environment variable that marks a task's processes, so that ones that left its group are found too. */
export const TASK_TOKEN_VARIABLE = 'NONOBENCH_TASK';

/** The ids of the live processes (Linux /proc) but this one and `except` for which `keep` holds, given a process's group and readers of its environment and its working directory. */
function processesWhere(except: number, keep: (pgrp: number, environ: () => string, cwd: () => string) => boolean): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === except || pid === process.pid) continue;
    try {
      const stat = readFileSync(join('/proc', name, 'stat'), 'latin1');
      // Fields after the command name (which may hold spaces and parentheses): state ppid pgrp …
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z') continue; // dead already, waiting to be reaped
      const environ = () => readFileSync(join('/proc', name, 'environ'), 'latin1');
      if (keep(Number(pgrp), environ, () => readlinkSync(join('/proc', name, 'cwd')))) found.push(pid);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

const markOf = (token: string) => `${TASK_TOKEN_VARIABLE}=${token}\0`;

/**
 * The real paths of `dirs` that are still folders. Only a folder's parent is resolved: the folder
 * itself, the task's to change, may have become a link to anywhere (its processes' folder, a
 * user's home), and is then no folder of the task's.
 */
function realDirs(dirs: readonly string[]): string[] {
  const real: string[] = [];
  for (const dir of dirs) {
    try {
      if (lstatSync(dir).isDirectory()) real.push(join(realpathSync(dirname(dir)), basename(dir)));
    } catch {
      // Removed already.
    }
  }
  return real;
}

/**
 * The ids of the processes in group `pgid` (none when null), carrying `token` in their environment,
 * or working in one of `dirs` (the task's scratch folder: where a process that left the group and
 * cleared its environment still is, unless it moved), but `except`.
 */
function taskProcesses(pgid: number | null, token: string, except: number, dirs: readonly string[]): number[] {
  const mark = markOf(token);
  const inside = realDirs(dirs);
  const within = (cwd: string) => inside.some((dir) => cwd === dir || cwd.startsWith(`${dir}/`));
  return processesWhere(except, (pgrp, environ, cwd) => pgrp === pgid || environ().includes(mark) || (inside.length > 0 && within(cwd())));
}

/**
 * Whether group `pgid` is still the task's: one of its processes carries the task's token. A group
 * id is not reused while the group has a process, so its other processes are the task's too.
 */
export function groupIsTasks(pgid: number, token: string): boolean {
  const mark = markOf(token);
  return processesWhere(-1, (pgrp, environ) => pgrp === pgid && environ().includes(mark)).length > 0;
}

export function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Signals every process of a task (its group `pgid`, when not null, the processes carrying its
 * token and those working in its folders `dirs`) but `except` (a measuring wrapper, which must live
 * to report): repeated while new ones appear, so a solver forking as it dies is caught too.
 */
export function signalTask(pgid: number | null, token: string, except: number, signal: NodeJS.Signals, dirs: readonly string[] = []): void {
  if (process.platform !== 'linux') {
    if (pgid !== null) kill(-pgid, signal);
    return;
  }
  for (let pass = 0; pass < 10; pass++) {
    const pids = taskProcesses(pgid, token, except, dirs);
    if (pids.length === 0) return;
    for (const pid of pids) kill(pid, signal);
    if (signal !== 'SIGKILL') return;
  }
}

/** Removes a scratch folder; one a leftover process still writes to is retried, then left. */
export function removeDir(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // A process that escaped every kill still writes there: the folder stays in the temp dir.
  }
}
