import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { REPORTS_DIR } from '../../corpus/paths.js';
import { refuseInputAsOutput } from '../../corpus/input-files.js';
import { withDefaultStopSignals } from '../../corpus/stop-signals.js';

/** The nearest existing path at or above `path` (undefined when none can be stat'ed). */
function nearestExisting(path: string): { path: string; isDir: boolean } | undefined {
  for (let p = path; ; p = dirname(p)) {
    try {
      return { path: p, isDir: statSync(p).isDirectory() };
    } catch {}
    if (dirname(p) === p) return undefined;
  }
}

/**
 * Makes sure `dir` is a directory, creating it and its parents. A file in the way gives one line
 * naming it (mkdir's own EEXIST/ENOTDIR messages name neither the option nor the real culprit).
 */
export function ensureDir(dir: string): void {
  const found = nearestExisting(dir);
  if (found && !found.isDir) throw new Error(`${found.path}: exists and is not a directory`);
  mkdirSync(dir, { recursive: true });
}

/** Refuses an output whose folder cannot be made because a file is in the way, creating nothing. */
export function refuseFileInTheWay(file: string): void {
  const found = nearestExisting(dirname(file));
  if (found && !found.isDir) throw new Error(`${found.path}: exists and is not a directory`);
}

/** Creates the directory an output file goes into, as `run` and `merge` do. */
export const ensureParentDir = (file: string): void => ensureDir(dirname(file));

/**
 * Writes an output file (an `--svg`, `--out`, `--replay`), creating its directory first. A file is
 * written whole beside its place and renamed over it, so a crash or Ctrl-C never leaves half a page;
 * a device or named pipe (`/dev/stdout`, `>(gzip > x.gz)`) is written as it is, since renaming over
 * it would replace it; a pipe that no one reads yet blocks until someone does, Ctrl-C still working.
 */
export function writeOutputFile(file: string, text: string): void {
  refuseInputAsOutput(file);
  ensureParentDir(file);
  const existing = statSync(file, { throwIfNoEntry: false });
  if (existing?.isFIFO()) withDefaultStopSignals(() => writeFileSync(file, text));
  else if (existing && !existing.isFile()) writeFileSync(file, text);
  else writeFileAtomic.sync(file, text);
}

/** Where a command writes by default: `reports/runs/<prefix><UTC time, file-name safe>.csv`. */
export function defaultRunsPath(prefix: string): string {
  const stamp = new Date().toISOString().replace(/[:]/g, '-').replace(/\..*/, '');
  return join(REPORTS_DIR, 'runs', `${prefix}${stamp}.csv`);
}
