import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  estimateRatio,
  geometricMean,
  intervalCut,
  mannWhitneyNull,
  mannWhitneyPValue,
  mannWhitneyU,
  normalCdf,
  normalQuantile,
} from '../../harness/compare/stats.js';
import { seeded } from '../bench/seeded.js';

function gaussian(rand: () => number): number {
  let u = 0;
  while (u === 0) u = rand();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/** n lognormal times around `scale` ms, a fraction of them inflated like a descheduled repetition. */
function times(rand: () => number, n: number, scale: number, sigma: number, outliers = 0): number[] {
  return Array.from({ length: n }, () => {
    const t = scale * Math.exp(sigma * gaussian(rand));
    return rand() < outliers ? t * (1 + 3 * rand()) : t;
  });
}

/** P(U = u) by listing every way to interleave m and n observations. */
function bruteNull(m: number, n: number): number[] {
  const counts = new Array<number>(m * n + 1).fill(0);
  let total = 0;
  for (let mask = 0; mask < 1 << (m + n); mask++) {
    let bits = 0;
    for (let x = mask; x; x &= x - 1) bits++;
    if (bits !== m) continue;
    // Positions in increasing order; a set bit is an observation of the first sample.
    let u = 0;
    let secondSeen = 0;
    for (let pos = 0; pos < m + n; pos++) {
      if (mask & (1 << pos)) u += secondSeen;
      else secondSeen++;
    }
    counts[u]!++;
    total++;
  }
  return counts.map((c) => c / total);
}

describe('Mann–Whitney null distribution', () => {
  it('matches enumeration of every interleaving for small samples', () => {
    for (let m = 1; m <= 6; m++)
      for (let n = 1; n <= 6; n++) {
        const exact = [...mannWhitneyNull(m, n)];
        const brute = bruteNull(m, n);
        expect(exact).toHaveLength(brute.length);
        exact.forEach((p, u) => expect(p).toBeCloseTo(brute[u]!, 12));
      }
  });

  it('is symmetric and sums to one for larger samples', () => {
    const dist = mannWhitneyNull(12, 9);
    expect(dist.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    for (let u = 0; u < dist.length; u++) expect(dist[u]).toBeCloseTo(dist[dist.length - 1 - u]!, 14);
  });

  it('U of one sample over the other and back adds up to m·n', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 8 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 8 }), (a, b) => {
        expect(mannWhitneyU(a, b) + mannWhitneyU(b, a)).toBe(a.length * b.length);
      }),
    );
  });

  it('gives the textbook p-values and interval cuts', () => {
    // 5 vs 5, completely separated: 2 of the 252 interleavings are as extreme.
    expect(mannWhitneyPValue(25, 5, 5)).toBeCloseTo(2 / 252, 12);
    expect(mannWhitneyPValue(0, 5, 5)).toBeCloseTo(2 / 252, 12);
    expect(mannWhitneyPValue(12.5, 5, 5)).toBe(1);
    // The two-sided 5% critical value of U for 5 vs 5 is 2, so three differences are cut from each end.
    expect(intervalCut(5, 5, 0.95)).toEqual({ k: 3, achieved: expect.closeTo(1 - 2 * (4 / 252), 12) });
    expect(intervalCut(4, 4, 0.95)).toEqual({ k: 1, achieved: expect.closeTo(1 - 2 / 70, 12) });
    // 3 vs 3 cannot reach 95%: even the most extreme ordering has probability 1/20 on each side.
    expect(intervalCut(3, 3, 0.95).k).toBe(0);
    expect(intervalCut(3, 3, 0.9).k).toBe(1);
    expect(intervalCut(1, 20, 0.95).k).toBe(0);
  });

  it('the normal approximation for large samples joins the exact cut smoothly', () => {
    const exact = intervalCut(50, 50, 0.95); // 2500 pairs: still exact
    const approx = intervalCut(51, 51, 0.95);
    expect(exact.achieved).toBeGreaterThanOrEqual(0.95);
    expect(Math.abs(approx.achieved - 0.95)).toBeLessThan(0.005);
    // The cut grows with the number of pairs, roughly in proportion.
    expect(approx.k / (51 * 51)).toBeCloseTo(exact.k / (50 * 50), 2);
  });

  it('normal quantile inverts the distribution function', () => {
    for (const p of [0.001, 0.025, 0.3, 0.5, 0.9, 0.975]) expect(normalCdf(normalQuantile(p))).toBeCloseTo(p, 6);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 4);
  });
});

