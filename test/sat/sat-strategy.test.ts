import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cluesOf, isSolution, countKnown } from '../../corpus/grid.js';
import { listPuzzleFiles, loadPuzzles } from '../../corpus/load.js';
import { EMPTY, FILLED, makePuzzle, type Grid, type Puzzle } from '../../corpus/model.js';
import { BUNDLED_CORPUS } from '../../corpus/paths.js';
import { createRng, probabilityThreshold } from '../../corpus/random.js';
import { builtInStrategies, loadStrategy } from '../../solvers/strategies/registry.js';
import { SAT_PARAMS, sat } from '../../solvers/strategies/sat.js';
import { encodeNonogramFlat } from '../../solvers/sat/encodings/encode.js';
import { resolveParams } from '../../solvers/api/params.js';
import { solveOptions } from '../../solvers/api/types.js';
import { bruteForceSolutions } from '../helpers/brute-force.js';

/** A random picture of up to max×max cells and its clues; sometimes the columns of a second picture (often no solution). */
const randomPuzzle = (max: number) =>
  fc
    .record({
      w: fc.integer({ min: 1, max }),
      h: fc.integer({ min: 1, max }),
      density: fc.constantFrom(0.3, 0.5, 0.7),
      seed: fc.nat(),
      mixed: fc.integer({ min: 0, max: 4 }),
    })
    .map(({ w, h, density, seed, mixed }) => {
      const rng = createRng(seed);
      const threshold = probabilityThreshold(density);
      const picture = () => Uint8Array.from({ length: w * h }, () => (rng.chance(threshold) ? FILLED : EMPTY));
      const first = cluesOf(picture(), w, h);
      const columns = mixed === 0 ? cluesOf(picture(), w, h).columns : first.columns;
      return makePuzzle(first.rows, columns);
    });

function expectSound(puzzle: Puzzle, solutions: Grid[]): void {
  for (const s of solutions) expect(isSolution(puzzle, s)).toBe(true);
  if (solutions.length === 2) expect(solutions[0]).not.toEqual(solutions[1]);
}

