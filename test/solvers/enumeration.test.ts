import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cluesOf, countKnown, isSolution } from '../../corpus/grid.js';
import { EMPTY, FILLED, UNKNOWN, makePuzzle, type Grid, type Puzzle } from '../../corpus/model.js';
import { enumeration } from '../../solvers/strategies/enumeration.js';
import { placementCount } from '../../solvers/line/enumerate.js';
import { builtInStrategies } from '../../solvers/strategies/registry.js';
import { solveOptions, type SolveResult } from '../../solvers/api/types.js';
import { bruteForceSolutions } from '../helpers/brute-force.js';

const pictureArb = fc
  .record({ width: fc.integer({ min: 1, max: 8 }), height: fc.integer({ min: 1, max: 8 }), density: fc.double({ min: 0.2, max: 0.8, noNaN: true }) })
  .chain(({ width, height, density }) =>
    fc
      .array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: width * height, maxLength: width * height })
      .map((r) => ({ width, height, cells: Uint8Array.from(r, (v) => (v < density ? FILLED : EMPTY)) })),
  );

const puzzleOfPicture = ({ width, height, cells }: { width: number; height: number; cells: Uint8Array }) => {
  const { rows, columns } = cluesOf(cells, width, height);
  return makePuzzle(rows, columns);
};

/** Every known cell of the result equals that cell in every solution; solved statuses match the brute force. */
function expectSound(p: Puzzle, r: SolveResult, solutions: Grid[], maxSolutions = 2) {
  for (const s of solutions) for (let i = 0; i < s.length; i++) if (r.grid[i] !== UNKNOWN) expect(r.grid[i]).toBe(s[i]);
  expect([r.metrics.deadEnds, r.metrics.decisions, r.metrics.maxDepth]).toEqual([0, 0, 0]);
  if (r.status === 'unique' || r.status === 'solved') {
    expect(r.status).toBe(maxSolutions === 1 ? 'solved' : 'unique');
    expect(solutions).toHaveLength(1);
    expect(Array.from(r.grid)).toEqual(Array.from(solutions[0]!));
    expect(r.solutions.map((s) => Array.from(s))).toEqual([Array.from(solutions[0]!)]);
    expect(r.solutions.length).toBe(1);
  } else {
    expect(r.solutions).toHaveLength(0);
    expect(r.solutions.length).toBe(0);
  }
  if (r.status === 'contradiction') expect(solutions).toHaveLength(0);
  if (r.status === 'stuck') expect(countKnown(r.grid)).toBeLessThan(p.width * p.height);
}

