import { describe, expect, it } from 'vitest';
import { judgeTime } from '../../harness/compare/judge.js';
import { timedSide } from '../helpers/synthetic-runs.js';
import { seeded } from '../bench/seeded.js';

const side = timedSide;

/** Standard normal by Box–Muller. */
const gauss = (rnd: () => number) => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());

describe('the p-value that decides whether a pair holds among all pairs', () => {
  it('is valid under no change: at 10 and 20 repetitions a side, p ≤ 0.01 at most about 1% of the time', () => {
    const rnd = seeded(5);
    const rules = { threshold: 0.1, confidence: 0.95, minTimeMs: 0 };
    for (const reps of [10, 20]) {
      const trials = 6000;
      let small = 0;
      for (let t = 0; t < trials; t++) {
        const draw = () => Array.from({ length: reps }, () => 10 * Math.exp(0.3 * gauss(rnd)));
        if (judgeTime(side(draw()), side(draw()), rules)!.pValue <= 0.01) small++;
      }
      // 1% of 6000 is 60 (sd about 7.7); p-values of the trimmed samples gave about 85–95.
      expect(small, `${reps} repetitions`).toBeLessThanOrEqual(78);
    }
  });

  it('is the exact Mann–Whitney p-value of every timed repetition, the slowest included', () => {
    // 5 + 5, every NEW repetition slower: 2/252 (the trimmed 4 + 4 would give 2/70).
    const t = judgeTime(side([10, 10.1, 10.2, 10.3, 10.4]), side([20, 20.1, 20.2, 20.3, 20.4]), { threshold: 0.1, confidence: 0.95, minTimeMs: 0 })!;
    expect(t.pValue).toBeCloseTo(2 / 252, 12);
  });
});
