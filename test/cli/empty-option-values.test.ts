import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from 'commander';
import { nonEmpty } from '../../harness/cli/options.js';
import { tempDirs } from '../helpers/temp-dirs.js';
import { CLI, requireBuiltCli, runCli } from '../helpers/cli.js';

requireBuiltCli();

const DANCER = 'corpus/puzzles/webpbn/1.non';
const GOAL = '.##..\n.##.#\n..#.#\n.###.\n#.#..\n#.#..\n..##.\n.#.#.\n.#.#.\n.##..\n';
const newDir = tempDirs('empty-values');
/** A recorded run, for the commands that read one. */
const RUN = 'test/fixtures/csv/base.csv';

/** The usage line commander gives a refused option value, and the help pointer: two lines, exit 2. */
const refused = (r: { code: number | null; err: string; out: string }, option: string) => {
  expect(r.code).toBe(2);
  expect(r.err).toContain(`${option} must not be empty`);
  expect(r.err.trim().split('\n')).toHaveLength(2);
  expect(r.out).toBe('');
};

describe('an option naming a file, folder or slice, given an empty value', () => {
  it('is refused by the parser', () => {
    expect(nonEmpty('--out')('a.csv')).toBe('a.csv');
    expect(() => nonEmpty('--out')('')).toThrow(InvalidArgumentError);
  });

  it('run --shard "" is refused, not a run of every task', () => {
    const dir = newDir();
    const out = join(dir, 'r.csv');
    refused(runCli('run', DANCER, '-s', 'overlap', '--workers', '1', '--warmup', '0', '--shard', '', '--out', out, '-q'), '--shard');
    expect(existsSync(out)).toBe(false);
  });

  it('run --resume "" is refused, not a new run into reports/runs/', () => {
    const before = existsSync('reports/runs') ? readdirSync('reports/runs') : [];
    refused(runCli('run', 'no-such-puzzle.non', '--resume', '', '-q'), '--resume');
    expect(existsSync('reports/runs') ? readdirSync('reports/runs') : []).toEqual(before);
  });

  it('cnf --out "" is refused, not the CNF on standard output', () => {
    refused(runCli('cnf', DANCER, '--out', ''), '--out');
  });

  it('cnf --decode "" and convert --solutions "" are refused, not read as a file named "" or "."', () => {
    refused(runCli('cnf', '--decode', '', DANCER), '--decode');
    refused(runCli('convert', 'corpus/puzzles/tournament/taai2011-questions.txt#1', '-', '--solutions', ''), '--solutions');
  });

  it('check --svg "" is refused, not a check without the picture', () => {
    const dir = newDir();
    const grid = join(dir, 'goal.txt');
    writeFileSync(grid, GOAL);
    refused(runCli('check', DANCER, grid, '--svg', ''), '--svg');
  });

  it('classify --svg "" is refused before anything is classified', () => {
    const dir = newDir();
    const out = join(dir, 'c.csv');
    refused(runCli('classify', DANCER, '--workers', '0', '--svg', '', '--out', out, '-q'), '--svg');
    expect(existsSync(out)).toBe(false);
  });

  it('compare --out "" is refused, not the comparison on standard output', () => {
    refused(runCli('compare', RUN, RUN, '--out', ''), '--out');
  });

  it('bench-check --run-out "" and --out "" are refused before the rerun', () => {
    const dir = newDir();
    const before = readFileSync(RUN, 'utf8');
    refused(runCli('bench-check', '--baseline', RUN, '--run-out', '', '-q'), '--run-out');
    const rerun = join(dir, 'rerun.csv');
    refused(runCli('bench-check', '--baseline', RUN, '--run-out', rerun, '--out', '', '-q'), '--out');
    expect(existsSync(rerun)).toBe(false);
    expect(readFileSync(RUN, 'utf8')).toBe(before);
  });

  it('generate --out "" names the option, not mkdir', () => {
    refused(runCli('generate', '--out', ''), '--out');
  });

  it('ab --out-dir "" is refused before anything is built', () => {
    // Outside a git checkout: without the fix, ab stops at once there instead of building (and failing on mkdir '' after).
    const r = spawnSync(process.execPath, [resolve(CLI), 'ab', 'HEAD', '--out-dir', ''], { cwd: newDir(), encoding: 'utf8', timeout: 60_000 });
    refused({ code: r.status, err: r.stderr, out: r.stdout }, '--out-dir');
  });
});
