import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generateRandomPuzzle } from '../../corpus/generate.js';
import { createRng } from '../../corpus/random.js';
import { EMPTY, FILLED, UNKNOWN, type Grid } from '../../corpus/model.js';
import { solveOptions } from '../../solvers/api/types.js';
import { ExactLineSolver } from '../../solvers/line/exact.js';
import { Propagator } from '../../solvers/propagation/propagator.js';
import { BacktrackSearch } from '../../solvers/search/backtrack.js';
import { BACKTRACK_SETTINGS } from '../../solvers/search/settings.js';
import { bruteForceSolutions } from '../helpers/brute-force.js';

const key = (g: Grid) => Array.from(g).join('');

const puzzleAndPick = fc.record({
  width: fc.integer({ min: 2, max: 6 }),
  height: fc.integer({ min: 2, max: 6 }),
  density: fc.constantFrom(0.3, 0.5, 0.7),
  seed: fc.integer({ min: 1, max: 2 ** 31 }),
  pick: fc.nat(),
  every: fc.integer({ min: 1, max: 4 }),
});

describe('the search taking facts at its root between runs (as auto gives it)', () => {
  it('finds exactly the solutions that agree with the facts (brute force)', () => {
    fc.assert(
      fc.property(puzzleAndPick, ({ width, height, density, seed, pick, every }) => {
        const puzzle = generateRandomPuzzle(width, height, density, createRng(seed));
        const all = bruteForceSolutions(puzzle);
        const chosen = all[pick % all.length]!;
        // Facts: every `every`-th cell of one solution, so that some solutions may still agree.
        const cells = Int32Array.from({ length: chosen.length }, (_, i) => i).filter((i) => i % every === 0);
        const values = Uint8Array.from(cells, (c) => chosen[c]!);
        const search = new BacktrackSearch(puzzle, solveOptions({ maxSolutions: 100 }), { ...BACKTRACK_SETTINGS, restartBudget: 1 });
        if (!search.begin()) return;
        search.runOnce();
        const before = search.solutions.length;
        if (!search.assumeAtRoot(cells, values)) {
          // Refused: then no solution agrees with the facts but those already found.
          const agreeing = all.filter((s) => Array.from(cells).every((c, i) => s[c] === values[i]));
          expect(agreeing.every((s) => search.solutions.some((f) => key(f) === key(s)))).toBe(true);
          return;
        }
        while (!search.runOnce());
        const found = search.solutions.slice(before).map(key).sort();
        const expected = all
          .filter((s) => Array.from(cells).every((c, i) => s[c] === values[i]))
          .map(key)
          .filter((k) => !search.solutions.slice(0, before).some((f) => key(f) === k))
          .sort();
        expect(found).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('refuses a fact that contradicts a known cell, and leaves the root grid as it was', () => {
    // A puzzle whose root has known and unknown cells: the fact on the unknown one is set first,
    // then the contradiction undoes it.
    for (let seed = 1; ; seed++) {
      const puzzle = generateRandomPuzzle(8, 8, 0.5, createRng(seed));
      const prop = new Propagator(puzzle, new ExactLineSolver());
      prop.enqueueAll();
      const search = new BacktrackSearch(puzzle, solveOptions({ maxSolutions: 2 }), BACKTRACK_SETTINGS, prop);
      if (!prop.propagate() || !search.begin()) continue;
      const root = prop.grid.slice();
      const known = root.findIndex((v) => v !== UNKNOWN);
      const unknown = root.findIndex((v) => v === UNKNOWN);
      if (known < 0 || unknown < 0) continue;
      expect(search.assumeAtRoot([unknown, known], [FILLED, root[known] === FILLED ? EMPTY : FILLED])).toBe(false);
      expect(prop.grid).toEqual(root);
      expect(search.runOnce()).toBe(true);
      expect(search.solutions).toEqual([]);
      return;
    }
  });
});
