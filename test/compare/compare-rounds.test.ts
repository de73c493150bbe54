import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareRuns, DEFAULT_COMPARE_OPTIONS, type RunCsv } from '../../harness/compare/compare.js';
import { othersCentres, roundShift, roundVerdict } from '../../harness/compare/rounds.js';
import { median } from '../../harness/results/median.js';
import { comparisonJson, formatComparison } from '../../harness/compare/format.js';
import type { CsvRecord } from '../../harness/results/csv.js';

/**
 * Two sides of an A/B run in rounds: `puzzles` puzzles of one strategy, repetition r being round r.
 * Each time is the puzzle's own time × `factor(round)` (the side's load or code in that round) ×
 * a jitter of ±`jitter`.
 */
function side(
  file: string,
  o: { rounds: number; puzzles?: number; factor: (round: number, strategy: string) => number; jitter?: number; seed: number; strategies?: string[] },
): RunCsv {
  const { rounds, puzzles = 60, factor, jitter = 0.03, strategies = ['backtrack'] } = o;
  let s = o.seed;
  const rand = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const records: CsvRecord[] = [];
  for (let r = 1; r <= rounds; r++)
    for (const strategy of strategies)
      for (let p = 0; p < puzzles; p++)
        records.push({
          puzzle_id: `p${p}`,
          puzzle_path: `p${p}.non`,
          strategy,
          rep: String(r),
          status: 'unique',
          verified: 'true',
          time_ms: String((20 + 7 * p) * factor(r, strategy) * (1 - jitter + 2 * jitter * rand())),
          dead_ends: '3',
          decisions: '4',
          line_solves: '100',
        });
  return { file, columns: Object.keys(records[0]!), records };
}

const paired = { ...DEFAULT_COMPARE_OPTIONS, pairedRounds: true };

