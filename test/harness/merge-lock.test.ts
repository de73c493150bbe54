import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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
});
