import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cluesOf, isSolution, countKnown } from '../../corpus/grid.js';
import { EMPTY, FILLED, UNKNOWN, makePuzzle, type Grid, type Puzzle } from '../../corpus/model.js';
import { backtrackStrategy, probeStrategy } from '../../solvers/strategies/backtrack.js';
import { overlapStrategy } from '../../solvers/strategies/overlap.js';
import { solveOptions, type SolveResult } from '../../solvers/api/types.js';
import { bruteForceSolutions } from '../helpers/brute-force.js';
import { ExactLineSolver } from '../../solvers/line/exact.js';
import { Propagator } from '../../solvers/propagation/propagator.js';
import { BacktrackSearch } from '../../solvers/search/backtrack.js';
import { BACKTRACK_SETTINGS, PROBE_SETTINGS } from '../../solvers/search/settings.js';

const key = (g: Grid) => g.join('');

/** A random picture's puzzle (always solvable) or a puzzle with random clues (often not). */
const smallPuzzle = fc.oneof(
  fc
    .record({
      width: fc.integer({ min: 1, max: 8 }),
      height: fc.integer({ min: 1, max: 8 }),
      density: fc.double({ min: 0.15, max: 0.85, noNaN: true }),
      coins: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 64, maxLength: 64 }),
    })
    .map(({ width, height, density, coins }) => {
      const goal = Uint8Array.from({ length: width * height }, (_, i) => (coins[i]! < density ? FILLED : EMPTY));
      const { rows, columns } = cluesOf(goal, width, height);
      return makePuzzle(rows, columns, {}, goal);
    }),
  fc
    .record({ width: fc.integer({ min: 1, max: 6 }), height: fc.integer({ min: 1, max: 6 }) })
    .chain(({ width, height }) =>
      fc.record({
        rows: fc.array(fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 2 }), { minLength: height, maxLength: height }),
        columns: fc.array(fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 2 }), { minLength: width, maxLength: width }),
      }),
    )
    .map(({ rows, columns }) => makePuzzle(rows, columns)),
);

function expectSolutionsMatch(result: SolveResult, truth: Grid[], maxSolutions: number, p: Puzzle): void {
  const truthKeys = new Set(truth.map(key));
  for (const s of result.solutions) {
    expect(isSolution(p, s)).toBe(true);
    expect(truthKeys.has(key(s))).toBe(true);
  }
  expect(new Set(result.solutions.map(key)).size).toBe(result.solutions.length);
  expect(result.solutions.length).toBe(Math.min(truth.length, maxSolutions));
  if (truth.length === 0) expect(result.status).toBe('contradiction');
  else if (truth.length === 1) expect(result.status).toBe(maxSolutions === 1 ? 'solved' : 'unique');
  else expect(result.status).toBe(maxSolutions === 1 ? 'solved' : 'multiple');
  if (result.solutions.length > 0) {
    expect(result.grid).toEqual(result.solutions[0]);
    expect(countKnown(result.grid)).toBe(p.width * p.height);
  }
}

