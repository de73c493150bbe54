import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baselineConfig } from '../../harness/compare/baseline.js';
import { compareFiles, loadRunTable } from '../../harness/compare/compare.js';
import { readCsvInput, writeCsv } from '../../harness/results/csv.js';
import { mergeCsvs } from '../../harness/results/merge.js';
import { RUN_COLUMNS, type RunRecord } from '../../harness/results/row.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

/**
 * Values read from run CSVs: times and counters are plain decimals (no exponent, no Infinity), a
 * baseline's settings are held to the bounds of the options they stand for. A bad one is
 * `FILE:LINE: column …: …` and exit 2.
 */

const tmp = tempDirs('csv-values');
requireBuiltCli();

const { records: BASE } = readCsvInput('test/fixtures/csv/base.csv');
/** The fixture's rows as a run of every column, recorded with settings (workers, warmup, memory). */
const RUN: RunRecord[] = BASE.map((r) => ({ ...r, workers: '2', warmup: '0', memory_mb: '256' }));

/** A run CSV of the fixture with record `at` changed; returns its path. The record sits on line at + 2. */
function changed(at: number, over: RunRecord): string {
  const file = join(tmp(), 'run.csv');
  writeCsv(file, RUN_COLUMNS, RUN.map((r, i) => (i === at ? { ...r, ...over } : r)));
  return file;
}

