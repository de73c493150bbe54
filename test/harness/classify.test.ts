import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cluesOf, isSolution } from '../../corpus/grid.js';
import { loadPuzzle } from '../../corpus/load.js';
import { EMPTY, FILLED, makePuzzle, type Grid } from '../../corpus/model.js';
import { classify, countDiffering, type PuzzleClass } from '../../harness/classify/classify.js';
import { enumeration } from '../../solvers/strategies/enumeration.js';
import { sat } from '../../solvers/strategies/sat.js';
import { ExactLineSolver } from '../../solvers/line/exact.js';
import { Propagator } from '../../solvers/propagation/propagator.js';
import { solveByOverlap } from '../../solvers/strategies/overlap.js';
import { solveOptions } from '../../solvers/api/types.js';
import { bruteForceSolutions } from '../helpers/brute-force.js';

const LOGIC_CLASSES: PuzzleClass[] = ['overlap-solvable', 'line-solvable', 'probe-solvable', 'needs-guessing'];

const sameGrid = (a: Grid, b: Grid) => a.length === b.length && a.every((v, i) => v === b[i]);

describe('classify on known puzzles', () => {
  it('Dancer (webpbn 1) needs only overlap logic; the exact-line enumeration strategy agrees it is unique', () => {
    const p = loadPuzzle('corpus/puzzles/webpbn/1.non');
    const c = classify(p);
    expect(c.class).toBe('overlap-solvable');
    expect(c.overlapResolved).toBe(50);
    expect(c.solutions).toHaveLength(1);
    expect(sameGrid(c.solutions[0]!, p.goal!)).toBe(true);
    expect(enumeration.solve(p, solveOptions()).status).toBe('unique');
  });

  it('a generated puzzle that overlap logic leaves stalled but exact line propagation finishes is line-solvable', () => {
    const p = loadPuzzle('corpus/puzzles/generated/20x20/014.non');
    // Independent checks: the overlap strategy is stuck, the placement-enumeration strategy (exact
    // line logic, a different implementation, never guessing) completes it to the goal.
    expect(solveByOverlap(p, solveOptions()).status).toBe('stuck');
    const enumerated = enumeration.solve(p, solveOptions());
    expect(enumerated.status).toBe('unique');
    expect(sameGrid(enumerated.grid, p.goal!)).toBe(true);
    const c = classify(p);
    expect(c.class).toBe('line-solvable');
    expect(c.overlapResolved).toBeLessThan(400);
    expect(c.lineResolved).toBe(400);
    expect(c.search).toBeNull();
    expect(sameGrid(c.solutions[0]!, p.goal!)).toBe(true);
  });

  it('a generated puzzle with two solutions: multiple-solutions, with the cells where they differ counted', () => {
    const p = loadPuzzle('corpus/puzzles/generated/20x20/001.non');
    const c = classify(p);
    expect(c.class).toBe('multiple-solutions');
    expect(c.solutions).toHaveLength(2);
    const [a, b] = c.solutions as [Grid, Grid];
    expect(isSolution(p, a)).toBe(true);
    expect(isSolution(p, b)).toBe(true);
    let differ = 0;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++;
    expect(differ).toBeGreaterThan(0);
    expect(c.differingCells).toBe(differ);
    // Line propagation left exactly the cells that are not forced; both solutions agree elsewhere.
    for (let i = 0; i < a.length; i++) if (c.lineGrid![i] !== 0) expect(a[i]).toBe(c.lineGrid![i]);
  });

  it('GCHQ 2015 without its pre-shaded cells has two solutions that differ in a few cells', () => {
    const p = loadPuzzle('corpus/puzzles/seeds/gchq-2015.non');
    const c = classify(p);
    expect(c.class).toBe('multiple-solutions');
    const [a, b] = c.solutions as [Grid, Grid];
    expect(isSolution(p, a)).toBe(true);
    expect(isSolution(p, b)).toBe(true);
    expect(c.differingCells).toBe(countDiffering(a, b));
    expect(c.differingCells).toBeGreaterThan(0);
    expect(c.differingCells).toBeLessThanOrEqual(12);
    expect(c.search!.maxDepth).toBeGreaterThan(0);
  });

  it('a hand-made puzzle whose totals agree but which has no solution: probing proves it', () => {
    const p = loadPuzzle('test/fixtures/classify/no-solution.non');
    expect(bruteForceSolutions(p, 3)).toHaveLength(0);
    const c = classify(p);
    expect(c.class).toBe('no-solution');
    // Line propagation alone stalls without a contradiction; single-cell probing finds one.
    expect(c.stage).toBe('probe');
    expect(c.lineResolved).not.toBeNull();
    expect(c.solutions).toEqual([]);
  });

  it('a tournament puzzle that logic leaves stalled and search finishes uniquely needs guessing', () => {
    const p = loadPuzzle('corpus/puzzles/tournament/taai2011-questions.txt#66');
    // Independent check: the SAT strategy, asked for two solutions, proves this one unique.
    expect(sat.solve(p, solveOptions({ maxSolutions: 2 })).status).toBe('unique');
    const c = classify(p);
    expect(c.class).toBe('needs-guessing');
    expect(c.probeResolved).toBeLessThan(625);
    expect(c.search!.deadEnds).toBeGreaterThan(0);
    expect(c.search!.maxDepth).toBeGreaterThan(0);
    expect(c.solutions).toHaveLength(1);
    expect(sameGrid(c.solutions[0]!, p.goal!)).toBe(true);
  });

  it('is unknown when the limit is hit', () => {
    const p = loadPuzzle('corpus/puzzles/seeds/gchq-2015.non');
    const c = classify(p, { shouldStop: () => true });
    expect(c.class).toBe('unknown');
  });
});

