import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listPuzzleFiles } from '../../corpus/load.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const newDir = tempDirs('deep-folders');

describe('a folder walk down folders nested 1500 deep', () => {
  // Each folder was known by its real path, which Node finds by looking at every component of the path:
  // a time that grew with the cube of the depth, 11 s at 800 deep and over a minute at 1500, before.
  it('takes seconds at most, and finds the puzzle at the bottom', () => {
    const root = newDir();
    const bottom = join(root, ...Array<string>(1500).fill('a'));
    mkdirSync(bottom, { recursive: true });
    writeFileSync(join(bottom, 'x.non'), 'width 1\nheight 1\nrows\n1\ncolumns\n1\n');
    const started = performance.now();
    expect(listPuzzleFiles(root)).toEqual([join(bottom, 'x.non')]);
    expect(performance.now() - started).toBeLessThan(15_000);
  }, 60_000);
});
