import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { benjaminiHochberg, familyShift, signedRankNull } from '../../harness/compare/family.js';
import { seeded } from '../bench/seeded.js';

/** W+ by enumerating every sign pattern: the definition the recurrence must match. */
function bruteSignedRank(n: number): number[] {
  const max = (n * (n + 1)) / 2;
  const counts = new Array<number>(max + 1).fill(0);
  for (let mask = 0; mask < 1 << n; mask++) {
    let w = 0;
    for (let r = 1; r <= n; r++) if (mask & (1 << (r - 1))) w += r;
    counts[w]!++;
  }
  return counts.map((c) => c / (1 << n));
}


describe('the signed-rank null distribution', () => {
  it('is the distribution of W+ over all sign patterns', () => {
    for (let n = 1; n <= 12; n++) {
      const exact = Array.from(signedRankNull(n));
      bruteSignedRank(n).forEach((p, w) => expect(exact[w]).toBeCloseTo(p, 12));
    }
  });
});

describe('familyShift', () => {
  it('finds the factor every pair shares, inside its interval', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.2, max: 5, noNaN: true }), fc.integer({ min: 6, max: 300 }), (factor, n) => {
        const s = familyShift(new Array<number>(n).fill(factor), 0.95);
        expect(s.factor).toBeCloseTo(factor, 9);
        expect(s.low).toBeCloseTo(factor, 9);
        expect(s.high).toBeCloseTo(factor, 9);
      }),
    );
  });

  it('gives no interval for fewer than 6 pairs at 95%, one from 6 on', () => {
    expect(familyShift([1.1, 1.2, 0.9, 1.0, 1.05], 0.95).low).toBeNull();
    const six = familyShift([1.1, 1.2, 0.9, 1.0, 1.05, 1.3], 0.95);
    expect(six.low).toBeCloseTo(0.9, 9);
    expect(six.high).toBeCloseTo(1.3, 9);
    expect(six.achieved).toBeCloseTo(1 - 2 / 64, 9);
  });

  it('covers the true factor at least as often as it claims, for noisy ratios (exact, approximate and sign-test sizes)', () => {
    const rnd = seeded(7);
    // Multiplicative noise with heavy tails: a few ratios far off, as descheduled repetitions give.
    const noisy = (factor: number) => factor * Math.exp((rnd() - 0.5) * 0.4 + (rnd() < 0.05 ? (rnd() - 0.5) * 3 : 0));
    for (const [n, trials] of [
      [12, 400],
      [260, 60],
      [2100, 20],
    ] as const) {
      let covered = 0;
      let achieved = 0;
      for (let t = 0; t < trials; t++) {
        const factor = 0.5 + rnd() * 2;
        const s = familyShift(Array.from({ length: n }, () => noisy(factor)), 0.95);
        if (s.low! <= factor && factor <= s.high!) covered++;
        achieved = s.achieved;
      }
      expect(achieved).toBeGreaterThanOrEqual(0.949);
      // Binomial slack: 400 trials at 95% cover at least 92.5% about 99.7% of the time; fewer trials get more.
      expect(covered / trials, `n = ${n}`).toBeGreaterThanOrEqual(n === 12 ? 0.925 : 0.85);
    }
  });

  it('separates a 25% slowdown from none over 45 puzzles with 15% noise', () => {
    const rnd = seeded(3);
    const ratios = (factor: number) => Array.from({ length: 45 }, () => factor * Math.exp((rnd() - 0.5) * 0.5));
    for (let t = 0; t < 50; t++) {
      expect(familyShift(ratios(1.25), 0.95).low!).toBeGreaterThan(1.1);
      expect(familyShift(ratios(1), 0.95).low!).toBeLessThan(1.1);
    }
  });
});

describe('benjaminiHochberg', () => {
  it('marks exactly the p-values up to the largest i with p_(i) ≤ i·q/m', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 }), fc.double({ min: 0.001, max: 0.5, noNaN: true }), (ps, q) => {
        const marks = benjaminiHochberg(ps, q);
        const sorted = [...ps].sort((a, b) => a - b);
        let cutoff = -Infinity;
        sorted.forEach((p, i) => {
          if (p <= ((i + 1) * q) / ps.length) cutoff = p;
        });
        ps.forEach((p, i) => expect(marks[i]).toBe(p <= cutoff));
      }),
    );
  });

  it('keeps no single pair of 5 + 5 repetitions (--repeat 5) among 225: its least p-value, 2/252, is too large', () => {
    const ps = new Array<number>(225).fill(1);
    ps[17] = 2 / 252;
    expect(benjaminiHochberg(ps, 0.05).some(Boolean)).toBe(false);
    expect(benjaminiHochberg([2 / 252], 0.05)).toEqual([true]);
  });
});
