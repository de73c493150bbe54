import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from './paths.js';

/** Where the named puzzle sets live: `NAME.txt`, one path a line (relative to the package root), `#` comments. */
export const SUITES_DIR = join(PACKAGE_ROOT, 'corpus', 'suites');

/** The names of the bundled suites. */
export function suiteNames(): string[] {
  return readdirSync(SUITES_DIR)
    .filter((f) => f.endsWith('.txt'))
    .map((f) => f.slice(0, -4))
    .sort();
}

/** A suite's paths, absolute; an unknown name throws an Error listing the known ones. */
export function suitePaths(name: string): string[] {
  const file = join(SUITES_DIR, `${name}.txt`);
  if (!/^[\w-]+$/.test(name) || !existsSync(file)) throw new Error(`unknown suite "${name}" (known: ${suiteNames().join(', ')})`);
  return readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => join(PACKAGE_ROOT, line));
}
