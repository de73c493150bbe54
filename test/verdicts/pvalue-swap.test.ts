import { describe, expect, it } from 'vitest';
import { judgeTime } from '../../harness/compare/judge.js';
import { timedSide } from '../helpers/synthetic-runs.js';
import { mannWhitneyPValue, mannWhitneyU, timesPValue } from '../../harness/compare/stats.js';
import { seeded } from '../bench/seeded.js';

const side = timedSide;

describe('the Mann–Whitney p-value with tied times', () => {
  it('is the same whichever run is BASE: a regression read backwards is an improvement with the same p-value', () => {
    // CPU time in 10 ms steps (an external solver): U = 22.5 of 25, one tie at 30 ms.
    const base = [10, 10, 10, 10, 30];
    const next = [20, 20, 30, 40, 50];
    // scipy.stats.mannwhitneyu(next, base, method='exact').pvalue = 0.05555… = 2·7/252 (U rounded toward the centre, to 22).
    expect(timesPValue(base, next)).toBeCloseTo(14 / 252, 12);
    expect(timesPValue(next, base)).toBeCloseTo(14 / 252, 12);
    const rules = { threshold: 0.1, confidence: 0.95, minTimeMs: 0 };
    const forward = judgeTime(side(base), side(next), rules)!;
    const backward = judgeTime(side(next), side(base), rules)!;
    expect([forward.verdict, backward.verdict]).toEqual(['regression', 'improvement']);
    expect(forward.pValue).toBeCloseTo(backward.pValue, 12);
  });

  it('is symmetric for random tied samples of every small size', () => {
    const rnd = seeded(41);
    for (let t = 0; t < 2000; t++) {
      const m = 2 + Math.floor(rnd() * 10);
      const n = 2 + Math.floor(rnd() * 10);
      const a = Array.from({ length: m }, () => 10 * Math.floor(rnd() * 5));
      const b = Array.from({ length: n }, () => 10 * Math.floor(rnd() * 5));
      const ab = mannWhitneyPValue(mannWhitneyU(a, b), m, n);
      const ba = mannWhitneyPValue(mannWhitneyU(b, a), n, m);
      expect(ab, `${a} vs ${b}`).toBeCloseTo(ba, 12);
    }
  });
});