describe('compare with --paired-rounds (ab, bench-check --ab)', () => {
  // NEW's turns of rounds 1–3 ran while something else loaded the machine: every task of those turns took 1.25×.
  const base = side('base.csv', { rounds: 5, factor: () => 1, seed: 1 });
  const loaded = side('new.csv', { rounds: 5, factor: (r) => (r <= 3 ? 1.25 : 1), seed: 2 });

  it('does not call load on three of five turns a regression, where an interval over puzzles does', () => {
    const overPuzzles = compareRuns(base, loaded);
    expect(overPuzzles.strategies[0]!.verdict).toBe('regression');
    expect(overPuzzles.failed).toBe(true);
    const overRounds = compareRuns(base, loaded, paired);
    const s = overRounds.strategies[0]!;
    expect(s.shift.rounds).toBe(5);
    expect(s.shift.low!).toBeLessThan(1.1);
    expect(s.verdict).not.toBe('regression');
    expect(overRounds.failed).toBe(false);
  });

  it('still fails a slowdown of the code, which every round shows', () => {
    const slower = side('new.csv', { rounds: 5, factor: () => 1.3, seed: 3 });
    const r = compareRuns(base, slower, paired);
    const s = r.strategies[0]!;
    expect(s.verdict).toBe('regression');
    expect(s.verdictBy).toBe('own');
    expect(s.shift.factor).toBeGreaterThan(1.25);
    expect(s.shift.factor).toBeLessThan(1.35);
    expect(r.failed).toBe(true);
    const text = formatComparison(r, 'table');
    expect(text).toContain('judged over the rounds');
    expect(text).toMatch(/backtrack 1\.\d{3}× slower over 60 pairs in 5 rounds \(95% CI \[/);
    // And an improvement of the code likewise.
    expect(compareRuns(slower, base, paired).strategies[0]!.verdict).toBe('improvement');
  });

  it('gives no interval below three rounds, and says so', () => {
    // Three repetitions a side, but NEW's third in a round BASE lacks: two rounds with both sides.
    const b = side('b.csv', { rounds: 3, factor: () => 1, seed: 4 });
    const n = side('n.csv', { rounds: 3, factor: () => 2, seed: 5 });
    for (const rec of n.records) if (rec.rep === '3') rec.rep = '4';
    const r = compareRuns(b, n, paired);
    const s = r.strategies[0]!;
    expect([s.shift.rounds, s.shift.low, s.verdict]).toEqual([2, null, null]);
    expect(formatComparison(r, 'table')).toContain('(2 rounds: too few)');
    expect(r.failed).toBe(false);
  });

  it('refuses runs without a rep column: nothing says which round a row ran in', () => {
    const noRep = { ...loaded, columns: loaded.columns.filter((c) => c !== 'rep'), records: loaded.records.map(({ rep: _rep, ...r }) => r) };
    expect(() => compareRuns(base, noRep, paired)).toThrow(/new\.csv: has no rep column, which --paired-rounds needs/);
  });

  it('skips a round one side lacks', () => {
    const cut = side('new.csv', { rounds: 5, factor: () => 1.3, seed: 6 });
    cut.records = cut.records.filter((rec) => rec.rep !== '4');
    const r = compareRuns(base, cut, paired);
    expect(r.strategies[0]!.shift.rounds).toBe(4);
    expect(r.strategies[0]!.verdict).toBe('regression');
  });

  describe('against the other strategies of each round', () => {
    const strategies = ['sat', 'probe', 'overlap', 'backtrack'];
    // Each side's turn r ran under its own load: heavy and uneven, as a shared machine gives.
    const loadOf = (seed: number) => (r: number) => [1, 1.45, 0.8, 1.3, 1.05, 0.9, 1.4][(r * 3 + seed) % 7]!;
    const baseLoad = loadOf(1);
    const newLoad = loadOf(4);
    const two = side('base.csv', { rounds: 5, strategies, factor: (r) => baseLoad(r), seed: 7 });

    it("finds one strategy's slowdown that the turns' load hides from its own interval", () => {
      const slowed = side('new.csv', { rounds: 5, strategies, factor: (r, s) => newLoad(r) * (s === 'sat' ? 1.25 : 1), seed: 8 });
      const r = compareRuns(two, slowed, paired);
      const sat = r.strategies.find((s) => s.strategy === 'sat')!;
      // Its own interval spans the load: wide, not beyond the threshold by itself.
      expect(sat.shift.low!).toBeLessThan(1.1);
      expect(sat.shift.relative!.low!).toBeGreaterThan(1.15);
      expect(sat.verdict).toBe('regression');
      expect(sat.verdictBy).toBe('others');
      // json says the same: the rounds, both intervals, and which one decided.
      const json = comparisonJson(r).strategies.find((s) => s.strategy === 'sat')!;
      expect(json).toMatchObject({ typical_rounds: 5, typical_ci_low: sat.shift.low, relative_ratio: sat.shift.relative!.factor, relative_ci_low: sat.shift.relative!.low, verdict: 'regression', verdict_by: 'others' });
      expect(comparisonJson(r).summary.strategy_inconclusive).toBe(r.strategies.filter((s) => s.verdict === 'inconclusive').length);
      // The others' own intervals reach past the threshold: no verdict either way, and said so.
      for (const other of r.strategies.filter((s) => s.strategy !== 'sat')) expect(other.verdict).toBe('inconclusive');
      expect(r.failed).toBe(true);
      // The rule that decided is among those the header says fail.
      expect(formatComparison(r, 'table')).toContain("or whose CI against the other strategies' rounds is above 1.100 with its typical ratio above it too");
      expect(formatComparison(r, 'table')).toMatch(/sat 1\.\d{3}× slower over 60 pairs in 5 rounds \(95% CI \[[\d.]+, [\d.]+\]; 1\.2\d\d× against the other strategies' rounds, \[/);
    });

    it('calls the same load without a change of code no regression', () => {
      const same = side('new.csv', { rounds: 5, strategies, factor: (r) => newLoad(r), seed: 9 });
      const r = compareRuns(two, same, { ...paired, moreRounds: 'rerun with more --rounds than 5' });
      expect(r.strategies.map((s) => s.verdict)).toEqual(['inconclusive', 'inconclusive', 'inconclusive', 'inconclusive']);
      expect(r.failed).toBe(false);
      const text = formatComparison(r, 'table');
      expect(text).toContain(
        "time inconclusive over the rounds for sat, probe, overlap, backtrack: the interval reaches beyond the threshold, as the rounds disagree (the machine's load changed between turns): rerun with more --rounds than 5",
      );
      expect(text).toMatch(/OK: no regression in 240 pairs \(4 strategies inconclusive over the rounds\)\n$/);
      // Without the load, the same code is unchanged.
      const quiet = compareRuns(side('b.csv', { rounds: 5, strategies, factor: () => 1, seed: 10 }), side('n.csv', { rounds: 5, strategies, factor: () => 1, seed: 11 }), paired);
      expect(quiet.strategies.map((s) => s.verdict)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
    });

    it('does not call an unchanged strategy slower because the change sped up the others', () => {
      // probe and overlap 30% faster by the code; NEW's turns of rounds 1–3 under load (1.25×); sat untouched.
      const base = side('base.csv', { rounds: 5, strategies, factor: () => 1, seed: 21 });
      const next = side('new.csv', { rounds: 5, strategies, factor: (r, s) => (r <= 3 ? 1.25 : 1) * (s === 'sat' ? 1 : 0.7), seed: 22 });
      const r = compareRuns(base, next, paired);
      const sat = r.strategies.find((s) => s.strategy === 'sat')!;
      expect(sat.shift.low!).toBeLessThan(1.1); // its own interval: the load, no verdict
      expect(sat.shift.relative!.low!).toBeGreaterThan(1.1); // against the others, which the code moved
      expect(sat.verdict).not.toBe('regression');
      expect(r.failed).toBe(false);
    });

    it('has nothing to compare a single strategy with', () => {
      expect(compareRuns(base, loaded, paired).strategies[0]!.shift.relative).toBeUndefined();
    });

    it("does not call the strategies a change left alone slower because it sped up another (and the others' load)", () => {
      // sat 25% faster by the code; NEW's turns of rounds 1–3 under load (1.25×); probe and overlap untouched.
      const three = ['sat', 'probe', 'overlap'];
      const b = side('base.csv', { rounds: 5, strategies: three, factor: () => 1, seed: 23 });
      const n = side('new.csv', { rounds: 5, strategies: three, factor: (r, s) => (r <= 3 ? 1.25 : 1) * (s === 'sat' ? 0.75 : 1), seed: 24 });
      const r = compareRuns(b, n, paired);
      // No verdict for them: the load leaves their own intervals wide (inconclusive), and nothing else decides.
      expect(r.strategies.filter((s) => s.strategy !== 'sat').map((s) => s.verdict)).toEqual(['inconclusive', 'inconclusive']);
      expect(r.failed).toBe(false);
    });

    it('with more strategies, one sped up leaves the reference of the others where it was', () => {
      const b = side('base.csv', { rounds: 5, strategies, factor: () => 1, seed: 25 });
      const n = side('new.csv', { rounds: 5, strategies, factor: (r, s) => (r <= 3 ? 1.25 : 1) * (s === 'sat' ? 0.75 : 1), seed: 26 });
      const r = compareRuns(b, n, paired);
      for (const s of r.strategies.filter((s) => s.strategy !== 'sat')) expect(s.shift.relative!.factor).toBeCloseTo(1, 1);
      expect(r.failed).toBe(false);
    });

    it('property: load on at most three turns of one side, whatever each strategy makes of it, is never a regression', () => {
      fc.assert(
        fc.property(
          fc.uniqueArray(fc.integer({ min: 1, max: 5 }), { maxLength: 3 }),
          fc.double({ min: 0.01, max: 3, noNaN: true }),
          fc.double({ min: 0, max: 3, noNaN: true }),
          (loadedRounds, load, sensitivity) => {
            const mine = new Map<number, number[]>();
            const others = new Map<number, number>();
            for (let r = 1; r <= 5; r++) {
              const l = loadedRounds.includes(r) ? load : 0;
              mine.set(r, [l * sensitivity, l * sensitivity + 0.001]);
              others.set(r, l);
            }
            return roundVerdict(roundShift(mine, 2, 0.95, others), 0.1) !== 'regression';
          },
        ),
      );
    });
  });

  it('property: load on at most three of five turns of one side is never a regression of the code', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 5 }), { maxLength: 3 }),
        fc.double({ min: 0.01, max: 3, noNaN: true }),
        fc.array(fc.double({ min: -0.005, max: 0.005, noNaN: true }), { minLength: 20, maxLength: 20 }),
        (loadedRounds, load, noise) => {
          const perRound = new Map<number, number[]>();
          for (let r = 1; r <= 5; r++) perRound.set(r, noise.map((e) => e + (loadedRounds.includes(r) ? load : 0)));
          const s = roundShift(perRound, 20, 0.95);
          return Math.log(s.low!) < Math.log1p(0.1);
        },
      ),
    );
  });

  it('property: swapping the sides inverts the factor and its interval', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: 1, maxLength: 9 }), { minLength: 3, maxLength: 8 }), (rounds) => {
        const forward = roundShift(new Map(rounds.map((logs, r) => [r + 1, logs])), 9, 0.95);
        const backward = roundShift(new Map(rounds.map((logs, r) => [r + 1, logs.map((x) => -x)])), 9, 0.95);
        const close = (a: number, b: number) => Math.abs(Math.log(a) - Math.log(b)) < 1e-9;
        return close(forward.factor, 1 / backward.factor) && close(forward.low!, 1 / backward.high!) && close(forward.high!, 1 / backward.low!);
      }),
    );
  });
});