describe('enumeration strategy', () => {
  it('is registered first', () => {
    expect(builtInStrategies()[0]).toBe(enumeration);
  });

  it('never sets a wrong cell and claims uniqueness only for puzzles with one solution', () => {
    fc.assert(
      fc.property(pictureArb, fc.constantFrom(1, 2), (picture, maxSolutions) => {
        const p = puzzleOfPicture(picture);
        const solutions = bruteForceSolutions(p, 2000);
        const r = enumeration.solve(p, solveOptions({ maxSolutions }));
        expect(['unique', 'solved', 'stuck']).toContain(r.status);
        expectSound(p, r, solutions, maxSolutions);
        // With one word per line the default cap is never reached on these sizes.
        expect(r.metrics.extra.placementsStored).toBeGreaterThan(0);
      }),
      { numRuns: 150 },
    );
  });

  it('detects contradictions and stays sound on clue sets that may have no solution', () => {
    // Columns taken from a different picture of the same size: often no solution at all.
    const arb = pictureArb.chain((a) =>
      fc
        .array(fc.boolean(), { minLength: a.width * a.height, maxLength: a.width * a.height })
        .map((bits) => [a, { ...a, cells: Uint8Array.from(bits, (b) => (b ? FILLED : EMPTY)) }] as const),
    );
    let contradictions = 0;
    fc.assert(
      fc.property(arb, ([a, b]) => {
        const rows = cluesOf(a.cells, a.width, a.height).rows;
        const columns = cluesOf(b.cells, b.width, b.height).columns;
        const p = makePuzzle(rows, columns);
        const solutions = bruteForceSolutions(p, 2000);
        const r = enumeration.solve(p, solveOptions());
        if (r.status === 'contradiction') contradictions++;
        expect(['unique', 'stuck', 'contradiction']).toContain(r.status);
        expectSound(p, r, solutions);
      }),
      { numRuns: 150, seed: 42 },
    );
    expect(contradictions).toBeGreaterThan(0);
  });

  it('reports stuck when line logic stalls', () => {
    const p = makePuzzle([[1], [1]], [[1], [1]]);
    const r = enumeration.solve(p, solveOptions());
    expect(r.status).toBe('stuck');
    expect(countKnown(r.grid)).toBe(0);
    expect(r.metrics.lineSolves).toBeGreaterThan(0);
  });

  it('solves a classic puzzle (webpbn #1, "Dancer") to its goal', () => {
    const rows = [[2], [2, 1], [1, 1], [3], [1, 1], [1, 1], [2], [1, 1], [1, 2], [2]];
    const columns = [[2, 1], [2, 1, 3], [7], [1, 3], [2, 1]];
    const goal = '01100011010010101110101001010000110010100101111000';
    const p = makePuzzle(rows, columns);
    const r = enumeration.solve(p, solveOptions());
    expect(r.status).toBe('unique');
    expect(Array.from(r.grid, (v) => (v === FILLED ? '1' : '0')).join('')).toBe(goal);
    expect(isSolution(p, r.grid)).toBe(true);
  });

  it('reports timeout as soon as asked to stop', () => {
    const p = makePuzzle([[2], [2, 1], [1, 1]], [[1], [3], [1], [2], [1]]);
    const r = enumeration.solve(p, solveOptions({ shouldStop: () => true }));
    expect(r.status).toBe('timeout');
  });

  it('rejects a malformed maxPlacements', () => {
    const p = makePuzzle([[1]], [[1]]);
    expect(() => enumeration.solve(p, solveOptions({ params: { maxPlacements: 'lots' } }))).toThrow(/maxPlacements/);
    expect(() => enumeration.solve(p, solveOptions({ params: { maxPlacements: -1 } }))).toThrow(/maxPlacements/);
  });
});

describe('enumeration placement cap', () => {
  it('enumerates only the lines that fit and reports too-large with what they resolved', () => {
    // Row 1 is full (1 placement), the rest have many; a cap of 1 allows only row 1.
    const p = makePuzzle([[1], [6], [1, 1]], [[1], [1, 1], [1], [1], [1, 1], [1]]);
    const r = enumeration.solve(p, solveOptions({ params: { maxPlacements: 1 } }));
    expect(r.status).toBe('too-large');
    expect(Array.from(r.grid)).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
    expect(countKnown(r.grid)).toBe(6);
    expect(r.metrics.extra.placementsStored).toBe(1);
    // With nothing allowed, nothing is resolved.
    const none = enumeration.solve(p, solveOptions({ params: { maxPlacements: 0 } }));
    expect(none.status).toBe('too-large');
    expect(countKnown(none.grid)).toBe(0);
  });

  it('stays sound under any cap, resolves a subset of the uncapped result, and never stores more than the cap', () => {
    fc.assert(
      fc.property(pictureArb, fc.integer({ min: 0, max: 60 }), (picture, cap) => {
        const p = puzzleOfPicture(picture);
        const solutions = bruteForceSolutions(p, 2000);
        const full = enumeration.solve(p, solveOptions());
        const r = enumeration.solve(p, solveOptions({ params: { maxPlacements: cap } }));
        expect(['unique', 'stuck', 'too-large']).toContain(r.status);
        expectSound(p, r, solutions);
        expect(r.metrics.extra.placementsStored).toBeLessThanOrEqual(cap);
        for (let i = 0; i < r.grid.length; i++) if (r.grid[i] !== UNKNOWN) expect(r.grid[i]).toBe(full.grid[i]);
        const lines = [
          ...p.rows.map((c) => placementCount(p.width, c)),
          ...p.columns.map((c) => placementCount(p.height, c)),
        ];
        // A line too big for the cap on its own can never be enumerated: the result cannot be stuck.
        if (lines.some((n) => n > BigInt(cap)) && r.status !== 'unique') expect(r.status).toBe('too-large');
        if (lines.reduce((a, b) => a + b, 0n) <= BigInt(cap)) expect(r.status).toBe(full.status);
      }),
      { numRuns: 150 },
    );
  });
});
