import { describe, expect, it } from 'vitest';
import { judgeTime } from '../../harness/compare/judge.js';
import { timedSide } from '../helpers/synthetic-runs.js';

const side = timedSide;

const rules = { threshold: 0.1, confidence: 0.95, minTimeMs: 0 };

describe('an interval ending exactly on the threshold', () => {
  it('lies on it, not beyond it, whichever run is BASE (CPU times in whole steps make this common)', () => {
    for (const [b, n] of [
      [10, 11],
      [20, 22],
      [50, 55],
      [100, 110],
      [200, 220],
      [5, 5.5],
    ] as const) {
      // Every NEW repetition exactly 10% slower: the interval is [1.1, 1.1], which does not lie above 1.1.
      const forward = judgeTime(side([b, b, b, b, b]), side([n, n, n, n, n]), rules)!;
      const backward = judgeTime(side([n, n, n, n, n]), side([b, b, b, b, b]), rules)!;
      expect([forward.verdict, backward.verdict], `${b} → ${n} ms`).toEqual(['unchanged', 'unchanged']);
    }
  });

  it('gives mirrored verdicts when the runs are swapped', () => {
    // The lower end of the interval is 5.5 / 5 = 1.1 exactly: not a regression, so the other way not an improvement.
    const base = [5.5, 5, 5, 5, 5, 5];
    const next = [7, 6.5, 5.5, 7, 5.5, 6.5];
    expect(judgeTime(side(base), side(next), rules)!.verdict).toBe('unchanged');
    expect(judgeTime(side(next), side(base), rules)!.verdict).toBe('unchanged');
    // Just past the threshold, both ways.
    const past = next.map((t) => t * 1.001);
    expect(judgeTime(side(base), side(past), rules)!.verdict).toBe('regression');
    expect(judgeTime(side(past), side(base), rules)!.verdict).toBe('improvement');
  });
});

describe('a change of one repetition a side exactly on the threshold', () => {
  it('is listed as unconfirmed, or not, whichever run is BASE', async () => {
    const { compareRuns, DEFAULT_COMPARE_OPTIONS } = await import('../../harness/compare/compare.js');
    const { formatComparison } = await import('../../harness/compare/format.js');
    const run = (ms: number) => ({
      file: 'mem.csv',
      columns: ['puzzle_id', 'puzzle_path', 'strategy', 'rep', 'status', 'verified', 'time_ms', 'dead_ends', 'decisions', 'line_solves'],
      records: [{ puzzle_id: 'abc', puzzle_path: 'p.non', strategy: 's', rep: '1', status: 'unique', verified: 'true', time_ms: String(ms), dead_ends: '0', decisions: '0', line_solves: '5' }],
    });
    // 230 / 200 is 1.15 exactly (so 1.15 > 1 + 0.15 is false), while 200 / 230 < 1 / 1.15 in floating point.
    const listed = (base: number, next: number) => {
      const text = formatComparison(compareRuns(run(base), run(next), { ...DEFAULT_COMPARE_OPTIONS, threshold: 0.15, minTimeMs: 0 }), 'table');
      return !text.includes('Unconfirmed time changes, fewer than 3 repetitions a side: none');
    };
    expect([listed(200, 230), listed(230, 200)]).toEqual([false, false]);
    expect([listed(200, 231), listed(231, 200)]).toEqual([true, true]);
  });
});