describe('backtrack and probe against a brute force', () => {
  for (const strategy of [backtrackStrategy, probeStrategy]) {
    it(`${strategy.name} finds exactly the brute-force solutions (up to maxSolutions)`, () => {
      fc.assert(
        fc.property(smallPuzzle, fc.constantFrom(1, 2, 2, 3), (p, maxSolutions) => {
          const truth = bruteForceSolutions(p, 50);
          const result = strategy.solve(p, solveOptions({ maxSolutions }));
          expectSolutionsMatch(result, truth, maxSolutions, p);
          expect(result.metrics.decisions).toBeGreaterThanOrEqual(result.metrics.maxDepth);
        }),
        { numRuns: 400 },
      );
    });
  }

  it('probe agrees with backtrack on solution counts', () => {
    fc.assert(
      fc.property(smallPuzzle, (p) => {
        const a = backtrackStrategy.solve(p, solveOptions({ maxSolutions: 3 }));
        const b = probeStrategy.solve(p, solveOptions({ maxSolutions: 3 }));
        expect(b.solutions.length).toBe(a.solutions.length);
        expect(b.status).toBe(a.status);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same answers with every search setting, including restarts after every decision', () => {
    fc.assert(
      fc.property(
        smallPuzzle,
        fc.record({
          branch: fc.constantFrom('first', 'lines', 'neighbours', 'density'),
          first: fc.constantFrom('filled', 'empty'),
          cache: fc.boolean(),
          probing: fc.boolean(),
          probeScope: fc.constantFrom('local', 'all'),
          rememberRates: fc.boolean(),
          rating: fc.constantFrom('product', 'min', 'sqrt', 'sum'),
          probeRanks: fc.boolean(),
          alternate: fc.boolean(),
          restarts: fc.boolean(),
          restartBudget: fc.constantFrom(1, 2, 64),
          restartPlan: fc.constantFrom('geometric', 'luby'),
        }),
        (p, params) => {
          const truth = bruteForceSolutions(p, 50);
          const result = backtrackStrategy.solve(p, solveOptions({ maxSolutions: 2, params }));
          expectSolutionsMatch(result, truth, 2, p);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('stays complete across many restarts: every solution once, and contradictions proven', () => {
    // 5x5 with every line [1]: the 120 permutation matrices.
    const permutations = makePuzzle(Array.from({ length: 5 }, () => [1]), Array.from({ length: 5 }, () => [1]));
    // Line logic accepts it, yet no layout exists (columns need two runs each, rows hold 8 cells).
    const impossible = makePuzzle([[], [2], [1, 1], [1, 1], [1, 1]], [[1, 1], [1, 1], [1, 1], [1, 1]]);
    for (const probing of [false, true])
      for (const restartPlan of ['geometric', 'luby']) {
        const params = { restartBudget: 1, probing, restartPlan };
        const all = backtrackStrategy.solve(permutations, solveOptions({ maxSolutions: 500, params }));
        expect(all.status).toBe('multiple');
        expect(all.solutions).toHaveLength(120);
        expect(new Set(all.solutions.map(key)).size).toBe(120);
        expect(all.metrics.extra.restarts).toBeGreaterThan(3);
        const none = backtrackStrategy.solve(impossible, solveOptions({ maxSolutions: 2, params }));
        expect(none.status).toBe('contradiction');
        expect(none.metrics.deadEnds).toBeGreaterThan(0);
      }
  });
});

describe('overlap strategy against a brute force', () => {
  it('never sets a cell that differs from a solution, and reports the status its grid supports', () => {
    fc.assert(
      fc.property(smallPuzzle, (p) => {
        const truth = bruteForceSolutions(p, 10_000);
        const result = overlapStrategy.solve(p, solveOptions());
        expect(result.metrics.decisions).toBe(0);
        expect(result.metrics.deadEnds).toBe(0);
        if (result.status === 'contradiction') {
          expect(truth).toHaveLength(0);
          return;
        }
        for (const s of truth) result.grid.forEach((v, i) => v !== UNKNOWN && expect(v).toBe(s[i]));
        if (truth.length === 0) return; // overlap may miss a contradiction and stall
        if (result.status === 'unique') {
          expect(truth).toHaveLength(1);
          expect(result.solutions).toEqual(truth);
        } else expect(result.status).toBe('stuck');
        expect(countKnown(result.grid)).toBe(result.grid.filter((v) => v !== UNKNOWN).length);
      }),
      { numRuns: 400 },
    );
  });
});

describe('search bookkeeping', () => {
  const params = { maxSolutions: 2 };
  // Two 2x2 diagonals: the classic puzzle with exactly two solutions.
  const twoWay = makePuzzle([[1], [1]], [[1], [1]]);

  it('counts decisions and dead ends on a puzzle that needs a guess', () => {
    const r = backtrackStrategy.solve(twoWay, solveOptions(params));
    expect(r.status).toBe('multiple');
    expect(r.solutions).toHaveLength(2);
    expect(r.metrics.decisions).toBeGreaterThanOrEqual(2);
    expect(r.metrics.maxDepth).toBe(1);
    expect(r.metrics.deadEnds).toBe(0);
    expect(r.metrics.lineSolves).toBeGreaterThan(0);
  });

  it('stops with timeout and the root grid when the cancellation check fires', () => {
    const r = backtrackStrategy.solve(twoWay, { maxSolutions: 2, shouldStop: () => true });
    expect(r.status).toBe('timeout');
    expect(r.grid).toHaveLength(4);
    expect(countKnown(r.grid)).toBe(r.grid.filter((v) => v !== UNKNOWN).length);
  });

  it('reports contradiction without dead ends when the first propagation fails', () => {
    const impossible = makePuzzle([[2], [2]], [[1], [1]]);
    const r = backtrackStrategy.solve(impossible, solveOptions(params));
    expect(r.status).toBe('contradiction');
    expect(r.metrics.deadEnds).toBe(0);
    expect(r.metrics.decisions).toBe(0);
    expect(r.solutions).toHaveLength(0);
  });

  it('tries param first first only on a cell the probes do not rank, as its declared meaning says', () => {
    const firstGuess = (extra: Record<string, string | boolean>) => {
      let value = -1;
      const trace = { line() {}, probe() {}, solution() {}, learnt() {}, found() {}, backtrack() {}, guess: (_c: number, v: number) => void (value = value < 0 ? v : value) };
      backtrackStrategy.solve(twoWay, { ...solveOptions({ ...params, params: { first: 'empty', ...extra } }), trace });
      return value;
    };
    expect(firstGuess({})).toBe(FILLED); // the probes rank the cell: their stronger value (both decide all four cells)
    expect(firstGuess({ probeRanks: false })).toBe(EMPTY);
    const meaning = backtrackStrategy.params!.find((p) => p.name === 'first')!.meaning;
    expect(meaning).toMatch(/when probing does not rank cells/);
  });

  it('rejects unknown params', () => {
    expect(() => backtrackStrategy.solve(twoWay, solveOptions({ params: { branch: 'sideways' } }))).toThrow(/branch/);
    expect(() => backtrackStrategy.solve(twoWay, solveOptions({ params: { first: 'maybe' } }))).toThrow(/first/);
    expect(() => backtrackStrategy.solve(twoWay, solveOptions({ params: { rating: 'best' } }))).toThrow(/rating/);
    expect(() => backtrackStrategy.solve(twoWay, solveOptions({ params: { probeScope: 'some' } }))).toThrow(/probeScope/);
    expect(() => backtrackStrategy.solve(twoWay, solveOptions({ params: { restartBudget: 0 } }))).toThrow(/restartBudget/);
    expect(() => backtrackStrategy.solve(twoWay, solveOptions({ params: { restartPlan: 'often' } }))).toThrow(/restartPlan/);
  });
});

describe('the search started from a given grid (as classify starts it)', () => {
  it('finds exactly the solutions that agree with the cells given, in every setting', () => {
    fc.assert(
      fc.property(
        smallPuzzle,
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(FILLED, EMPTY)), { maxLength: 6 }),
        fc.constantFrom(BACKTRACK_SETTINGS, PROBE_SETTINGS, { ...BACKTRACK_SETTINGS, probing: false }),
        (p, fixed, settings) => {
          const cells = p.width * p.height;
          const given = new Map(fixed.map(([i, v]) => [i % cells, v]));
          const expected = bruteForceSolutions(p, 200).filter((s) => [...given].every(([i, v]) => s[i] === v));
          const prop = new Propagator(p, new ExactLineSolver());
          prop.enqueueAll();
          let consistent = prop.propagate();
          for (const [i, v] of given) {
            if (!consistent) break;
            if (prop.grid[i] === UNKNOWN) prop.assign(i, v);
            else consistent = prop.grid[i] === v;
          }
          consistent &&= prop.propagate();
          if (!consistent) {
            expect(expected).toEqual([]);
            return;
          }
          const r = new BacktrackSearch(p, solveOptions({ maxSolutions: 200 }), settings, prop).run();
          expect(new Set(r.solutions.map(key))).toEqual(new Set(expected.map(key)));
          expect(r.solutions).toHaveLength(expected.length);
          expect(r.status).toBe(expected.length === 0 ? 'contradiction' : expected.length === 1 ? 'unique' : 'multiple');
        },
      ),
      { numRuns: 300 },
    );
  });
});
