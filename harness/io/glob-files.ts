import { readdirSync, realpathSync, type Dirent } from 'node:fs';
import { globSync, type GlobOptions } from 'tinyglobby';

/** Plain code-unit order, the same on every machine. */
const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Glob matches, sorted, following symbolic links as folder walks do (corpus/load.ts): each real
 * directory is read once, so neither a link cycle nor links to a large tree read from many places
 * (each process's `cwd` and `root` under /proc lead to the whole file system) make it run for ever.
 * Entries are read in name order, so which of two links to one directory is walked is the same on
 * every file system.
 */
export function globFiles(patterns: string | string[], options: Omit<GlobOptions, 'fs'> = {}): string[] {
  const read = new Set<string>();
  // The walker reads every directory as readdirSync(path, { withFileTypes: true }).
  const readOnce = (path: string, options: { withFileTypes: true }): Dirent[] => {
    let real: string | undefined;
    try {
      real = realpathSync(path);
    } catch {
      // Unresolvable: reading it reports the problem as the walker expects.
    }
    if (real !== undefined) {
      if (read.has(real)) return [];
      read.add(real);
    }
    return readdirSync(path, options).sort(byName);
  };
  return globSync(patterns, { ...options, fs: { readdirSync: readOnce as unknown as typeof readdirSync } }).sort();
}
