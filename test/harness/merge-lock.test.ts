import { execFile, execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockOutput } from '../../harness/io/output-lock.js';
import { readCsvInput, writeCsv } from '../../harness/results/csv.js';
import { mergeCsvs } from '../../harness/results/merge.js';
import { RUN_COLUMNS } from '../../harness/results/row.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tmp = tempDirs('merge-identity');
requireBuiltCli();

const { records: BASE } = readCsvInput('test/fixtures/csv/base.csv');
/** A row of the fixture's run as a task: its index, puzzle, path and rep. */
const row = (task: number, puzzleId: string, path: string, rep: number) => ({ ...BASE[0]!, config: 'backtrack', task: String(task), puzzle_id: puzzleId, puzzle_path: path, rep: String(rep) });

describe('merge and the output lock', () => {
  it('refuses to merge into a file a run is writing, like a second run, and leaves it as it was', () => {
    const d = tmp();
    const out = join(d, 'x.csv');
    writeCsv(out, RUN_COLUMNS, [row(0, 'a1b2c3d4e5f6', 'cat.non', 1)]);
    const before = readFileSync(out, 'utf8');
    const unlock = lockOutput(out, () => {}); // what `run --out x.csv` holds while it runs
    try {
      const r = runCli('merge', out, out);
      expect(r.code).toBe(2);
      expect(r.err.trim().split('\n')).toEqual([expect.stringMatching(/x\.csv: another nonobench run is writing it/)]);
      expect(readFileSync(out, 'utf8')).toBe(before);
    } finally {
      unlock();
    }
    // Once the run is done, the merge goes ahead and lets the lock go.
    const r = runCli('merge', out, out);
    expect([r.code, r.out]).toEqual([0, `1 rows written to ${out}\n`]);
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it('mergeCsvs itself checks the lock, whoever calls it', () => {
    const d = tmp();
    const out = join(d, 'y.csv');
    writeFileSync(out, '');
    const unlock = lockOutput(out, () => {});
    try {
      expect(() => mergeCsvs(out, [out])).toThrow(/another nonobench run is writing it/);
    } finally {
      unlock();
    }
  });

  it('writes a device or pipe as it is, a link to a file through the link, and makes no folder for a merge that fails', async () => {
    const d = tmp();
    const input = join(d, 'in.csv');
    writeCsv(input, RUN_COLUMNS, [row(0, 'a1b2c3d4e5f6', 'cat.non', 1), row(1, 'a1b2c3d4e5f6', 'cat.non', 2)]);
    const expected = readFileSync(input, 'utf8');
    // A link to a file: the file gets the rows, the link stays a link.
    const target = join(d, 'target.csv');
    writeFileSync(target, 'old\n');
    symlinkSync(target, join(d, 'link.csv'));
    expect(runCli('merge', join(d, 'link.csv'), input).code).toBe(0);
    expect(lstatSync(join(d, 'link.csv')).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe(expected);
    // A link to a file not there yet: the file is made, as a shell's `>` makes it.
    symlinkSync(join(d, 'later', 'made.csv'), join(d, 'dangling.csv'));
    expect(runCli('merge', join(d, 'dangling.csv'), input).code).toBe(0);
    expect(lstatSync(join(d, 'dangling.csv')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(d, 'later', 'made.csv'), 'utf8')).toBe(expected);
    // A named pipe (as /dev/stdout into `| …` is): its reader gets the rows, and it stays a pipe.
    const pipe = join(d, 'pipe');
    execFileSync('mkfifo', [pipe]);
    const read = new Promise<string>((done) => execFile('cat', [pipe], (_err, out) => done(out)));
    expect(runCli('merge', pipe, input).code).toBe(0);
    expect(await read).toBe(expected);
    expect(lstatSync(pipe).isFIFO()).toBe(true);
    // A merge that fails leaves no folder behind.
    const r = runCli('merge', join(d, 'new', 'sub', 'out.csv'), join(d, 'missing.csv'));
    expect(r.code).toBe(2);
    expect(existsSync(join(d, 'new'))).toBe(false);
  });
});
