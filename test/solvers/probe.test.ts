import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { loadPuzzle } from '../../corpus/load.js';
import { BUNDLED_CORPUS } from '../../corpus/paths.js';
import { UNKNOWN, makePuzzle, type Puzzle } from '../../corpus/model.js';
import { ExactLineSolver } from '../../solvers/line/exact.js';
import { Propagator } from '../../solvers/propagation/propagator.js';
import { Prober } from '../../solvers/search/probe.js';
import { backtrackStrategy } from '../../solvers/strategies/backtrack.js';
import { solveOptions } from '../../solvers/api/types.js';
import { picturedPuzzle } from '../helpers/pictures.js';

const pictured = picturedPuzzle({ minSide: 2, maxSide: 14, minDensity: 0.3, maxDensity: 0.7 });

function probedRoot(puzzle: Puzzle, scope: 'local' | 'all') {
  const prop = new Propagator(puzzle, new ExactLineSolver());
  prop.enqueueAll();
  const lineOk = prop.propagate();
  const prober = new Prober(prop);
  prober.scope = scope;
  const alive = lineOk && prober.run(0);
  return { prop, prober, lineOk, alive };
}

describe('probing', () => {
  it('solves a puzzle that line logic alone cannot start (webpbn #23), by contradictions', () => {
    const puzzle = loadPuzzle(join(BUNDLED_CORPUS, 'webpbn', '23.non'));
    const { prop, prober, alive } = probedRoot(puzzle, 'local');
    expect(alive).toBe(true);
    expect(prober.contradictions).toBeGreaterThan(0);
    expect(prop.unknownCells()).toBe(0);
    expect(prop.grid).toEqual(puzzle.goal);
  });

  it('never decides a cell against a solution (the picture) and never kills a solvable puzzle', () => {
    fc.assert(
      fc.property(pictured, fc.constantFrom('local', 'all') as fc.Arbitrary<'local' | 'all'>, (puzzle, scope) => {
        const { prop, alive, prober } = probedRoot(puzzle, scope);
        expect(alive).toBe(true);
        prop.grid.forEach((v, i) => v !== UNKNOWN && expect(v).toBe(puzzle.goal![i]));
        if (prober.bestCell >= 0) expect(prop.grid[prober.bestCell]).toBe(UNKNOWN);
      }),
      { numRuns: 150 },
    );
  });

  it('finds no solution exactly when plain search finds none', () => {
    const randomClues = fc
      .record({ width: fc.integer({ min: 2, max: 6 }), height: fc.integer({ min: 2, max: 6 }) })
      .chain(({ width, height }) =>
        fc.record({
          rows: fc.array(fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 2 }), { minLength: height, maxLength: height }),
          columns: fc.array(fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 2 }), { minLength: width, maxLength: width }),
        }),
      )
      .map(({ rows, columns }) => makePuzzle(rows, columns));
    fc.assert(
      fc.property(randomClues, (puzzle) => {
        const plain = backtrackStrategy.solve(puzzle, solveOptions({ maxSolutions: 1, params: { probing: false } }));
        // Probing is sound: it refutes only puzzles without a solution.
        if (plain.status !== 'contradiction') expect(probedRoot(puzzle, 'all').alive).toBe(true);
      }),
      { numRuns: 600 },
    );
  });

  it('refutes a puzzle that line logic accepts but that has no solution', () => {
    // Four columns 1,1 need eight cells in two runs each; the rows hold eight cells, but no layout fits.
    const puzzle = makePuzzle([[], [2], [1, 1], [1, 1], [1, 1]], [[1, 1], [1, 1], [1, 1], [1, 1]]);
    const { lineOk, alive, prober } = probedRoot(puzzle, 'all');
    expect(lineOk).toBe(true);
    expect(alive).toBe(false);
    expect(prober.contradictions).toBeGreaterThanOrEqual(2);
    const plain = backtrackStrategy.solve(puzzle, solveOptions({ maxSolutions: 1, params: { probing: false } }));
    expect(plain.status).toBe('contradiction');
    expect(plain.metrics.deadEnds).toBeGreaterThan(0);
  });

  it('leaves the grid as it was when a probe is undone (only decided cells stay)', () => {
    fc.assert(
      fc.property(pictured, (puzzle) => {
        const prop = new Propagator(puzzle, new ExactLineSolver());
        prop.enqueueAll();
        prop.propagate();
        const before = prop.grid.slice();
        const prober = new Prober(prop);
        prober.run(0);
        // Probing only adds knowledge: every cell known before keeps its value.
        before.forEach((v, i) => v !== UNKNOWN && expect(prop.grid[i]).toBe(v));
        expect(prop.trailLength).toBe(prop.grid.filter((v) => v !== UNKNOWN).length);
        expect(prober.probes).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 100 },
    );
  });
});
