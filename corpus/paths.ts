import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: the nearest folder above this module whose package.json is nonobench's (works from sources and dist/). */
function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'nonobench') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the nonobench package root');
    dir = up;
  }
}

export const PACKAGE_ROOT = findPackageRoot();
/** The bundled corpus, the default of every command that takes puzzle paths. */
export const BUNDLED_CORPUS = join(PACKAGE_ROOT, 'corpus', 'puzzles');
export const REPORTS_DIR = join(PACKAGE_ROOT, 'reports');
