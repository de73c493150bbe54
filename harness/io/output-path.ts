import { accessSync, closeSync, constants, existsSync, fchmodSync, fsyncSync, mkdirSync, openSync, readdirSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { refuseIfLocked } from './output-lock.js';
import { REPORTS_DIR } from '../../corpus/paths.js';
import { refuseInputAsOutput } from '../../corpus/input-files.js';
import { withDefaultStopSignals } from '../../corpus/stop-signals.js';
import { OutputWriteError } from './thrown.js';
import { writeAll } from './write-all.js';

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
export function ensureDir(given: string): void {
  // Without trailing slashes: stat of `file/` fails (ENOTDIR), and mkdir of it says EEXIST, as of a folder.
  const dir = given.replace(/(?<=[^/])\/+$/, '');
  const found = nearestExisting(dir);
  if (found && !found.isDir) throw new Error(`${found.path}: exists and is not a directory`);
  // One level at a time, not mkdir's `recursive`: where a folder exists but refuses new children with
  // ENOENT (under /proc or /sys), Node's recursive mkdir retries the parent and the child for ever.
  const missing: string[] = [];
  for (let p = dir; p !== found?.path && dirname(p) !== p; p = dirname(p)) missing.push(p);
  for (const p of missing.reverse()) {
    try {
      mkdirSync(p);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // Made meanwhile by another process: a folder will do, a file (or a dangling link) will not.
      if (!statSync(p, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`${p}: exists and is not a directory`);
    }
  }
}

/**
 * Makes the folder of an output written at the end of long work, and refuses it now when nothing
 * can be written there (a read-only file system, a folder without write permission), rather than
 * after the work.
 */
export function refuseUnwritableFolder(file: string): void {
  ensureParentDir(file);
  // A device or named pipe (`/dev/null`, `/dev/stdout`, `>(gzip …)`) is written in place: its folder takes nothing.
  const existing = statSync(file, { throwIfNoEntry: false });
  if (existing && !existing.isFile() && !existing.isDirectory()) return;
  try {
    accessSync(dirname(file), constants.W_OK);
  } catch (err) {
    throw new Error(`${dirname(file)}: nothing can be written in this folder (${(err as NodeJS.ErrnoException).code ?? 'no access'}), so not ${basename(file)}`);
  }
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
 * `text` may come in pieces (a comparison of any size need not fit in one string).
 */
export function writeOutputFile(file: string, text: string | Iterable<string>): void {
  refuseInputAsOutput(file);
  // A run CSV a run is writing: replacing it would send the run's later rows to a deleted file.
  refuseIfLocked(file);
  ensureParentDir(file);
  const pieces = typeof text === 'string' ? [text] : text;
  const existing = statSync(file, { throwIfNoEntry: false });
  if (existing?.isFIFO()) withDefaultStopSignals(() => writeInPlace(file, pieces));
  else if (existing && !existing.isFile()) writeInPlace(file, pieces);
  else replaceWhole(file, pieces, existing?.mode);
}

/** Writes the pieces to a device or named pipe as it is. */
function writeInPlace(file: string, pieces: Iterable<string>): void {
  const fd = openSync(file, 'w');
  try {
    for (const piece of pieces) writePiece(file, fd, piece);
  } finally {
    closeSync(fd);
  }
}

/** Writes all of `piece` (see writeAll); a failure is an OutputWriteError naming `file`. */
function writePiece(file: string, fd: number, piece: string): void {
  try {
    writeAll(fd, Buffer.from(piece, 'utf8'));
  } catch (err) {
    throw new OutputWriteError(file, err);
  }
}

/**
 * Writes the pieces to a file beside `file` and renames it over `file` once every byte is written
 * and synced: a write that comes back short (a nearly full disk) is finished, and one that fails
 * leaves `file` as it was.
 */
function replaceWhole(file: string, pieces: Iterable<string>, mode: number | undefined): void {
  let target = file;
  try {
    target = realpathSync(file); // a link keeps linking to the file written
  } catch {}
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  removeDeadTemps(dirname(target));
  const fd = openSync(temp, 'wx', mode !== undefined ? mode & 0o7777 : 0o666);
  let open = true;
  let done = false;
  try {
    // open's mode passes through the umask: the replaced file's own mode is set as it was.
    if (mode !== undefined) fchmodSync(fd, mode & 0o7777);
    for (const piece of pieces) writePiece(file, fd, piece);
    try {
      fsyncSync(fd);
    } catch (err) {
      throw new OutputWriteError(file, err);
    }
    closeSync(fd);
    open = false;
    renameSync(temp, target);
    done = true;
  } finally {
    if (!done) {
      if (open) try { closeSync(fd); } catch {}
      rmSync(temp, { force: true });
    }
  }
}

/** Folders whose left temporary files this process has removed (once each: a --svg folder takes thousands of files). */
const cleaned = new Set<string>();

/** Removes the temporary files that writes into `dir` left when their process was killed mid-write (Ctrl-C has its default effect in synchronous work). */
function removeDeadTemps(dir: string): void {
  if (cleaned.has(dir)) return;
  cleaned.add(dir);
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {}
  for (const name of names) {
    const m = /^\..+\.([1-9]\d*)\.[0-9a-f]{8}\.tmp$/.exec(name);
    if (!m || Number(m[1]) === process.pid) continue;
    try {
      process.kill(Number(m[1]), 0);
      continue; // alive (or not ours to signal): its write may be going on
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EPERM') continue;
    }
    rmSync(join(dir, name), { force: true });
  }
}

/**
 * Where a command writes by default: `reports/runs/<prefix><UTC time, file-name safe>.csv`, or
 * `…-2.csv`, `…-3.csv` when a run of the same second took that name (its file, or the lock of a run
 * writing it): a default output never replaces another run's.
 */
export function defaultRunsPath(prefix: string): string {
  const stamp = new Date().toISOString().replace(/[:]/g, '-').replace(/\..*/, '');
  const taken = (file: string) => existsSync(file) || existsSync(`${file}.lock`);
  for (let n = 1; ; n++) {
    const file = join(REPORTS_DIR, 'runs', `${prefix}${stamp}${n === 1 ? '' : `-${n}`}.csv`);
    if (!taken(file)) return file;
  }
}
