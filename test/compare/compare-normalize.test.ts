import { describe, expect, it } from 'vitest';
import { compareRuns, DEFAULT_COMPARE_OPTIONS, MIN_CALIBRATIONS, runCalibration } from '../../harness/compare/compare.js';
import { calibratedRun } from '../helpers/synthetic-runs.js';

/** A synthetic run of 30 puzzles (see calibratedRun), each time `scale` × its own, calibrations around `calib` ms. */
const run = (file: string, scale: number, calib: number, seed: number) => calibratedRun(file, { scale, calib, seed });

describe('compare: machine speed normalization', () => {
  it('discounts a run slowed as a whole, as its calibration shows', () => {
    const base = run('base.csv', 1, 3, 1);
    const busy = run('busy.csv', 1.5, 4.5, 2); // everything 1.5× slower, calibration too
    const normalized = compareRuns(base, busy);
    expect(normalized.speedFactor).toBeCloseTo(2 / 3, 1);
    expect(normalized.counts.timeRegressions).toBe(0);
    const raw = compareRuns(base, busy, { ...DEFAULT_COMPARE_OPTIONS, normalize: false });
    expect(raw.speedFactor).toBe(1);
    expect(raw.counts.timeRegressions).toBe(30);
  });

  it('still flags a slowdown the calibration does not explain', () => {
    const base = run('base.csv', 1, 3, 1);
    const slower = run('slower.csv', 2, 3, 3); // same machine speed, code 2× slower
    const result = compareRuns(base, slower);
    expect(result.speedFactor).toBeCloseTo(1, 1);
    expect(result.counts.timeRegressions).toBe(30);
    expect(result.failed).toBe(true);
  });

  it('does not normalize on too few calibrations', () => {
    const few = run('few.csv', 1, 3, 4).records.slice(0, MIN_CALIBRATIONS - 1);
    expect(runCalibration(few)).toBeNull();
    expect(runCalibration(run('many.csv', 1, 3, 5).records)).toBeCloseTo(3, 1);
    expect(runCalibration(few.map((r) => ({ ...r, calib_ms: '' })))).toBeNull();
  });
});
