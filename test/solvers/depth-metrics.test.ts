import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cluesOf } from '../../corpus/grid.js';
import { loadPuzzle } from '../../corpus/load.js';
import { EMPTY, FILLED, makePuzzle, type Puzzle } from '../../corpus/model.js';
import { solveOptions, type SolveResult } from '../../solvers/api/types.js';
import type { Params } from '../../solvers/api/params.js';
import { builtInStrategies } from '../../solvers/strategies/registry.js';

// max_depth is the deepest search level reached, "0 without search", in every strategy alike; the
// symmetries a strategy counts are maps that move some cell, each once.

const solve = (name: string, puzzle: Puzzle, params: Params = {}): SolveResult =>
  builtInStrategies().find((s) => s.name === name)!.solve(puzzle, solveOptions({ maxSolutions: 2, params })) as SolveResult;

/** The puzzle of a picture, mirrored left to right onto itself when `mirrored` (so its clues have a symmetry). */
const pictureArb = fc
  .record({ width: fc.integer({ min: 1, max: 7 }), height: fc.integer({ min: 1, max: 7 }), mirrored: fc.boolean(), bits: fc.array(fc.boolean(), { minLength: 49, maxLength: 49 }) })
  .map(({ width, height, mirrored, bits }) => {
    const grid = new Uint8Array(width * height).map((_, i) => (bits[i] ? FILLED : EMPTY));
    if (mirrored) for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) grid[r * width + c] = grid[r * width + Math.min(c, width - 1 - c)]!;
    const { rows, columns } = cluesOf(grid, width, height);
    return makePuzzle(rows, columns);
  });

describe('max_depth', () => {
  it('is 0 without a decision, and never more than the decisions, in every strategy', () => {
    const strategies = ['backtrack', 'probe', 'sat', 'auto'];
    fc.assert(
      fc.property(pictureArb, fc.constantFrom(...strategies), fc.constantFrom<Params>({}, { probe: true }, { probing: false }), (puzzle, name, params) => {
        const own = name === 'sat' ? ('probe' in params ? params : {}) : name === 'auto' ? {} : 'probing' in params ? params : {};
        const { metrics } = solve(name, puzzle, own);
        expect(metrics.maxDepth).toBeLessThanOrEqual(metrics.decisions);
        if (metrics.decisions === 0) expect(metrics.maxDepth).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves out the level sat opens for its symmetry guard, which is no search', () => {
    // webpbn #65: probing settles it, and its clues are symmetric.
    const probed = solve('sat', loadPuzzle('corpus/puzzles/webpbn/65.non'), { probe: true });
    expect([probed.status, probed.metrics.decisions, probed.metrics.maxDepth]).toEqual(['unique', 0, 0]);
    expect(probed.metrics.extra.symmetries).toBeGreaterThan(0);
  });
});

describe('the symmetries counted', () => {
  it('leave out the identity and maps that are the same, as on a picture one line thick', () => {
    const oneCell = makePuzzle([[1]], [[1]]);
    const row = makePuzzle([[1, 1, 1]], [[1], [], [1], [], [1]]); // mirror and 180° rotation are one map; flip moves nothing
    for (const name of ['sat', 'auto']) {
      expect(solve(name, oneCell).metrics.extra.symmetries ?? 0, name).toBe(0);
      expect(solve(name, row).metrics.extra.symmetries, name).toBe(1);
      expect(solve(name, oneCell).metrics.maxDepth, name).toBe(0);
    }
  });
});

describe('explanations', () => {
  it('are counted whenever the line propagator runs inside the search, 0 included', () => {
    const forever = loadPuzzle('corpus/puzzles/webpbn/6574.non');
    for (const encoding of ['blocks', 'automaton']) {
      expect(solve('sat', forever, { lines: true, encoding }).metrics.extra.explanations, encoding).toBeGreaterThanOrEqual(0);
      expect(solve('auto', forever, { lines: true, encoding }).metrics.extra.satExplanations ?? 'absent', encoding).not.toBe('absent');
    }
    expect(solve('sat', forever).metrics.extra.explanations).toBeUndefined();
  });
});
