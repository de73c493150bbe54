import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generateRandomPuzzle } from '../../corpus/generate.js';
import { createRng } from '../../corpus/random.js';
import { loadPuzzle } from '../../corpus/load.js';
import type { Puzzle } from '../../corpus/model.js';
import { backtrackStrategy, probeStrategy } from '../../solvers/strategies/backtrack.js';
import { overlapStrategy } from '../../solvers/strategies/overlap.js';
import { autoStrategy } from '../../solvers/strategies/auto.js';
import { solveOptions, type SolveResult, type SolveTrace, type SyncStrategy } from '../../solvers/api/types.js';
import type { Params } from '../../solvers/api/params.js';

/** A trace that only counts what it hears. */
function countingTrace() {
  const counts = { lines: 0, cellsSet: 0, probes: 0, guesses: 0, deepest: 0, backtracks: 0, cellsUndone: 0, solutions: 0, learnt: 0, found: 0 };
  const trace: SolveTrace = {
    line: (_l, _ok, _g, _t, from, to) => {
      counts.lines++;
      counts.cellsSet += to - from;
    },
    probe: () => void counts.probes++,
    guess: (_cell, _value, depth) => {
      counts.guesses++;
      counts.deepest = Math.max(counts.deepest, depth);
    },
    backtrack: (_d, _dead, _t, from, to) => {
      counts.backtracks++;
      counts.cellsUndone += to - from;
    },
    solution: () => void counts.solutions++,
    learnt: () => void counts.learnt++,
    found: () => void counts.found++,
  };
  return { trace, counts };
}

const solve = (s: SyncStrategy, p: Puzzle, params: Params, trace?: SolveTrace): SolveResult =>
  s.solve(p, solveOptions({ maxSolutions: 2, params, ...(trace ? { trace } : {}) }));

const randomPuzzle = fc
  .record({ width: fc.integer({ min: 2, max: 12 }), height: fc.integer({ min: 2, max: 12 }), density: fc.double({ min: 0.3, max: 0.7, noNaN: true }), seed: fc.integer({ min: 1, max: 2 ** 31 }) })
  .map(({ width, height, density, seed }) => generateRandomPuzzle(width, height, density, createRng(seed)));

const strategyAndParams = fc.oneof(
  fc.record({ strategy: fc.constantFrom(backtrackStrategy, probeStrategy), params: fc.record({ probing: fc.boolean(), restartBudget: fc.constantFrom(1, 4, 64) }) }),
  fc.constant({ strategy: overlapStrategy, params: {} }),
);

describe('a solve trace', () => {
  it('changes nothing: the same status, grids and counters with and without it, and it hears every step', () => {
    fc.assert(
      fc.property(randomPuzzle, strategyAndParams, (puzzle, { strategy, params }) => {
        const plain = solve(strategy, puzzle, params);
        const { trace, counts } = countingTrace();
        const traced = solve(strategy, puzzle, params, trace);
        expect(traced).toEqual(plain);
        const m = plain.metrics;
        // Every guess is reported and undone, every completed probe reported.
        expect(counts.guesses).toBe(m.decisions);
        expect(counts.backtracks).toBe(m.decisions);
        // max_depth is the deepest guess, whether or not its branch then failed.
        expect(m.maxDepth).toBe(counts.deepest);
        expect(counts.probes).toBe(m.extra.probes ?? 0);
        if (strategy !== overlapStrategy) expect(counts.solutions).toBeGreaterThanOrEqual(plain.solutions.length);
        expect(counts.lines).toBeGreaterThan(0);
        // A backtrack undoes its guess at least, and only cells that a line step, a guess or a probe had set.
        if (m.decisions > 0) expect(counts.cellsUndone).toBeGreaterThanOrEqual(m.decisions);
        expect(counts.cellsUndone).toBeLessThanOrEqual(counts.cellsSet + counts.guesses + counts.probes);
      }),
      { numRuns: 80 },
    );
  });

  it('changes nothing on a puzzle that needs deep guessing without probing', () => {
    const puzzle = loadPuzzle('corpus/puzzles/webpbn/23.non');
    const params = { probing: false };
    const plain = solve(backtrackStrategy, puzzle, params);
    const { trace, counts } = countingTrace();
    expect(solve(backtrackStrategy, puzzle, params, trace)).toEqual(plain);
    expect(plain.metrics.decisions).toBeGreaterThan(10);
    expect(counts.guesses).toBe(plain.metrics.decisions);
    expect(plain.metrics.maxDepth).toBe(counts.deepest);
    // #6574 "Forever": its deepest guess fails at once, and still counts.
    const forever = loadPuzzle('corpus/puzzles/webpbn/6574.non');
    const deep = countingTrace();
    expect(solve(backtrackStrategy, forever, {}, deep.trace).metrics.maxDepth).toBe(deep.counts.deepest);
  });

  it('changes nothing in auto, and hears its search and what its clause learning fixed and found', () => {
    // Random 30×30 puzzles: on 087 clause learning fixes cells for the search, which settles it; on
    // 026 clause learning finds the solutions.
    for (const name of ['087', '026']) {
      const puzzle = loadPuzzle(`corpus/puzzles/generated/30x30/${name}.non`);
      const plain = solve(autoStrategy, puzzle, {});
      const { trace, counts } = countingTrace();
      expect(solve(autoStrategy, puzzle, {}, trace)).toEqual(plain);
      const m = plain.metrics;
      expect(counts.guesses).toBe(m.extra.searchDecisions);
      expect(counts.probes).toBe(m.extra.probes);
      expect(counts.found + counts.solutions).toBeGreaterThanOrEqual(plain.solutions.length - (m.extra.mirroredSolutions ?? 0));
      if (name === '087') expect(counts.learnt).toBeGreaterThan(0);
      else expect(counts.found).toBeGreaterThan(0);
    }
  });
});
