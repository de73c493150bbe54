import { statSync } from 'node:fs';

/**
 * The files this process has read as input (puzzles, grids, models, run CSVs), by device and inode,
 * so that an output path naming one of them, however written, is refused rather than overwriting it.
 */
const inputs = new Set<string>();
/** Set by the command line, where one process runs one command: a library user reads and writes as it likes. */
let tracking = false;

/** Notes the input files this process reads from now on (see refuseInputAsOutput). */
export function trackInputFiles(): void {
  tracking = true;
}

const identity = (stats: { dev: number; ino: number }) => `${stats.dev}:${stats.ino}`;

/** Notes a regular file read as input. */
export function noteInputFile(stats: { dev: number; ino: number; isFile(): boolean }): void {
  if (tracking && stats.isFile()) inputs.add(identity(stats));
}

/** True when `path` is a file this process has read as input. */
export function isInputFile(path: string): boolean {
  let stats;
  try {
    stats = statSync(path, { throwIfNoEntry: false });
  } catch {
    return false; // no such file (a file in the way of its folder is the writer's to report)
  }
  return stats !== undefined && stats.isFile() && inputs.has(identity(stats));
}

/** Whether `path` is a directory (through links); false when it is not there or cannot be looked at. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false; // a file in the way of its folder, a folder not searchable: the writer's to report
  }
}

/** Refuses to write `path` when it is one of this process's inputs (or no path at all). */
export function refuseInputAsOutput(path: string): void {
  if (path === '') throw new Error('an output path is empty: name a file');
  // Found here, before the work: a write would only fail at its end (EISDIR), or at a run's first row.
  if (isDirectory(path)) throw new Error(`${path}: is a directory; name a file`);
  if (isInputFile(path)) throw new Error(`${path}: is also an input of this command; give another output file`);
}
