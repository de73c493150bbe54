import { describe, expect, it } from 'vitest';
import { compareRuns, DEFAULT_COMPARE_OPTIONS } from '../../harness/compare/compare.js';
import { calibratedRun } from '../helpers/synthetic-runs.js';

/** 20 puzzles × 5 repetitions, each about `ms` (±5%), stamped with calibrations around `calib` ms. */
const run = (file: string, ms: number, calib: number, seed: number) => calibratedRun(file, { puzzles: 20, msOf: () => 1, scale: ms, calib, seed });

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
