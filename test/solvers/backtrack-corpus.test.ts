import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { isSolution } from '../../corpus/grid.js';
import { listPuzzleFiles, loadPuzzles } from '../../corpus/load.js';
import { BUNDLED_CORPUS } from '../../corpus/paths.js';
import type { Puzzle } from '../../corpus/model.js';
import { backtrackStrategy, probeStrategy } from '../../solvers/strategies/backtrack.js';
import { deadlineAfter, type Strategy } from '../../solvers/api/types.js';

/** Generated puzzles are random pictures: their goal is one solution among several, not an answer. */
const designed = listPuzzleFiles(BUNDLED_CORPUS)
  .filter((f) => f.endsWith('.non') && !f.includes('/generated/'))
  .flatMap((f) => loadPuzzles(f));
const withGoal = designed.filter((p) => p.goal);

const tournament = loadPuzzles(join(BUNDLED_CORPUS, 'tournament', 'taai2011-questions.txt'));
/**
 * A deterministic sample that keeps the run short: every sixth of the first 300 puzzles. Many of the
 * later ones take seconds each (they are hard for every strategy); the benchmark script runs all.
 */
const tournamentSample = tournament.slice(0, 300).filter((_, i) => i % 6 === 0);

const label = (p: Puzzle) => p.meta.source ?? p.id;
const sameGrid = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

describe('backtrack on the bundled corpus', () => {
  it('has the corpus it is meant to check', () => {
    expect(withGoal.length).toBeGreaterThanOrEqual(40);
    expect(tournament).toHaveLength(1000);
    expect(tournament.every((p) => p.goal)).toBe(true);
  });

  it('proves every designed .non puzzle with a goal unique, and its answer is the goal', () => {
    for (const p of withGoal) {
      const r = backtrackStrategy.solve(p, { maxSolutions: 2, shouldStop: deadlineAfter(10_000) });
      expect(r.status, label(p)).toBe('unique');
      expect(sameGrid(r.grid, p.goal!), label(p)).toBe(true);
    }
  });

  for (const strategy of [backtrackStrategy, probeStrategy] as Strategy[]) {
    it(`${strategy.name}: tournament sample — every reported solution satisfies the clues; a unique answer is the recorded one`, () => {
      let multiple = 0;
      for (const p of tournamentSample) {
        const r = strategy.solve(p, { maxSolutions: 2, shouldStop: deadlineAfter(10_000) });
        expect(['unique', 'multiple'], label(p)).toContain(r.status);
        for (const s of r.solutions) expect(isSolution(p, s), label(p)).toBe(true);
        if (r.status === 'unique') expect(sameGrid(r.solutions[0]!, p.goal!), label(p)).toBe(true);
        else {
          multiple++;
          expect(sameGrid(r.solutions[0]!, r.solutions[1]!)).toBe(false);
        }
      }
      // The set is known for its many-solution puzzles.
      expect(multiple).toBeGreaterThan(tournamentSample.length / 2);
    });
  }
});
