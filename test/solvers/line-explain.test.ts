import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EMPTY, FILLED, UNKNOWN } from '../../corpus/model.js';
import { createRng, probabilityThreshold } from '../../corpus/random.js';
import { ExactLineSolver } from '../../solvers/line/exact.js';
import { LineExplainer } from '../../solvers/line/explain.js';

/** A line of 1–70 cells: the clue of a random picture (or of another one), and some of the picture's cells assigned. */
const lineCase = fc
  .record({
    n: fc.integer({ min: 1, max: 70 }),
    fill: fc.double({ min: 0.2, max: 0.8, noNaN: true }),
    known: fc.double({ min: 0, max: 0.9, noNaN: true }),
    flips: fc.integer({ min: 0, max: 3 }),
    seed: fc.infiniteStream(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true })),
  })
  .map(({ n, fill, known, flips, seed }) => {
    const next = () => seed.next().value as number;
    const picture = Array.from({ length: n }, () => (next() < fill ? FILLED : EMPTY));
    const clue: number[] = [];
    for (let i = 0, run = 0; i <= n; i++) {
      if (i < n && picture[i] === FILLED) run++;
      else if (run > 0) {
        clue.push(run);
        run = 0;
      }
    }
    const cells = Uint8Array.from(picture, (c) => (next() < known ? c : UNKNOWN));
    // Flipping assigned cells often makes the line impossible.
    for (let f = 0; f < flips; f++) {
      const i = Math.floor(next() * n);
      if (cells[i] !== UNKNOWN) cells[i] = cells[i] === FILLED ? EMPTY : FILLED;
    }
    return { n, clue: Int32Array.from(clue), cells };
  });

const solver = new ExactLineSolver();

describe('line explanations from the line automaton', () => {
  it('explains every cell the exact line solver deduces, and every impossible line, by assigned cells that alone suffice', () => {
    const explainer = new LineExplainer();
    let deduced = 0;
    let impossible = 0;
    let shorter = 0;
    fc.assert(
      fc.property(lineCase, ({ n, clue, cells }) => {
        const solved = cells.slice();
        const feasible = solver.solve(clue, solved, n);
        explainer.prepare(clue, cells, n);
        expect(explainer.feasible()).toBe(feasible);
        const kept = new Uint8Array(n);
        const assigned = cells.reduce((k, c) => k + (c !== UNKNOWN ? 1 : 0), 0);
        const checkKept = () => {
          let size = 0;
          for (let i = 0; i < n; i++) {
            if (kept[i] === UNKNOWN) continue;
            expect(kept[i]).toBe(cells[i]); // only assigned cells, as assigned
            size++;
          }
          if (size < assigned) shorter++;
        };
        if (!feasible) {
          impossible++;
          expect(explainer.explainConflict(kept)).toBe(true);
          checkKept();
          expect(solver.solve(clue, kept.slice(), n)).toBe(false);
          return;
        }
        expect(explainer.explainConflict(kept)).toBe(false);
        for (let p = 0; p < n; p++) {
          if (cells[p] !== UNKNOWN || solved[p] === UNKNOWN) continue;
          deduced++;
          expect(explainer.explainCell(p, solved[p]!, kept)).toBe(true);
          checkKept();
          const alone = kept.slice();
          expect(solver.solve(clue, alone, n)).toBe(true);
          expect(alone[p]).toBe(solved[p]);
        }
        // A cell the line leaves open has no explanation.
        for (let p = 0; p < n; p++) {
          if (solved[p] !== UNKNOWN) continue;
          expect(explainer.explainCell(p, FILLED, kept)).toBe(false);
          expect(explainer.explainCell(p, EMPTY, kept)).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
    // The property met both kinds of explanation, and explanations that leave cells out.
    expect(deduced).toBeGreaterThan(1000);
    expect(impossible).toBeGreaterThan(50);
    expect(shorter).toBeGreaterThan(500);
  });

  it('explains a cell that the clue and the line length alone force by no cell at all', () => {
    const explainer = new LineExplainer();
    const kept = new Uint8Array(2);
    // Clue 2 in two cells, the first assigned: the second is filled whatever the first holds.
    explainer.prepare(Int32Array.of(2), Uint8Array.of(FILLED, UNKNOWN), 2);
    expect(explainer.explainCell(1, FILLED, kept)).toBe(true);
    expect(Array.from(kept)).toEqual([UNKNOWN, UNKNOWN]);
    fc.assert(
      fc.property(lineCase, ({ n, clue }) => {
        const open = new Uint8Array(n);
        const solved = open.slice();
        fc.pre(solver.solve(clue, solved, n));
        explainer.prepare(clue, open, n);
        const none = new Uint8Array(n);
        for (let p = 0; p < n; p++) {
          if (solved[p] === UNKNOWN) continue;
          expect(explainer.explainCell(p, solved[p]!, none)).toBe(true);
          expect(none.every((c) => c === UNKNOWN)).toBe(true);
        }
      }),
    );
  });

  it('keeps explanations close to the shortest a cell-by-cell search finds', () => {
    // Greedy shortening: drop each assigned cell in turn while the rest still force the cell.
    const greedySize = (clue: Int32Array, cells: Uint8Array, n: number, p: number, value: number): number => {
      const kept = cells.slice();
      for (let i = 0; i < n; i++) {
        if (kept[i] === UNKNOWN) continue;
        kept[i] = UNKNOWN;
        const trial = kept.slice();
        if (!solver.solve(clue, trial, n) || trial[p] !== value) kept[i] = cells[i]!;
      }
      return kept.reduce((k, c) => k + (c !== UNKNOWN ? 1 : 0), 0);
    };
    // A fixed sample of lines of 5–40 cells (a ratio over a sample, so not left to chance).
    const rng = createRng(2024);
    const explainer = new LineExplainer();
    let walked = 0;
    let greedy = 0;
    for (let run = 0; run < 1500; run++) {
      const n = 5 + rng.nextBelow(36);
      const filled = probabilityThreshold(0.3 + rng.nextBelow(5) / 10);
      const known = probabilityThreshold(0.2 + rng.nextBelow(6) / 10);
      const picture = Array.from({ length: n }, () => (rng.chance(filled) ? FILLED : EMPTY));
      const clue = Int32Array.from(
        picture
          .map((c) => (c === FILLED ? '1' : '0'))
          .join('')
          .split('0')
          .filter((run) => run.length > 0)
          .map((run) => run.length),
      );
      const cells = Uint8Array.from(picture, (c) => (rng.chance(known) ? c : UNKNOWN));
      const solved = cells.slice();
      solver.solve(clue, solved, n);
      explainer.prepare(clue, cells, n);
      const kept = new Uint8Array(n);
      for (let p = 0; p < n; p++) {
        if (cells[p] !== UNKNOWN || solved[p] === UNKNOWN) continue;
        explainer.explainCell(p, solved[p]!, kept);
        walked += kept.reduce((k, c) => k + (c !== UNKNOWN ? 1 : 0), 0);
        greedy += greedySize(clue, cells, n, p, solved[p]!);
      }
    }
    expect(greedy).toBeGreaterThan(2000);
    // About 1.17 here; cutting every edge dead at both ends on its left side makes it more.
    expect(walked / greedy).toBeLessThan(1.3);
  });
});
