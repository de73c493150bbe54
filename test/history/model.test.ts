import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { geometricLevels, Panel, totalLevels } from '../../harness/history/model.js';

const geomean = (xs: number[]) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);

/** A grid of values: commits × puzzles, null where the puzzle was not run. */
const grid = (value: fc.Arbitrary<number>) =>
  fc.integer({ min: 1, max: 6 }).chain((commits) => fc.integer({ min: 1, max: 8 }).chain((puzzles) => fc.array(fc.array(value, { minLength: puzzles, maxLength: puzzles }), { minLength: commits, maxLength: commits })));

function panelOf(rows: (number | null)[][], summary: 'median' | 'mean', logs = false): Panel {
  const panel = new Panel(rows.length, summary, logs);
  rows.forEach((row, k) => row.forEach((v, p) => v !== null && panel.add(k, `p${p}`, [v])));
  return panel;
}

describe('levels across commits', () => {
  it('with the same puzzles at every commit: exactly the geometric mean (times) and the total (counts)', () => {
    fc.assert(
      fc.property(grid(fc.double({ min: 0.001, max: 1e5, noNaN: true })), (rows) => {
        geometricLevels(panelOf(rows, 'median', true)).forEach((l, k) => expect(l.value).toBeCloseTo(geomean(rows[k]!), 6 - Math.ceil(Math.log10(Math.max(1, geomean(rows[k]!))))));
      }),
    );
    fc.assert(
      fc.property(grid(fc.integer({ min: 0, max: 1000 })), (rows) => {
        totalLevels(panelOf(rows, 'median')).forEach((l, k) => expect(l.value).toBeCloseTo(sum(rows[k]!), 6));
      }),
    );
  });

  it('puzzles added or removed do not move the line: under puzzle × commit values the levels are the full panel’s, whatever is missing', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.1, max: 100, noNaN: true }), { minLength: 2, maxLength: 6 }),
        fc.array(fc.double({ min: 0.1, max: 100, noNaN: true }), { minLength: 2, maxLength: 8 }),
        fc.infiniteStream(fc.boolean()),
        (commitF, puzzleF, keep) => {
          // Puzzle 0 is run everywhere (so all commits are linked); each other cell is kept or not.
          const rows = commitF.map((c, k) => puzzleF.map((p, j) => (j === 0 || keep.next().value ? c * p : null)));
          const seen = puzzleF.filter((_p, j) => rows.some((r) => r[j] !== null));
          // Within a few parts in a million: the fit is iterative, and a thousandfold spread of
          // factors with cells missing leaves it that far from exact (seen at 5.9e-7).
          geometricLevels(panelOf(rows, 'median', true)).forEach((l, k) => {
            expect(l.value / (commitF[k]! * geomean(seen))).toBeCloseTo(1, 5);
            expect(l.over).toBe(seen.length);
            expect(l.puzzles).toBe(rows[k]!.filter((v) => v !== null).length);
          });
          totalLevels(panelOf(rows, 'mean')).forEach((l, k) => expect(l.value / (commitF[k]! * sum(seen))).toBeCloseTo(1, 5));
        },
      ),
    );
  });

  it('stays exact where rounding alone would move the fit along its null space (found counterexamples)', () => {
    // Two commits whose factors differ in the last bit: the fit's right-hand side is pure rounding,
    // which once sent the commit factors along the null space (levels off by 18%).
    const commitF = [0.10000000000000016, 0.1];
    const puzzleF = [27.574329738299877, 0.1, 0.1];
    const rows = [
      [commitF[0]! * puzzleF[0]!, null, null],
      [commitF[1]! * puzzleF[0]!, null, commitF[1]! * puzzleF[2]!],
    ];
    const levels = geometricLevels(panelOf(rows, 'median', true));
    levels.forEach((l, k) => expect(l.value / (commitF[k]! * geomean([puzzleF[0]!, puzzleF[2]!]))).toBeCloseTo(1, 9));
    // Totals: Newton directions with a null-space part from rounding crawled, and stopped 1e-6 off.
    const c = [15.712382686782025, 0.1];
    const p = [0.19951422157610932, 0.1, 0.1, 10.660031864307294, 97.55479754626505];
    const kept = [
      [1, 1, 0, 0, 1],
      [1, 0, 0, 1, 0],
    ];
    const counts = c.map((ck, k) => p.map((pj, j) => (kept[k]![j] ? ck * pj : null)));
    const seen = [p[0]!, p[1]!, p[3]!, p[4]!];
    totalLevels(panelOf(counts, 'mean')).forEach((l, k) => expect(l.value / (c[k]! * sum(seen))).toBeCloseTo(1, 9));
  });

  it('commits sharing no puzzle are groups of their own, each levelled over its own puzzles', () => {
    const panel = new Panel(3, 'median', true);
    panel.add(0, 'a', [2]);
    panel.add(0, 'b', [8]);
    panel.add(2, 'c', [5]);
    const [first, none, last] = geometricLevels(panel);
    expect([first!.value, first!.over, last!.value, last!.over]).toEqual([4, 2, 5, 1]);
    expect(first!.group).not.toBe(last!.group);
    expect([none!.group, none!.value]).toEqual([-1, NaN]);
  });

  it('counts that are all nothing: a level of 0 at every commit, not unknown', () => {
    const panel = new Panel(3, 'median');
    for (let k = 0; k < 3; k++) for (const p of ['a', 'b']) panel.add(k, p, [0, 0]);
    expect(totalLevels(panel).map((l) => [l.value, l.lo, l.hi])).toEqual([[0, 0, 0], [0, 0, 0], [0, 0, 0]]);
  });

  it('the interval: around the level, nil when repetitions agree, narrower with more puzzles, the same every time', () => {
    const noisy = (puzzles: number) => {
      const panel = new Panel(1, 'median', true);
      for (let p = 0; p < puzzles; p++) panel.add(0, `p${p}`, [10 + p, 12 + p, 9 + p, 11 + p, 10.5 + p]);
      return geometricLevels(panel)[0]!;
    };
    const few = noisy(2);
    expect(few.lo).toBeLessThan(few.value);
    expect(few.hi).toBeGreaterThan(few.value);
    const many = noisy(40);
    expect(Math.log(many.hi / many.lo)).toBeLessThan(Math.log(few.hi / few.lo));
    expect(noisy(40)).toEqual(many);
    const steady = new Panel(1, 'median');
    steady.add(0, 'a', [3, 3, 3]);
    steady.add(0, 'b', [7]);
    expect(totalLevels(steady)[0]).toMatchObject({ value: 10, lo: 10, hi: 10 });
  });
});
