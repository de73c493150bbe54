import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRunTable } from '../../harness/compare/table.js';
import { reportData } from '../../harness/report/data.js';
import { REPORT_COLUMNS } from '../../harness/report/report.js';
import fc from 'fast-check';
import { plainDecimal, readCsvInput, writeCsv } from '../../harness/results/csv.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tmp = tempDirs('report-timeout');
requireBuiltCli();

const COLUMNS = ['task', 'puzzle_id', 'puzzle_path', 'strategy', 'config', 'rep', 'status', 'time_ms', 'cpu_ms', 'dead_ends', 'decisions', 'timeout_s'];

/** A run CSV of two puzzles: p1 solved, p2 (file line 3) timed out with the given time limit. */
function runCsv(limit: string): string {
  const file = join(tmp(), 'run.csv');
  const row = (p: number, status: string, timeout_s: string) => ({
    task: String(p),
    puzzle_id: `p${p}`,
    puzzle_path: `p${p}.non`,
    strategy: 'backtrack',
    config: 'backtrack',
    rep: '1',
    status,
    time_ms: status === 'unique' ? '12' : '',
    cpu_ms: status === 'unique' ? '11' : '',
    dead_ends: '0',
    decisions: '0',
    timeout_s,
  });
  writeCsv(file, COLUMNS, [row(1, 'unique', '10'), row(2, 'timeout', limit)]);
  return file;
}

describe('report: timeout_s is checked as time_ms is', () => {
  for (const [bad, why] of [
    ['abc', 'is not a plain decimal'],
    ['-2', 'is below 0'],
    ['9'.repeat(400), 'is out of range'],
    ['1e3', 'is not a plain decimal'],
  ] as const)
    it(`"${bad.slice(0, 12)}": FILE:LINE: column timeout_s …`, () => {
      const file = runCsv(bad);
      expect(() => reportData([loadRunTable(file, REPORT_COLUMNS)])).toThrow(new RegExp(`^${file.replace(/[.\\]/g, '\\$&')}:3: column timeout_s: "[^"]*" ${why}`));
    });

  it('an empty time limit is none, 0 too, and a decimal one is kept', () => {
    for (const [limit, kept] of [
      ['', NaN],
      ['0', NaN],
      ['2.5', 2.5],
    ] as const)
      expect(reportData([loadRunTable(runCsv(limit), REPORT_COLUMNS)]).runs[0]!.limitS[1]).toBe(kept);
  });

  it('the CLI: one line and exit 2, no page written', () => {
    const file = runCsv('abc');
    const r = runCli('report', file, '--out', join(tmp(), 'report.html'));
    expect(r.code).toBe(2);
    expect(r.err).toBe(`${file}:3: column timeout_s: "abc" is not a plain decimal\n`);
  });
});

describe('run writes every number as a plain decimal, so that its readers take it back', () => {
  it('plainDecimal reads back as the same number and never has an exponent', () => {
    const cases = [1e-7, -1e-7, 1.5e-10, 1e21, 2.5e25, 123456789e-20, 0.1, 42, -0, 5e-324, Number.MAX_VALUE];
    fc.assert(
      fc.property(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(...cases)), (n) => {
        const text = plainDecimal(n);
        expect(text).toMatch(/^-?\d+(\.\d+)?$/);
        expect(Number(text)).toBe(n === 0 ? 0 : n);
      }),
    );
    expect([1e-7, 1.5e-10, 1e21, -2.5e-7].map(plainDecimal)).toEqual(['0.0000001', '0.00000000015', '1000000000000000000000', '-0.00000025']);
  });

  it('a run with --timeout 0.0000001 records timeout_s 0.0000001, and report reads it', () => {
    const out = join(tmp(), 'tiny-limit.csv');
    expect(runCli('run', 'corpus/puzzles/webpbn/1.non', '-s', 'overlap', '--timeout', '0.0000001', '--warmup', '0', '--out', out, '--quiet').code).toBe(0);
    const { records } = readCsvInput(out);
    expect(records.map((r) => r.timeout_s)).toEqual(['0.0000001']);
    const r = runCli('report', out, '--out', join(tmp(), 'tiny-limit.html'));
    expect([r.code, r.err]).toEqual([0, '']);
  });
});
