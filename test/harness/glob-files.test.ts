import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { globFiles } from '../../harness/io/glob-files.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('glob');

describe('globFiles', () => {
  it('enters a tree behind many links through the first link only, and never through a link to an ancestor', () => {
    // As under /proc, where every process links to the same large trees (cwd, root).
    const d = dir();
    mkdirSync(join(d, 'tree', 'deep'), { recursive: true });
    writeFileSync(join(d, 'tree', 'a.non'), '');
    writeFileSync(join(d, 'tree', 'deep', 'b.non'), '');
    for (let i = 0; i < 30; i++) {
      const proc = join(d, 'procs', String(i).padStart(2, '0'));
      mkdirSync(proc, { recursive: true });
      symlinkSync(join(d, 'tree'), join(proc, 'cwd'));
      symlinkSync(d, join(proc, 'root'));
    }
    expect(globFiles('**/*.non', { cwd: d })).toEqual(['procs/00/cwd/a.non', 'procs/00/cwd/deep/b.non', 'tree/a.non', 'tree/deep/b.non']);
  });

  it('matches a path through a link to a directory it has already read by its real path', () => {
    const d = dir();
    mkdirSync(join(d, 'lib'));
    writeFileSync(join(d, 'lib', 'a.non'), '');
    mkdirSync(join(d, 'zz'));
    symlinkSync(join(d, 'lib'), join(d, 'zz', 'deep'));
    expect(globFiles('**/deep/*.non', { cwd: d })).toEqual(['zz/deep/a.non']);
    expect(globFiles('**/*.non', { cwd: d })).toEqual(['lib/a.non', 'zz/deep/a.non']);
  });

  it('ends in a symbolic-link cycle and follows a link to a directory it has not read', () => {
    const d = dir();
    mkdirSync(join(d, 'a', 'b'), { recursive: true });
    writeFileSync(join(d, 'a', 'b', 'x.non'), '');
    symlinkSync('..', join(d, 'a', 'b', 'up'));
    mkdirSync(join(d, 'elsewhere', 'z'), { recursive: true });
    writeFileSync(join(d, 'elsewhere', 'z', 'y.non'), '');
    mkdirSync(join(d, 'c'));
    symlinkSync(join(d, 'elsewhere', 'z'), join(d, 'c', 'linked'));
    expect(globFiles('{a,c}/**/*.non', { cwd: d })).toEqual(['a/b/x.non', 'c/linked/y.non']);
  });
});
