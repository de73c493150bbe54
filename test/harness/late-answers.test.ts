import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMPTY, FILLED, makePuzzle, type Grid } from '../../corpus/model.js';
import { parseCsv } from '../../harness/results/csv.js';
import { judge } from '../../harness/results/verify.js';
import { emptyMetrics, type SolveResult } from '../../solvers/api/types.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('late');
requireBuiltCli();
const LATE = 'test/fixtures/harness/ignores-limit.mjs';
const TINY = 'test/fixtures/harness/tiny.json#1';

// One filled cell: the only solution of these clues.
const puzzle = makePuzzle([[1]], [[1]]);
const grid = (cell: number): Grid => Uint8Array.of(cell);
const answered = (status: SolveResult['status'], g: Grid, timeMs: number) =>
  ({ kind: 'done', reply: { result: { status, grid: g, solutions: status === 'unique' ? [g] : [], metrics: emptyMetrics() }, timeMs } }) as const;

describe('an answer after the time limit', () => {
  it('is a timeout row, its message saying what came when; a wrong one stays wrong, and no limit means none', () => {
    const late = judge(puzzle, answered('unique', grid(FILLED), 2605.4), 2, 2000);
    expect([late.status, late.error, late.verified, late.solutions_found]).toEqual(['timeout', 'answered unique after the time limit (2.605 s, the limit 2 s)', 'true', 1]);
    expect(judge(puzzle, answered('unique', grid(FILLED), 2000), 2, 2000).status).toBe('unique');
    expect(judge(puzzle, answered('unique', grid(FILLED), 9e9), 2).status).toBe('unique');
    expect(judge(puzzle, answered('unique', grid(EMPTY), 2605), 2, 2000).status).toBe('wrong');
    expect(judge(puzzle, answered('stuck', grid(0), 2605), 2, 2000).status).toBe('stuck');
  });

  it('from a strategy that never polls it is a timeout in run and in solve, where an answer in time is not', () => {
    const out = join(dir(), 'run.csv');
    const r = runCli('run', TINY, '-s', `slow=${LATE},quick=${LATE}:waitMs=10,overlap`, '--timeout', '1', '--warmup', '0', '--out', out, '--quiet');
    expect([r.code, r.err]).toEqual([0, '']);
    const rows = new Map(parseCsv(readFileSync(out, 'utf8')).records.map((row) => [row.config, row]));
    expect([rows.get('slow')!.status, rows.get('slow')!.error]).toEqual(['timeout', expect.stringMatching(/^answered unique after the time limit \(\d+\.\d{3} s, the limit 1 s\)$/)]);
    expect(Number(rows.get('slow')!.time_ms)).toBeGreaterThanOrEqual(1000);
    expect(rows.get('quick')!.status).toBe('unique');
    expect(rows.get('overlap')!.status).toBe('unique');

    const solved = runCli('solve', TINY, '-s', LATE, '--timeout', '1');
    expect(solved.code).toBe(0);
    expect(solved.err).toMatch(/^nonobench: answered unique after the time limit \(1\.\d{3} s, the limit 1 s\)\n$/);
    expect(solved.out).toMatch(/^status: timeout$/m);
  });
});