describe('the other strategies of each round, with many strategies', () => {
  it("property: each centre is the median of the other strategies' round medians, from three of them", () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 6 }), { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 6 }), (strategies) => {
        const perStrategy = new Map(strategies.map((rounds, k) => [`s${k}`, new Map(rounds.map((logs, r) => [r, logs.map((x) => x / 4)]))]));
        const centres = othersCentres(perStrategy);
        for (const [strategy, perRound] of perStrategy)
          for (const r of perRound.keys()) {
            const rest = [...perStrategy].filter(([s, m]) => s !== strategy && (m.get(r)?.length ?? 0) > 0).map(([, m]) => median(m.get(r)!));
            if (rest.length < 3) expect(centres.get(strategy)!.has(r)).toBe(false);
            else expect(centres.get(strategy)!.get(r)).toBe(median(rest));
          }
      }),
    );
  });

  it('does not sort every round again for each strategy (600 strategies × 3 puzzles × 3 rounds)', () => {
    const strategies = Array.from({ length: 600 }, (_, k) => `s${k}`);
    const b = side('b.csv', { rounds: 3, puzzles: 3, strategies, factor: () => 1, seed: 11 });
    const n = side('n.csv', { rounds: 3, puzzles: 3, strategies, factor: () => 1, seed: 12 });
    compareRuns(b, n); // warm up
    let t = performance.now();
    compareRuns(b, n);
    const overPuzzles = performance.now() - t;
    t = performance.now();
    compareRuns(b, n, paired);
    const overRounds = performance.now() - t;
    expect(overRounds).toBeLessThan(3 * overPuzzles);
  });
});