describe('times and counters are plain decimals', () => {
  const cases: [RunRecord, string][] = [
    [{ time_ms: '1e3' }, 'column time_ms: "1e3" is not a plain decimal'],
    [{ time_ms: '1e999' }, 'column time_ms: "1e999" is not a plain decimal'],
    [{ time_ms: 'Infinity' }, 'column time_ms: "Infinity" is not a plain decimal'],
    [{ time_ms: '+5' }, 'column time_ms: "+5" is not a plain decimal'],
    [{ time_ms: '5.' }, 'column time_ms: "5." is not a plain decimal'],
    [{ time_ms: `1${'0'.repeat(400)}` }, `column time_ms: "1${'0'.repeat(78)}…" is out of range`],
    [{ time_ms: '-0.5' }, 'column time_ms: "-0.5" is below 0'],
    [{ calib_ms: '3e0' }, 'column calib_ms: "3e0" is not a plain decimal'],
    [{ dead_ends: '1.5' }, 'column dead_ends: "1.5" is not a whole number'],
    [{ decisions: '-1' }, 'column decisions: "-1" is below 0'],
    [{ line_solves: '0x10' }, 'column line_solves: "0x10" is not a plain decimal'],
    [{ line_solves: '99999999999999999999' }, 'column line_solves: "99999999999999999999" is out of range'],
    [{ rep: '0' }, 'column rep: "0" is below 1'],
    [{ task: '1e2' }, 'column task: "1e2" is not a plain decimal'],
  ];
  for (const [over, message] of cases)
    it(`${Object.entries(over)[0]!.join(' = ').slice(0, 30)}`, () => {
      const file = changed(4, over);
      expect(() => loadRunTable(file)).toThrow(`${file}:6: ${message}`);
      const r = runCli('compare', file, 'test/fixtures/csv/base.csv');
      expect(r.code).toBe(2);
      expect(r.err).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:6: .*${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n$`));
    });

  it('empty times and counters are no value (a solve that never returned)', () => {
    const file = changed(4, { status: 'timeout', verified: '', time_ms: '', dead_ends: '', decisions: '', line_solves: '', max_depth: '' });
    expect(compareFiles('test/fixtures/csv/base.csv', file).counts.statusRegressions).toBeGreaterThan(0);
  });

  it('merge checks the task and rep it places rows by', () => {
    const file = changed(2, { task: 'x' });
    expect(() => mergeCsvs(join(tmp(), 'm.csv'), [file])).toThrow(`${file}:4: column task: "x" is not a plain decimal`);
    const empty = changed(2, { rep: '' });
    expect(() => mergeCsvs(join(tmp(), 'm.csv'), [empty])).toThrow(`${empty}:4: column rep: empty`);
  });

  it('merge refuses a status, time or counter no reader takes, and leaves OUT as it was', () => {
    const out = join(tmp(), 'm.csv');
    writeFileSync(out, 'as it was\n');
    for (const [over, message] of [
      [{ time_ms: '1e3' }, 'column time_ms: "1e3" is not a plain decimal'],
      [{ status: 'Solved' }, 'column status: unknown status "Solved"'],
      [{ dead_ends: '-1' }, 'column dead_ends: "-1" is below 0'],
    ] as [RunRecord, string][]) {
      const file = changed(2, over);
      expect(() => mergeCsvs(out, [file])).toThrow(`${file}:4: ${message}`);
    }
    expect(readFileSync(out, 'utf8')).toBe('as it was\n');
  });
});

describe('a baseline is held to the bounds of the options it stands for', () => {
  const cores = availableParallelism();
  const bound = 4 * cores;
  const cases: [RunRecord, string][] = [
    [{ workers: '10000' }, `column workers: "10000" must be a whole number from 1 to ${bound} (4 × the ${cores} core${cores === 1 ? '' : 's'})`],
    [{ workers: '0' }, `column workers: "0" must be a whole number from 1 to ${bound}`],
    [{ memory_mb: '8' }, 'column memory_mb: "8" must be a whole number ≥ 16 (MiB; a worker thread needs about 8 to start)'],
    [{ warmup: '-1' }, 'column warmup: "-1" must be a whole number from 0 to 100 (as --warmup)'],
    [{ warmup: '1.5' }, 'column warmup: "1.5" must be a whole number from 0 to 100 (as --warmup)'],
    [{ warmup: '1000000000' }, 'column warmup: "1000000000" must be a whole number from 0 to 100 (as --warmup)'],
    [{ timeout_s: '-1' }, 'column timeout_s: "-1" must be a number ≥ 0'],
    [{ timeout_s: '1e3' }, 'column timeout_s: "1e3" must be a number ≥ 0'],
    [{ max_solutions: '0' }, 'column max_solutions: "0" must be a whole number ≥ 1'],
    [{ width: '0' }, 'column width: "0" must be a whole number ≥ 1'],
    [{ params: '[1]' }, 'column params: not a JSON object'],
    [{ puzzle_path: '' }, 'column puzzle_path: empty or not a path'],
  ];
  const everywhere = (over: RunRecord) => {
    const file = join(tmp(), 'baseline.csv');
    writeCsv(file, RUN_COLUMNS, RUN.map((r) => ({ ...r, ...over })));
    return file;
  };
  for (const [over, message] of cases)
    it(`${Object.entries(over)[0]!.join(' = ')}`, () => {
      const file = everywhere(over);
      expect(() => baselineConfig(loadRunTable(file))).toThrow(`${file}:2: ${message}`);
      const r = runCli('bench-check', '--baseline', file, '--run-out', join(tmp(), 'rerun.csv'), '-q');
      expect([r.code, r.err]).toEqual([2, expect.stringMatching(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: column `))]);
      expect(r.err.split('\n')).toHaveLength(2);
    });

  it('a recorded param the strategy does not take is reported at the configuration\'s first row', () => {
    const file = join(tmp(), 'recorded.csv');
    expect(runCli('run', 'corpus/puzzles/webpbn/1.non', 'corpus/puzzles/webpbn/6.non', '-s', 'overlap', '--warmup', '0', '--out', file, '--quiet').code).toBe(0);
    const { records } = readCsvInput(file);
    writeCsv(file, RUN_COLUMNS, records.map((r) => ({ ...r, params: '{"cache":true,"nosuch":1}' })));
    const r = runCli('bench-check', '--baseline', file, '--run-out', join(tmp(), 'rerun.csv'), '-q');
    // Rows are written as tasks finish: the first in task order (task 0) sits on its own line.
    const line = records.findIndex((row) => row.task === '0') + 2;
    expect([r.code, r.err.split('\n')[0]]).toEqual([2, expect.stringMatching(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${line}: overlap: unknown param "nosuch"`))]);
  });

  it('a setting that differs between rows names the first row that differs', () => {
    const file = changed(6, { workers: '3' });
    expect(() => baselineConfig(loadRunTable(file))).toThrow(`${file}:8: column workers takes several values (2, 3): not one run configuration`);
  });

  it('a repetition number that would make more tasks than a run takes is reported at its row, not as a usage error', () => {
    const file = changed(3, { rep: '1000000000' });
    const message = `${file}:5: column rep: 1000000000 repetitions of`;
    expect(() => baselineConfig(loadRunTable(file))).toThrow(message);
    const r = runCli('bench-check', '--baseline', file, '--run-out', join(tmp(), 'rerun.csv'), '-q');
    expect([r.code, r.err]).toEqual([2, expect.stringMatching(/tasks to rerun, more than the limit of 5,000,000\n$/)]);
    expect(r.err.startsWith(message)).toBe(true);
    expect(r.err.split('\n')).toHaveLength(2);
  });

  it('a baseline none of whose puzzles loads is their lines and exit 2, with no knock-on error about the rerun', () => {
    const notPuzzle = join(tmp(), 'not-a-puzzle.non');
    writeFileSync(notPuzzle, 'width 5\0\n');
    const file = everywhere({ puzzle_path: notPuzzle });
    const rerun = join(tmp(), 'rerun.csv');
    const r = runCli('bench-check', '--baseline', file, '--run-out', rerun, '-q');
    expect([r.code, r.err]).toEqual([2, `${notPuzzle}:1: not a text file (binary data)\n`]);
  });

  it('a sound baseline still reads', () => {
    const file = everywhere({});
    expect(baselineConfig(loadRunTable(file))).toMatchObject({ workers: 2, warmup: 0, memoryMb: 256, maxSolutions: 2, timeoutS: 10, repeat: 5 });
  });
});
