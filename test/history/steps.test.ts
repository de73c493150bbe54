import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { geometricLevels, Panel } from '../../harness/history/model.js';
import { detectSteps, LOG1P, type SeriesPoint } from '../../harness/history/steps.js';
import { normal, prng } from '../fixtures/history/synthetic.js';

const THRESHOLD = 0.1;

interface Noise {
  /** Log-normal noise of each repetition, and of each commit's run as a whole (machine, build). */
  rep: number;
  commit: number;
}

/**
 * Levels of a synthetic history measured as `run` measures: `puzzles` puzzles of widely spread
 * times (log-normal, σ = 2) with `reps` repetitions at each of `n` commits, every time × `factor`
 * from commit `at` on; levels through the same model as the page (geometric, bootstrap intervals).
 */
function history(seed: number, n: number, at: number, factor: number, noise: Noise, puzzles = 12, reps = 3): SeriesPoint[] {
  const rand = prng(seed);
  const panel = new Panel(n, 'median', true);
  const base = Array.from({ length: puzzles }, () => Math.exp(2 * normal(rand)));
  for (let k = 0; k < n; k++) {
    const run = Math.exp(noise.commit * normal(rand)) * (k >= at ? factor : 1);
    for (let p = 0; p < puzzles; p++) panel.add(k, `p${p}`, Array.from({ length: reps }, () => base[p]! * run * Math.exp(noise.rep * normal(rand))));
  }
  return geometricLevels(panel);
}

describe('step detection', () => {
  it('finds a step of at least twice the threshold, up or down, at the commit where it was injected, and nothing else (10% repetition noise)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 25 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 1, max: n - 1 }))),
        fc.double({ min: Math.log(1 + 2 * THRESHOLD), max: Math.log(3), noNaN: true }),
        fc.boolean(),
        fc.integer(),
        ([n, at], logFactor, up, seed) => {
          const steps = detectSteps(history(seed, n, at, Math.exp(up ? logFactor : -logFactor), { rep: 0.1, commit: 0.01 }), THRESHOLD);
          expect(steps.map((s) => [s.at, s.after])).toEqual([[at, at - 1]]);
          expect(steps[0]!.to > steps[0]!.from).toBe(up);
        },
      ),
      // Detection is statistical (in 3000 random cases of this kind, 2 exactly-20% steps after a lone first commit were missed): a fixed seed keeps the test reproducible.
      { numRuns: 150, seed: 2026 },
    );
  });

  it('finds no step in step-free histories but rarely: under 1% of 300 histories of 3–30 commits with 10% repetition and 2% run noise', () => {
    let flagged = 0;
    for (let seed = 0; seed < 300; seed++) if (detectSteps(history(seed, 3 + (seed % 28), Infinity, 1, { rep: 0.1, commit: 0.02 }), THRESHOLD).length > 0) flagged++;
    expect(flagged / 300).toBeLessThan(0.01);
  });

  it('never reports a step below the threshold, however clean the series', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 30 }), fc.double({ min: 0.5, max: 0.99, noNaN: true }), fc.integer({ min: 1, max: 29 }), (n, shrink, cut) => {
        const at = Math.min(cut, n - 1);
        const factor = 1 + THRESHOLD * shrink;
        const points = Array.from({ length: n }, (_x, k) => {
          const v = k >= at ? factor : 1;
          return { value: v, lo: v, hi: v, group: 0 };
        });
        expect(detectSteps(points, THRESHOLD)).toEqual([]);
        // The same jump past the threshold is found.
        const bigger = points.map((p, k) => (k >= at ? { ...p, value: 1.25, lo: 1.25, hi: 1.25 } : p));
        expect(detectSteps(bigger, THRESHOLD).map((s) => s.at)).toEqual([at]);
      }),
    );
  });

  it('needs the intervals on either side apart, and never compares levels of different groups', () => {
    const flat = (v: number, half: number, group = 0) => ({ value: v, lo: v * (1 - half), hi: v * (1 + half), group });
    const series = (half: number, group2 = 0) => [...Array.from({ length: 5 }, () => flat(1, half)), ...Array.from({ length: 5 }, () => flat(1.3, half, group2))];
    expect(detectSteps(series(0.05), THRESHOLD).map((s) => s.at)).toEqual([5]);
    expect(detectSteps(series(0.2), THRESHOLD)).toEqual([]);
    expect(detectSteps(series(0.05, 1), THRESHOLD)).toEqual([]);
  });

  it('counts (log 1 + x): a change from nothing is a step, and commits without a value are passed over', () => {
    const p = (v: number) => ({ value: v, lo: v, hi: v, group: 0 });
    const steps = detectSteps([p(0), p(0), { ...p(NaN), group: -1 }, p(0), p(40), p(40), p(40)], THRESHOLD, LOG1P);
    expect(steps.map((s) => [s.at, s.after, s.from])).toEqual([[4, 3, 0]]);
    expect(steps[0]!.to).toBeCloseTo(40, 9);
  });

  it('never puts a step between two commits of the same value: a dip one commit long next to a later change', () => {
    const p = (v: number) => ({ value: v, lo: v, hi: v, group: 0 });
    // 1, 1, then 5× faster at one commit, then 1.5× slower than at first: nothing changed at the second commit.
    for (const series of [[1, 1, 0.2, 1.5], [1, 1, 1, 1, 0.2, 1.5, 1.5, 1.5]]) {
      const steps = detectSteps(series.map(p), THRESHOLD);
      for (const s of steps) expect(series[s.at]).not.toBe(series[s.after]);
      expect(steps.length).toBeGreaterThan(0);
    }
    // Counts likewise: dead ends 9, 9, 0, 27.
    const counts = detectSteps([9, 9, 0, 27].map(p), THRESHOLD, LOG1P);
    expect(counts.map((s) => [s.at, s.after])).toEqual([[3, 2]]);
  });
});

describe('step detection: a blip next to a true step', () => {
  const p = (v: number) => ({ value: v, lo: v, hi: v, group: 0 });
  it('keeps a 40% drop whose next commit is a one-commit dip', () => {
    // 1 for ten commits, then 0.6 for good from commit 10; commit 11 alone dips to 0.2.
    const series = [...Array(10).fill(1), 0.6, 0.2, ...Array(10).fill(0.6)];
    const steps = detectSteps(series.map(p), 0.1);
    expect(steps.map((s) => [s.after, s.at])).toContainEqual([9, 10]);
  });
  it('still puts no step between two nearly equal commits', () => {
    const series = [1, 1, 1, 0.99, 0.2, 1.5, 1.5, 1.5];
    for (const s of detectSteps(series.map(p), 0.1)) expect(Math.abs(Math.log(series[s.at]! / series[s.after]!))).toBeGreaterThan(Math.log1p(0.1));
  });
});
