import { describe, expect, it } from 'vitest';
import { compareRuns, DEFAULT_COMPARE_OPTIONS, type RunCsv } from '../../harness/compare/compare.js';
import type { CsvRecord } from '../../harness/results/csv.js';
import { seeded } from '../bench/seeded.js';

/** 20 puzzles × 5 repetitions, each about `ms` (±5%), stamped with calibrations around `calib` ms. */
function run(file: string, ms: number, calib: number, seed: number): RunCsv {
  const rand = seeded(seed);
  const records: CsvRecord[] = [];
  for (let p = 0; p < 20; p++)
    for (let rep = 1; rep <= 5; rep++)
      records.push({
        puzzle_id: `p${p}`,
        puzzle_path: `p${p}.non`,
        strategy: 'backtrack',
        rep: String(rep),
        status: 'unique',
        verified: 'true',
        time_ms: (ms * (0.95 + 0.1 * rand())).toFixed(3),
        calib_ms: (calib * (0.97 + 0.06 * rand())).toFixed(3),
        dead_ends: '3',
        decisions: '4',
        line_solves: '100',
      });
  return { file, columns: Object.keys(records[0]!), records };
}

describe('compare: --min-time with calibration scaling', () => {
  it('judges the floor on the times measured, so that swapping the runs does not change which pairs it spares', () => {
    // Every solve measured under 1 ms on both sides: below the default --min-time, never flagged,
    // although NEW's times scaled by BASE's busier calibration (×2) come to about 1.8 ms.
    const busy = run('busy.csv', 0.7, 2, 1);
    const idle = run('idle.csv', 0.9, 1, 2);
    const forward = compareRuns(busy, idle, DEFAULT_COMPARE_OPTIONS);
    const backward = compareRuns(idle, busy, DEFAULT_COMPARE_OPTIONS);
    expect(forward.speedFactor).toBeCloseTo(2, 1);
    expect(backward.speedFactor).toBeCloseTo(0.5, 1);
    for (const r of [forward, backward]) {
      expect(r.counts.timeRegressions + r.counts.timeImprovements).toBe(0);
      expect(r.pairs.every((p) => p.time?.note.includes('below --min-time'))).toBe(true);
    }
    expect(forward.pairs.filter((p) => p.time?.verdict === 'unchanged')).toHaveLength(20);
  });

  it('still judges a pair whose measured time is above the floor on one side', () => {
    const busy = run('busy.csv', 0.7, 2, 1);
    const idle = run('idle.csv', 1.9, 1, 2); // 1.9 ms measured, 3.8 ms scaled: 5.4× slower
    const result = compareRuns(busy, idle, DEFAULT_COMPARE_OPTIONS);
    expect(result.counts.timeRegressions).toBe(20);
  });
});