/**
 * Small puzzles: the clues of a random picture (at least one solution), or rows from one picture
 * and columns from a shuffle of it (totals agree; often no solution). Sparse pictures of 5–6 cells
 * a side reach the line, probe and multiple-solution classes most often.
 */
const smallPuzzle = fc
  .record({
    width: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 5, max: 6 })),
    height: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 5, max: 6 })),
    density: fc.integer({ min: 2, max: 6 }),
    cells: fc.array(fc.nat(9), { minLength: 36, maxLength: 36 }),
    swaps: fc.array(fc.tuple(fc.nat(35), fc.nat(35)), { maxLength: 2 }),
  })
  .map(({ width, height, density, cells, swaps }) => {
    const picture = Uint8Array.from({ length: width * height }, (_, i) => (cells[i]! < density ? FILLED : EMPTY));
    const shuffled = picture.slice();
    for (const [i, j] of swaps) {
      const a = i % shuffled.length;
      const b = j % shuffled.length;
      [shuffled[a], shuffled[b]] = [shuffled[b]!, shuffled[a]!];
    }
    return makePuzzle(cluesOf(picture, width, height).rows, cluesOf(shuffled, width, height).columns);
  });

describe('classify agrees with a brute-force solution count', () => {
  it('0 → no-solution, 1 → a solvable class with that solution, ≥ 2 → multiple-solutions', () => {
    const seen = new Set<PuzzleClass>();
    fc.assert(
      fc.property(smallPuzzle, (p) => {
        const solutions = bruteForceSolutions(p, 3);
        const c = classify(p);
        seen.add(c.class);
        const cells = p.width * p.height;
        if (solutions.length === 0) expect(c.class).toBe('no-solution');
        else if (solutions.length >= 2) {
          expect(c.class).toBe('multiple-solutions');
          const [a, b] = c.solutions as [Grid, Grid];
          expect(isSolution(p, a) && isSolution(p, b)).toBe(true);
          expect(sameGrid(a, b)).toBe(false);
          expect(c.differingCells).toBe(countDiffering(a, b));
        } else {
          expect(LOGIC_CLASSES).toContain(c.class);
          expect(c.solutions).toHaveLength(1);
          expect(sameGrid(c.solutions[0]!, solutions[0]!)).toBe(true);
        }
        // Each class means its logic finished and the cheaper one did not.
        if (c.class === 'overlap-solvable') expect(c.overlapResolved).toBe(cells);
        if (c.class === 'line-solvable') {
          expect(c.overlapResolved).toBeLessThan(cells);
          expect(c.lineResolved).toBe(cells);
        }
        if (c.class === 'probe-solvable') {
          expect(c.lineResolved).toBeLessThan(cells);
          expect(c.probeResolved).toBe(cells);
        }
        if (c.class === 'needs-guessing') expect(c.probeResolved).toBeLessThan(cells);
      }),
      { numRuns: 1000, seed: 20240611 },
    );
    // The generator reaches the interesting classes, so the property is not vacuous.
    for (const cls of ['overlap-solvable', 'line-solvable', 'probe-solvable', 'multiple-solutions', 'no-solution'] as const)
      expect(seen).toContain(cls);
  });

  it('overlap-solvable ⊂ line-solvable logic: when overlap completes a puzzle, exact propagation does too', () => {
    fc.assert(
      fc.property(smallPuzzle, (p) => {
        const overlap = solveByOverlap(p, solveOptions());
        fc.pre(overlap.status === 'unique');
        const prop = new Propagator(p, new ExactLineSolver());
        prop.enqueueAll();
        expect(prop.propagate()).toBe(true);
        expect(prop.unknownCells()).toBe(0);
        expect(sameGrid(prop.grid, overlap.grid)).toBe(true);
        const c = classify(p);
        expect(c.class).toBe('overlap-solvable');
        expect(c.lineResolved).toBe(p.width * p.height);
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
