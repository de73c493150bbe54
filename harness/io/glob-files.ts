import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { dirname } from 'node:path';
import { globSync, type GlobOptions } from 'tinyglobby';

/** Plain code-unit order, the same on every machine. */
const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

const isInside = (path: string, dir: string) => path === dir || path.startsWith(dir.endsWith('/') ? dir : `${dir}/`);

/**
 * Glob matches, sorted. Symbolic links to directories are followed, but each real directory is
 * entered through links once, and never through a link back into one of its own ancestors: so a
 * link cycle ends, and the trees that every process links to under /proc (its `cwd`, its `root`,
 * the whole file system) are not read once per process. A directory is always read where it is
 * reached without a link, so a link never hides its real path from a pattern. Entries are read in
 * name order, so which of two links to one directory is entered is the same on every file system.
 */
export function globFiles(patterns: string | string[], options: Omit<GlobOptions, 'fs'> = {}): string[] {
  const enteredByLink = new Set<string>();
  // The walker resolves each symbolic link it meets with realpathSync; a link it may not follow
  // throws there, and the walker skips it as it skips a dangling one.
  const resolveLink = (link: string): string => {
    const real = realpathSync(link);
    if (!statSync(real).isDirectory()) return real;
    if (enteredByLink.has(real) || isInside(realpathSync(dirname(link)), real)) throw new Error(`${link}: not followed`);
    enteredByLink.add(real);
    return real;
  };
  // The walker reads every directory as readdirSync(path, { withFileTypes: true }).
  const read = (path: string, readOptions: { withFileTypes: true }): Dirent[] => readdirSync(path, readOptions).sort(byName);
  const fs = { realpathSync: resolveLink as unknown as typeof realpathSync, readdirSync: read as unknown as typeof readdirSync };
  return globSync(patterns, { ...options, fs }).sort();
}
