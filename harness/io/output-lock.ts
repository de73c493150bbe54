import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ensureParentDir, refuseFileInTheWay } from './output-path.js';
import { basename, dirname, join, resolve } from 'node:path';
import type Lockfile from 'proper-lockfile';

/**
 * proper-lockfile, loaded by the first lock taken: loading it sets handlers for Ctrl-C and SIGTERM
 * (to release locks), and a handler cannot run while synchronous work (compare, merge, report) holds
 * the thread, so a command that takes no lock must keep the default action: the signal ends it.
 */
const lockfile = (): typeof Lockfile => createRequire(import.meta.url)('proper-lockfile') as typeof Lockfile;

/** How old a lock may grow before it is taken for the lock of a run that was killed. */
const STALE_MS = 10_000;

/** Releases an output lock (may be called more than once); `held` says whether the lock is still this process's. */
export type OutputLock = (() => void) & { held: () => boolean };

/**
 * Takes the lock on an output file (a `FILE.lock` folder beside it, refreshed while the run lives),
 * so that a second run writing the same file is refused instead of interleaving its rows. A run
 * that exits releases it; one that was killed leaves a lock that goes stale within 10 s.
 * Returns the release function (which may be called more than once), with `held()`: false once
 * another run has taken the lock over, as it may from a run whose thread was blocked for longer
 * than that (reading a named pipe), which must then not write the file.
 */
export function lockOutput(path: string, warn: (line: string) => void): OutputLock {
  if (path === '') throw new Error('an output path is empty: name a file');
  // Its folder first: a file in the way is named, where stat would only say ENOTDIR.
  ensureParentDir(path);
  // A device (`--out /dev/null`) is no file two runs could corrupt, and no lock can sit beside it.
  const existing = statSync(path, { throwIfNoEntry: false });
  if (existing && !existing.isFile()) return Object.assign(() => {}, { held: () => true });
  const real = lockedFile(path, existing !== undefined, true);
  try {
    let lost = false;
    const release = lockfile().lockSync(real, {
      realpath: false,
      stale: STALE_MS,
      onCompromised: (err) => {
        lost = true;
        warn(`nonobench: the lock on ${path} was lost (${err.message}); another run may write it too`);
      },
    });
    // The lock folder as made: one another run made in its place is another (its birth time differs).
    const folder = `${real}.lock`;
    const made = statSync(folder);
    const held = () => {
      if (lost) return false;
      const now = statSync(folder, { throwIfNoEntry: false });
      return now !== undefined && now.ino === made.ino && now.birthtimeMs === made.birthtimeMs;
    };
    let released = false;
    const unlock = () => {
      if (released) return;
      released = true;
      // Another run's lock is not this run's to remove.
      if (!held()) return;
      try {
        release();
      } catch {
        // Already gone (removed by hand, or compromised): nothing to release.
      }
    };
    return Object.assign(unlock, { held: () => !released && held() });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED')
      throw lockedError(path, real);
    throw err;
  }
}

/**
 * Refuses a file a run holds the lock of, as lockOutput does, without taking the lock: for a
 * command that replaces the file in one synchronous go (merge, every whole output), which could
 * not refresh a lock.
 */
export function refuseIfLocked(path: string): void {
  if (path === '') throw new Error('an output path is empty: name a file');
  refuseFileInTheWay(path); // nothing is created before the merge succeeds
  const existing = statSync(path, { throwIfNoEntry: false });
  if (existing && !existing.isFile()) return;
  // A run locks its file before it creates it (at its first row): a file not there yet may be locked too.
  let real: string;
  try {
    real = lockedFile(path, existing !== undefined, false);
  } catch {
    return; // its folder is not there yet: no run writes into it
  }
  // proper-lockfile's convention (a fresh REAL.lock), read without loading it (see lockfile above).
  const lock = statSync(`${real}.lock`, { throwIfNoEntry: false });
  if (lock && lock.mtimeMs > Date.now() - STALE_MS) throw lockedError(path, real);
}

/**
 * The file a lock is taken on: the file itself, whatever names it (a symbolic link to it, dangling
 * too, or another path through a linked folder); with `makeFolder`, the folder a dangling link
 * points into is made.
 */
function lockedFile(path: string, exists: boolean, makeFolder: boolean): string {
  if (exists) return realpathSync(path);
  const named = linkTarget(path);
  if (makeFolder && named !== path) ensureParentDir(named);
  return join(realpathSync(dirname(named)), basename(named));
}

/** Where a dangling symbolic link points (followed as the run's open follows it), else the path itself. */
function linkTarget(path: string): string {
  let named = path;
  for (let hops = 0; hops < 40 && !statSync(named, { throwIfNoEntry: false }) && lstatSync(named, { throwIfNoEntry: false })?.isSymbolicLink(); hops++)
    named = resolve(dirname(named), readlinkSync(named));
  return named;
}

const lockedError = (path: string, real: string) =>
  new Error(`${path}: another nonobench run is writing it (its lock ${real}.lock is at most ${STALE_MS / 1000} s old): wait for it, or give another output file`);
