import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareFiles as compareAny, DEFAULT_COMPARE_OPTIONS } from '../../harness/compare/compare.js';
import { readCsv, writeCsv } from '../../harness/results/csv.js';
import { FAST_WORK, measureWork, SLOWER_WORK, tmp } from '../helpers/slow-runs.js';


// The slowdown is injected through a parameter, a change of settings: compared with --allow-different.
const compareFiles = (base: string, next: string) => compareAny(base, next, { ...DEFAULT_COMPARE_OPTIONS, allowDifferent: true });

describe('compare on real runs', () => {
  let base = '';
  let again = '';
  let slower = '';
  beforeAll(async () => {
    base = await measureWork(FAST_WORK);
    again = await measureWork(FAST_WORK);
    slower = await measureWork(SLOWER_WORK);
  });

  it('flags an injected 2× slowdown', () => {
    const r = compareFiles(base, slower);
    expect(r.pairs).toHaveLength(3);
    for (const p of r.pairs) expect(p.base.times).toHaveLength(5);
    const flagged = r.pairs.filter((p) => p.time!.verdict === 'regression');
    // A repetition of BASE delayed by as much as the slowdown can hide one pair on a busy machine, not more.
    expect(flagged.length).toBeGreaterThanOrEqual(2);
    for (const p of flagged) expect(p.time!.low).toBeGreaterThan(1.1);
    expect(r.pairs.some((p) => p.time!.verdict === 'improvement')).toBe(false);
    expect(r.strategies[0]!.geomeanRatio).toBeGreaterThan(1.5);
    expect(r.exitCode).toBe(1);
  });

  it('reads the same slowdown backwards as an improvement, which does not fail', () => {
    const r = compareFiles(slower, base);
    expect(r.pairs.filter((p) => p.time!.verdict === 'improvement').length).toBeGreaterThanOrEqual(2);
    expect(r.exitCode).toBe(0);
  });

  it('does not flag two runs of the same code', () => {
    const r = compareFiles(base, again);
    expect(r.counts).toMatchObject({ pairs: 3, timeRegressions: 0, timeImprovements: 0, statusRegressions: 0, counterChanges: 0 });
    expect(r.exitCode).toBe(0);
  });

  it('with three repetitions a side still flags the doubling; with one it cannot tell, and does not fail', () => {
    const firstReps = (file: string, reps: number) => {
      const { columns, records } = readCsv(file);
      const out = join(tmp(), `reps-${reps}.csv`);
      writeCsv(out, columns, records.filter((r) => Number(r.rep) <= reps));
      return out;
    };
    const three = compareFiles(firstReps(base, 3), firstReps(slower, 3));
    for (const p of three.pairs) expect(p.time!.note).toBe('3+3 reps: range, 90% CI only');
    // The range of 3+3 is a wide interval: one slow repetition of BASE on a loaded machine hides a pair, so one pair flagged is asked for.
    expect(three.pairs.filter((p) => p.time!.verdict === 'regression').length).toBeGreaterThanOrEqual(1);
    expect(three.pairs.some((p) => p.time!.verdict === 'improvement')).toBe(false);
    const one = compareFiles(firstReps(base, 1), firstReps(slower, 1));
    for (const p of one.pairs) expect(p.time).toMatchObject({ verdict: 'inconclusive', low: null, note: '1+1 reps: fewer than 3 a side' });
    expect([one.counts.timeInconclusive, one.exitCode]).toEqual([3, 0]);
  });
});
