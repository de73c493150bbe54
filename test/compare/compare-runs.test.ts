import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareFiles as compareAny, DEFAULT_COMPARE_OPTIONS } from '../../harness/compare/compare.js';
import { readCsv, writeCsv } from '../../harness/results/csv.js';
import { FAST, measure, SLOWER, tmp } from '../helpers/slow-runs.js';


// The slowdown is injected through a parameter, a change of settings: compared with --allow-different.
const compareFiles = (base: string, next: string) => compareAny(base, next, { ...DEFAULT_COMPARE_OPTIONS, allowDifferent: true });

describe('compare on real runs', () => {
  let base = '';
  let again = '';
  let slower = '';
  beforeAll(async () => {
    base = await measure(FAST);
    again = await measure(FAST);
    slower = await measure(SLOWER);
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

  it('with one repetition per side still flags the doubling, without an interval', () => {
    const firstRep = (file: string) => {
      const { columns, records } = readCsv(file);
      const out = join(tmp(), 'one-rep.csv');
      writeCsv(out, columns, records.filter((r) => r.rep === '1'));
      return out;
    };
    const r = compareFiles(firstRep(base), firstRep(slower));
    for (const p of r.pairs) expect(p.time).toMatchObject({ low: null, note: '1 rep, no CI' });
    expect(r.pairs.filter((p) => p.time!.verdict === 'regression').length).toBeGreaterThanOrEqual(2);
  });
});
