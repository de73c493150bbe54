import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../helpers/temp-dirs.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';

requireBuiltCli();

const DANCER = 'corpus/puzzles/webpbn/1.non';
const newDir = tempDirs('output-collisions');

/** One line naming both options, the help pointer, exit 2, nothing on stdout. */
const refused = (r: { code: number | null; err: string; out: string }, line: string) => {
  expect(r.code).toBe(2);
  expect(r.err.trim().split('\n')).toEqual([`nonobench: ${line}`, expect.stringMatching(/^\(see nonobench \S+ --help\)$/)]);
  expect(r.out).toBe('');
};

describe('two files of one command given as the same file', () => {
  it('classify --out X --html X is refused before classifying, not a CSV replaced by the page', () => {
    const dir = newDir();
    const file = join(dir, 'c.csv');
    refused(runCli('classify', DANCER, '--workers', '0', '--out', file, '--html', join(dir, '.', 'c.csv'), '-q'), `--html ${join(dir, 'c.csv')} names the same file as --out: give each its own file`);
    expect(existsSync(file)).toBe(false);
  });

  it('solve --svg X --replay X is refused, not a picture replaced by the replay page', () => {
    const file = join(newDir(), 'x.out');
    refused(runCli('solve', DANCER, '-s', 'overlap', '--svg', file, '--replay', file), `--replay ${file} names the same file as --svg: give each its own file`);
    expect(existsSync(file)).toBe(false);
  });

  it('bench-check --out naming the baseline or the rerun is refused before the rerun', () => {
    const dir = newDir();
    const base = join(dir, 'base.csv');
    expect(runCli('run', DANCER, '-s', 'overlap', '--workers', '1', '--warmup', '0', '--out', base, '-q').code).toBe(0);
    const before = readFileSync(base, 'utf8');
    const rerun = join(dir, 'rerun.csv');
    refused(runCli('bench-check', '--baseline', base, '--run-out', rerun, '--out', base, '-q'), `--out ${base} names the same file as --baseline: give each its own file`);
    expect(existsSync(rerun)).toBe(false);
    refused(runCli('bench-check', '--baseline', base, '--run-out', rerun, '--out', rerun, '-q'), `--out ${rerun} names the same file as --run-out: give each its own file`);
    expect(existsSync(rerun)).toBe(false);
    expect(readFileSync(base, 'utf8')).toBe(before);
  });
});