describe('sat strategy', () => {
  it('is registered among the built-in strategies, just before the portfolio', async () => {
    const all = builtInStrategies();
    expect(all[all.length - 2]).toBe(sat);
    expect(all[all.length - 1]!.name).toBe('auto');
    expect(await loadStrategy('sat')).toBe(sat);
  });

  it('reads yes/no params', () => {
    const read = (given: Record<string, string | number | boolean>) => resolveParams('sat', SAT_PARAMS, given);
    expect(read({}).propagate).toBe(true);
    expect(read({ propagate: false }).propagate).toBe(false);
    expect(read({ propagate: 'off' }).propagate).toBe(false);
    expect(read({ cellDecisions: 1 }).cellDecisions).toBe(true);
    expect(() => read({ propagate: 'maybe' })).toThrow(/propagate/);
    expect(() => sat.solve(makePuzzle([[1]], [[1]]), solveOptions({ params: { cellDecisions: 'x' } }))).toThrow(/cellDecisions/);
  });

  it('encodes with blocks unless param encoding says automaton, and names the encodings it knows', () => {
    const puzzle = makePuzzle([[1], [1]], [[1], [1]]); // two solutions, nothing settled by propagation
    const variables = (params: Record<string, string>) => sat.solve(puzzle, solveOptions({ params })).metrics.extra.variables;
    // blocks: one start variable per line (start ≥ 1); automaton: the layers' nodes of each line.
    expect(variables({})).toBe(4 + 4);
    expect(variables({ encoding: 'blocks' })).toBe(4 + 4);
    expect(variables({ encoding: 'automaton' })).toBeGreaterThan(8);
    expect(() => sat.solve(puzzle, solveOptions({ params: { encoding: 'ladder' } }))).toThrow(/sat: param encoding must be blocks\|automaton, got "ladder"/);
  });

  for (const [encoding, propagate, cellDecisions, probe, lines] of [
    ['blocks', true, false, false, false],
    ['blocks', false, true, false, false],
    ['blocks', true, false, true, false],
    ['automaton', true, true, false, false],
    ['automaton', false, false, false, false],
    ['blocks', false, false, false, true],
    ['blocks', true, false, false, true],
  ] as const) {
    it(`counts solutions (capped at 2) like a brute force up to 8×8 (${encoding}, propagate ${propagate}, cellDecisions ${cellDecisions}, probe ${probe}, lines ${lines})`, () => {
      const seen = new Set<number>();
      let explained = 0;
      fc.assert(
        fc.property(randomPuzzle(8), (puzzle) => {
          const expected = bruteForceSolutions(puzzle, 2);
          seen.add(expected.length);
          const r = sat.solve(puzzle, solveOptions({ params: { encoding, propagate, cellDecisions, probe, lines } }));
          explained += r.metrics.extra.explanations ?? 0;
          expect(r.solutions).toHaveLength(expected.length);
          expect(r.solutions.length).toBe(expected.length);
          expect(r.status).toBe(['contradiction', 'unique', 'multiple'][expected.length]);
          expectSound(puzzle, r.solutions);
          if (expected.length === 1) expect(r.solutions[0]).toEqual(expected[0]);
          if (r.solutions.length > 0) {
            expect(r.grid).toEqual(r.solutions[0]);
            expect(countKnown(r.grid)).toBe(puzzle.width * puzzle.height);
          }
          if (!propagate && !lines) expect(r.metrics.lineSolves).toBe(0);
          expect(r.metrics.extra.probes !== undefined).toBe(probe);
        }),
        { numRuns: encoding === 'blocks' && propagate && !probe ? 150 : 80 },
      );
      expect([...seen].sort()).toEqual([0, 1, 2]); // the sample covers every outcome
      // Without param lines nothing is explained (that it explains is the tournament test's).
      if (!lines) expect(explained).toBe(0);
    });
  }

  it('with param lines, deduces inside the search on tournament puzzles and settles them as without', () => {
    let explained = 0;
    for (const n of [28, 36, 57, 85, 127]) {
      const [puzzle] = loadPuzzles(join(BUNDLED_CORPUS, `tournament/taai2011-questions.txt#${n}`));
      const plain = sat.solve(puzzle!, solveOptions());
      const lined = sat.solve(puzzle!, solveOptions({ params: { lines: true } }));
      expect(lined.status).toBe(plain.status);
      expectSound(puzzle!, lined.solutions);
      explained += lined.metrics.extra.explanations ?? 0;
      if ((lined.metrics.extra.explanations ?? 0) > 0) expect(lined.metrics.lineSolves).toBeGreaterThan(plain.metrics.lineSolves);
    }
    expect(explained).toBeGreaterThan(0);
  });

  it('with param lines, finds every solution of a puzzle a brute force finds (up to 6), each once', () => {
    const permutations = makePuzzle([[1], [1], [1]], [[1], [1], [1]]);
    let several = 0;
    fc.assert(
      fc.property(randomPuzzle(6), fc.constantFrom('blocks', 'automaton'), (puzzle, encoding) => {
        const expected = bruteForceSolutions(puzzle, 7);
        if (expected.length > 2) several++;
        const r = sat.solve(puzzle, solveOptions({ maxSolutions: 6, params: { encoding, lines: true, symmetry: false } }));
        const key = (g: Grid) => Array.from(g).join('');
        expect(r.solutions).toHaveLength(Math.min(6, expected.length));
        expect(new Set(r.solutions.map(key)).size).toBe(r.solutions.length);
        expectSound(puzzle, r.solutions);
        if (expected.length <= 6) expect(new Set(r.solutions.map(key))).toEqual(new Set(expected.map(key)));
      }),
      // Random small puzzles rarely have more than two solutions: the 3×3 permutation matrices (six) always run.
      { numRuns: 150, examples: [[permutations, 'blocks'], [permutations, 'automaton']] },
    );
    expect(several).toBeGreaterThan(0);
  });

  it('probing settles at least as much as propagation alone, and more on some puzzles', () => {
    let smaller = 0;
    fc.assert(
      fc.property(randomPuzzle(12), (puzzle) => {
        const plain = sat.solve(puzzle, solveOptions());
        const probed = sat.solve(puzzle, solveOptions({ params: { probe: true } }));
        expect(probed.status).toBe(plain.status);
        expectSound(puzzle, probed.solutions);
        if (plain.status === 'contradiction') return;
        // Every cell probing settles becomes a unit clause, and the line encodings are pruned by it.
        const plainVars = plain.metrics.extra.variables ?? 0;
        const probedVars = probed.metrics.extra.variables ?? 0;
        expect(probedVars).toBeLessThanOrEqual(plainVars);
        expect(probed.metrics.extra.probes).toBeGreaterThanOrEqual(0);
        if (probedVars < plainVars) {
          smaller++;
          expect(probed.metrics.extra.probes).toBeGreaterThan(0); // only probes can have settled more
        }
        expect(probed.metrics.lineSolves).toBeGreaterThanOrEqual(plain.metrics.lineSolves);
      }),
      { numRuns: 150 },
    );
    expect(smaller).toBeGreaterThan(0);
    expect(() => sat.solve(makePuzzle([[1]], [[1]]), solveOptions({ params: { probe: true, propagate: false } }))).toThrow(/probe/);
  });

  const backtrack = builtInStrategies().find((s) => s.name === 'backtrack');
  it.skipIf(!backtrack)('counts solutions like backtrack up to 10×10, in either encoding', () => {
    fc.assert(
      fc.property(randomPuzzle(10), fc.constantFrom('blocks', 'automaton'), (puzzle, encoding) => {
        const theirs = backtrack!.solve(puzzle, solveOptions());
        const ours = sat.solve(puzzle, solveOptions({ params: { encoding } }));
        expect(ours.status).toBe(theirs.status);
        expect(ours.solutions.length).toBe(theirs.solutions.length);
        expectSound(puzzle, ours.solutions);
      }),
      { numRuns: 150 },
    );
  });

  it('reports solved with maxSolutions 1, and every solution up to maxSolutions', () => {
    // A 2×2 puzzle with two solutions (the diagonals).
    const diagonals = makePuzzle([[1], [1]], [[1], [1]]);
    const one = sat.solve(diagonals, solveOptions({ maxSolutions: 1 }));
    expect(one.status).toBe('solved');
    expect(one.solutions).toHaveLength(1);
    const many = sat.solve(diagonals, solveOptions({ maxSolutions: 5 }));
    expect(many.status).toBe('multiple');
    expect(many.solutions).toHaveLength(2);
    expectSound(diagonals, many.solutions);
    expect(many.metrics.extra.variables).toBeGreaterThanOrEqual(4);
    expect(many.metrics.maxDepth).toBeGreaterThan(0);
  });

  it('counts the values probing refutes as dead ends, as backtrack and probe do', () => {
    const puzzle = loadPuzzles(join(BUNDLED_CORPUS, 'webpbn', '23.non'))[0]!;
    const probed = sat.solve(puzzle, solveOptions({ params: { probe: true } }));
    expect(probed.status).toBe('unique');
    expect(probed.metrics.extra.probeContradictions).toBeGreaterThan(0);
    // Probing finishes this puzzle, so the engine meets no conflict: every dead end is a refuted value.
    expect([probed.metrics.decisions, probed.metrics.deadEnds]).toEqual([0, probed.metrics.extra.probeContradictions]);
    const plain = sat.solve(puzzle, solveOptions({}));
    expect(plain.metrics.extra.probeContradictions).toBeUndefined();
  });

  it('times out promptly when the cancellation check fires', () => {
    const puzzle = makePuzzle([[1], [1]], [[1], [1]]);
    for (const propagate of [true, false]) {
      const r = sat.solve(puzzle, solveOptions({ shouldStop: () => true, params: { propagate } }));
      expect(r.status).toBe('timeout');
      expect(r.solutions).toHaveLength(0);
    }
  });

  it('polls the limit while encoding, line by line, and while loading clauses (seconds on a 200×200 puzzle)', () => {
    const rng = createRng(5);
    const picture = Uint8Array.from({ length: 60 * 60 }, () => (rng.chance(probabilityThreshold(0.5)) ? FILLED : EMPTY));
    const { rows, columns } = cluesOf(picture, 60, 60);
    const puzzle = makePuzzle(rows, columns);
    const pollsUntil = (stopAt: number) => {
      let polls = 0;
      const r = sat.solve(puzzle, solveOptions({ shouldStop: () => ++polls >= stopAt, params: { propagate: false } }));
      return { r, polls };
    };
    // Poll 1 comes before encoding; the next ones after each line (and within lines, see sat-stop-in-long-line.test.ts).
    let encodingPolls = 0;
    encodeNonogramFlat(puzzle, { known: new Uint8Array(60 * 60), shouldStop: () => (encodingPolls++, false) });
    expect(encodingPolls).toBeGreaterThanOrEqual(120);
    const inEncoding = pollsUntil(2);
    expect(inEncoding.r.status).toBe('timeout');
    expect(inEncoding.r.metrics.extra.variables).toBeUndefined();
    const inLoading = pollsUntil(2 + encodingPolls);
    expect(inLoading.r.status).toBe('timeout');
    expect(inLoading.r.metrics.extra.clauses).toBeGreaterThan(16_384);
    expect(inLoading.r.metrics.deadEnds + inLoading.r.metrics.decisions).toBe(0);
  });
});

describe('sat strategy on the bundled puzzles', () => {
  const files = listPuzzleFiles(BUNDLED_CORPUS).filter(
    (f) => f.endsWith('.non') && !f.includes(join('puzzles', 'generated')) && readFileSync(f, 'utf8').includes('goal'),
  );

  it('finds bundled .non puzzles with a goal', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('proves each hand-made puzzle with a goal unique and equal to its goal', () => {
    for (const file of files) {
      for (const puzzle of loadPuzzles(file)) {
        if (!puzzle.goal) continue;
        const r = sat.solve(puzzle, solveOptions());
        expectSound(puzzle, r.solutions);
        expect(isSolution(puzzle, puzzle.goal)).toBe(true);
        expect({ file, status: r.status }).toEqual({ file, status: 'unique' });
        expect(r.solutions[0]).toEqual(puzzle.goal);
      }
    }
  });
});