describe('ratio estimate', () => {
  it('its interval contains the true ratio for most seeds (lognormal noise, 5 repetitions)', () => {
    for (const [trueRatio, sigma, outliers] of [
      [1, 0.05, 0],
      [2, 0.1, 0],
      [1.3, 0.2, 0.15],
    ] as const) {
      let covered = 0;
      let withCi = 0;
      for (let seed = 1; seed <= 300; seed++) {
        const rand = seeded(seed);
        const est = estimateRatio(times(rand, 5, 20, sigma, outliers), times(rand, 5, 20 * trueRatio, sigma, outliers));
        if (est.low === null) continue;
        withCi++;
        if (est.low <= trueRatio && trueRatio <= est.high!) covered++;
      }
      expect(withCi).toBe(300);
      // Nominal 95% (achieved 96.8% for 5 vs 5); 300 draws leave about ±1.3% of sampling error.
      expect(covered / withCi).toBeGreaterThan(0.92);
    }
  });

  it('also covers with unequal, larger samples on the normal approximation', () => {
    let covered = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const rand = seeded(1000 + seed);
      const est = estimateRatio(times(rand, 60, 5, 0.1), times(rand, 45, 6, 0.1));
      if (est.low! <= 1.2 && 1.2 <= est.high!) covered++;
    }
    expect(covered).toBeGreaterThanOrEqual(54);
  });

  it('finds a doubling and its interval excludes 1', () => {
    const rand = seeded(7);
    const est = estimateRatio(times(rand, 5, 20, 0.05), times(rand, 5, 40, 0.05));
    expect(est.ratio).toBeGreaterThan(1.8);
    expect(est.ratio).toBeLessThan(2.2);
    expect(est.low).toBeGreaterThan(1.5);
    expect(est.pValue).toBeLessThan(0.01);
  });

  it('the Hodges–Lehmann ratio is the median of all pairwise ratios (brute force)', () => {
    const time = fc.double({ min: 0.01, max: 1000, noNaN: true });
    fc.assert(
      fc.property(fc.array(time, { minLength: 1, maxLength: 7 }), fc.array(time, { minLength: 1, maxLength: 7 }), (base, next) => {
        const logs = base.flatMap((b) => next.map((n) => Math.log(n) - Math.log(b))).sort((x, y) => x - y);
        const mid = logs.length >> 1;
        const med = logs.length % 2 ? logs[mid]! : (logs[mid - 1]! + logs[mid]!) / 2;
        expect(Math.log(estimateRatio(base, next).hodgesLehmann)).toBeCloseTo(med, 9);
      }),
    );
  });

  it('scales with the new times and inverts when the sides swap', () => {
    const time = fc.double({ min: 0.01, max: 1000, noNaN: true });
    fc.assert(
      fc.property(
        fc.array(time, { minLength: 4, maxLength: 8 }),
        fc.array(time, { minLength: 4, maxLength: 8 }),
        fc.double({ min: 0.1, max: 10, noNaN: true }),
        (base, next, factor) => {
          const a = estimateRatio(base, next);
          const scaled = estimateRatio(base, next.map((t) => t * factor));
          expect(scaled.ratio / a.ratio).toBeCloseTo(factor, 9);
          expect(scaled.low! / a.low!).toBeCloseTo(factor, 9);
          expect(scaled.high! / a.high!).toBeCloseTo(factor, 9);
          const swapped = estimateRatio(next, base);
          expect(swapped.low! * a.high!).toBeCloseTo(1, 9);
          expect(swapped.high! * a.low!).toBeCloseTo(1, 9);
          expect(a.low!).toBeLessThanOrEqual(a.hodgesLehmann * (1 + 1e-12));
          expect(a.hodgesLehmann).toBeLessThanOrEqual(a.high! * (1 + 1e-12));
        },
      ),
    );
  });

  it('falls back to the range of pairwise ratios when the repetitions are too few', () => {
    const est = estimateRatio([10, 12], [30, 24]);
    expect(est.low).toBeCloseTo(2, 12);
    expect(est.high).toBeCloseTo(3, 12);
    expect(est.achievedConfidence).toBeCloseTo(1 - 2 / 6, 12);
    expect(estimateRatio([10, 12, 11], [30, 24, 25]).achievedConfidence).toBeCloseTo(0.9, 12);
    expect(estimateRatio([10, 12, 11, 13], [30, 24, 25, 26]).achievedConfidence).toBeCloseTo(1 - 2 / 70, 12);
  });

  it('has no interval for a single repetition, and still a ratio', () => {
    const est = estimateRatio([10], [15, 16, 14]);
    expect(est.low).toBeNull();
    expect(est.high).toBeNull();
    expect(est.ratio).toBe(1.5);
  });

  it('survives zero times (raised to the CSV resolution)', () => {
    const est = estimateRatio([0, 0, 0, 0], [0, 0, 0, 0]);
    expect(est.ratio).toBe(1);
    expect(est.low).toBe(1);
    expect(est.pValue).toBe(1);
  });
});

describe('geometric mean', () => {
  it('is the n-th root of the product, and NaN for nothing', () => {
    expect(geometricMean([2, 8])).toBeCloseTo(4, 12);
    expect(geometricMean([0.5, 2, 1])).toBeCloseTo(1, 12);
    expect(geometricMean([])).toBeNaN();
  });
});
