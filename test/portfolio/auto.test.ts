import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cluesOf, isSolution } from '../../corpus/grid.js';
import { EMPTY, FILLED, makePuzzle, type Grid, type Puzzle } from '../../corpus/model.js';
import { createRng, probabilityThreshold } from '../../corpus/random.js';
import { solveOptions, type SolveResult } from '../../solvers/api/types.js';
import { Portfolio, PHASES } from '../../solvers/portfolio/portfolio.js';
import { clueSymmetries, mapGrid } from '../../solvers/symmetry/symmetry.js';
import { BACKTRACK_SETTINGS, PROBE_SETTINGS } from '../../solvers/search/settings.js';
import { PuzzleSat } from '../../solvers/sat/puzzle/puzzle-sat.js';
import { autoStrategy } from '../../solvers/strategies/auto.js';
import { sat } from '../../solvers/strategies/sat.js';
import { loadPuzzle } from '../../corpus/load.js';
import { BUNDLED_CORPUS } from '../../corpus/paths.js';
import { join } from 'node:path';
import { bruteForceSolutions } from '../helpers/brute-force.js';

/**
 * Small puzzles of every kind: a random picture's clues (one solution or several), its rows with a
 * second picture's columns (often none), or a picture made symmetric (mirror, rotation, transpose).
 */
const smallPuzzle = fc
  .record({
    w: fc.integer({ min: 1, max: 7 }),
    h: fc.integer({ min: 1, max: 7 }),
    density: fc.constantFrom(0.3, 0.5, 0.7),
    seed: fc.nat(),
    kind: fc.constantFrom('picture', 'mixed', 'symmetric'),
  })
  .map(({ w, h, density, seed, kind }) => {
    const rng = createRng(seed);
    const threshold = probabilityThreshold(density);
    const picture = (width: number, height: number) => Uint8Array.from({ length: width * height }, () => (rng.chance(threshold) ? FILLED : EMPTY));
    if (kind === 'symmetric') {
      // Each cell and its image under a 180° rotation, a mirror or a transpose share a value.
      const n = Math.max(w, h);
      const grid = picture(n, n);
      const map = [(r: number, c: number) => (n - 1 - r) * n + (n - 1 - c), (r: number, c: number) => r * n + (n - 1 - c), (r: number, c: number) => c * n + r][seed % 3]!;
      for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) grid[map(r, c)] = grid[r * n + c]!;
      const { rows, columns } = cluesOf(grid, n, n);
      return makePuzzle(rows, columns);
    }
    const first = cluesOf(picture(w, h), w, h);
    return makePuzzle(first.rows, kind === 'mixed' ? cluesOf(picture(w, h), w, h).columns : first.columns);
  });

const key = (g: Grid) => Array.from(g).join('');

/** The result agrees with a brute-force enumeration: status, count and every solution. */
function expectAgrees(puzzle: Puzzle, result: SolveResult, maxSolutions: number): void {
  const all = bruteForceSolutions(puzzle, 3);
  const expected = Math.min(all.length, maxSolutions);
  expect(result.solutions).toHaveLength(expected);
  const keys = new Set(all.map(key));
  for (const s of result.solutions) {
    expect(isSolution(puzzle, s)).toBe(true);
    if (all.length < 3) expect(keys.has(key(s))).toBe(true);
  }
  expect(new Set(result.solutions.map(key)).size).toBe(result.solutions.length);
  const status = all.length === 0 ? 'contradiction' : all.length >= 2 && maxSolutions >= 2 ? 'multiple' : maxSolutions === 1 ? 'solved' : 'unique';
  expect(result.status).toBe(status);
  if (result.solutions.length > 0) expect(result.grid).toEqual(result.solutions[0]);
}

describe('auto, the portfolio strategy', () => {
  it('agrees with brute force on status and solutions, on every kind of small puzzle', () => {
    fc.assert(
      fc.property(smallPuzzle, fc.constantFrom(1, 2), (puzzle, maxSolutions) => {
        expectAgrees(puzzle, autoStrategy.solve(puzzle, solveOptions({ maxSolutions })), maxSolutions);
      }),
      { numRuns: 400 },
    );
  });

  it('stays exact when the phases take many short turns (SAT solutions, fixed cells and images shared with the search)', () => {
    // A first search run of one decision hands most puzzles over to turns of CDCL and search.
    const settings = (search: typeof BACKTRACK_SETTINGS, satShare: number, lines: boolean) => ({
      search: { ...search, restartBudget: 1 },
      satShare,
      symmetry: true,
      encoding: 'blocks' as const,
      lines,
    });
    let satTurns = 0;
    let mirrored = 0;
    fc.assert(
      fc.property(smallPuzzle, fc.constantFrom(1, 2, 3), fc.constantFrom(1, 3), fc.boolean(), (puzzle, maxSolutions, satShare, lines) => {
        const search = satShare === 1 ? PROBE_SETTINGS : BACKTRACK_SETTINGS;
        const result = new Portfolio(puzzle, solveOptions({ maxSolutions }), settings(search, satShare, lines)).run();
        if (result.metrics.extra.satConflicts !== undefined) satTurns++;
        if (result.metrics.extra.mirroredSolutions! > 0) mirrored++;
        expectAgrees(puzzle, result, maxSolutions);
      }),
      { numRuns: 400 },
    );
    expect(satTurns).toBeGreaterThan(20);
    expect(mirrored).toBeGreaterThan(5);
  });

  it('gives the search the cells clause learning fixed for good, and still agrees with sat (random 30×30)', () => {
    // Short turns on puzzles whose search stalls long enough for clause learning to fix cells (which
    // of them does depends on the path of the SAT search, so there are two).
    const settings = { search: { ...PROBE_SETTINGS, restartBudget: 1 }, satShare: 1, symmetry: false, encoding: 'blocks' as const, lines: false };
    let shared = 0;
    for (const name of ['020.non', '029.non']) {
      const puzzle = loadPuzzle(join(BUNDLED_CORPUS, 'generated', '30x30', name));
      const result = new Portfolio(puzzle, solveOptions(), settings).run();
      shared += result.metrics.extra.sharedCells!;
      expect(result.status).toBe(sat.solve(puzzle, solveOptions()).status);
      for (const s of result.solutions) expect(isSolution(puzzle, s)).toBe(true);
    }
    expect(shared).toBeGreaterThan(0);
  });

  it("runs probe's search with clause learning given 8 times its work by default, and what the params name", () => {
    const portfolio = (puzzle: Puzzle, search: typeof PROBE_SETTINGS, satShare: number) =>
      new Portfolio(puzzle, solveOptions(), { search, satShare, symmetry: true, encoding: 'blocks', lines: false }).run().metrics;
    let differ = 0;
    for (const name of ['020.non', '029.non', '046.non']) {
      const puzzle = loadPuzzle(join(BUNDLED_CORPUS, 'generated', '30x30', name));
      const byDefault = autoStrategy.solve(puzzle, solveOptions()).metrics;
      const asBefore = autoStrategy.solve(puzzle, solveOptions({ params: { search: 'backtrack', satShare: '2' } })).metrics;
      expect(byDefault).toEqual(portfolio(puzzle, PROBE_SETTINGS, 8));
      expect(asBefore).toEqual(portfolio(puzzle, BACKTRACK_SETTINGS, 2));
      if (JSON.stringify(byDefault) !== JSON.stringify(asBefore)) differ++;
    }
    expect(differ).toBeGreaterThan(0); // the two settings are told apart on these puzzles
  });

  it('reports the solutions it found when the limit fires', () => {
    // Every row and column holds one cell: the 8! permutation matrices.
    const ones = Array.from({ length: 8 }, () => [1]);
    const puzzle = makePuzzle(ones, ones);
    let polls = 0;
    const result = autoStrategy.solve(puzzle, solveOptions({ maxSolutions: 100_000, shouldStop: () => ++polls > 200 }));
    expect(result.status).toBe('timeout');
    expect(result.solutions.length).toBeGreaterThan(1);
    expect(result.grid).toEqual(result.solutions[0]);
    for (const s of result.solutions) expect(isSolution(puzzle, s)).toBe(true);
    expect(new Set(result.solutions.map(key)).size).toBe(result.solutions.length);
  });

  it('counts the contradictions of every phase as dead ends, and names the phase that settled the puzzle', () => {
    // Line logic alone: a full row and column.
    const lineOnly = autoStrategy.solve(makePuzzle([[2], [2]], [[2], [2]]), solveOptions());
    expect(lineOnly.status).toBe('unique');
    expect(lineOnly.metrics.extra.lastPhase).toBe(PHASES.line);
    expect(lineOnly.metrics.deadEnds).toBe(0);
    // Two diagonals: nothing is forced, so a search finds both.
    const diagonals = autoStrategy.solve(makePuzzle([[1], [1]], [[1], [1]]), solveOptions());
    expect(diagonals.status).toBe('multiple');
    expect(diagonals.metrics.extra.lastPhase).toBeGreaterThanOrEqual(PHASES.search);
    const m = diagonals.metrics;
    expect(m.deadEnds).toBe((m.extra.probeContradictions ?? 0) + (m.extra.searchDeadEnds ?? 0) + (m.extra.satConflicts ?? 0));
  });

  it('honours the search settings\' line cache: without it none is hit, and the answer stands', () => {
    const puzzle = loadPuzzle('corpus/puzzles/generated/30x30/087.non');
    const run = (cache: boolean) =>
      new Portfolio(puzzle, solveOptions({ maxSolutions: 2 }), { search: { ...BACKTRACK_SETTINGS, cache }, satShare: 2, symmetry: true, encoding: 'blocks', lines: false }).run();
    const cached = run(true);
    const uncached = run(false);
    expect(cached.metrics.extra.cacheHits).toBeGreaterThan(0);
    expect(uncached.metrics.extra.cacheHits).toBe(0);
    // Turn sizes follow the counters, so the two may find different solutions of this puzzle.
    expect(uncached.status).toBe(cached.status);
    expect(uncached.solutions).toHaveLength(cached.solutions.length);
    for (const s of uncached.solutions) expect(isSolution(puzzle, s)).toBe(true);
  });

  it('gives a solution of a symmetric puzzle its images as further solutions', () => {
    // Clues [1] on every line of a 4×4 grid (the 24 permutation matrices): symmetric under all
    // seven maps. A one-decision first run hands over to clause learning, whose first solution
    // brings a different image as the second.
    const lines = [[1], [1], [1], [1]];
    const puzzle = makePuzzle(lines, lines);
    expect(clueSymmetries(puzzle)).toHaveLength(7);
    const run = (symmetry: boolean) =>
      new Portfolio(puzzle, solveOptions({ maxSolutions: 2 }), { search: { ...BACKTRACK_SETTINGS, restartBudget: 1 }, satShare: 1, symmetry, encoding: 'blocks', lines: false }).run();
    const mirrored = run(true);
    expect(mirrored.status).toBe('multiple');
    expect(mirrored.metrics.extra.lastPhase).toBe(PHASES.sat);
    expect(mirrored.metrics.extra.mirroredSolutions).toBe(1);
    expect(new Set(mirrored.solutions.map(key)).size).toBe(2);
    for (const s of mirrored.solutions) expect(isSolution(puzzle, s)).toBe(true);
    const plain = run(false);
    expect(plain.status).toBe('multiple');
    expect(plain.metrics.extra.mirroredSolutions).toBe(0);
  });
});

describe('sat with the clues\' symmetries', () => {
  it('agrees with brute force on symmetric and other small puzzles, up to 3 solutions', () => {
    let mirrored = 0;
    fc.assert(
      fc.property(smallPuzzle, fc.constantFrom(1, 2, 3), (puzzle, maxSolutions) => {
        const result = sat.solve(puzzle, solveOptions({ maxSolutions }));
        expectAgrees(puzzle, result, maxSolutions);
        if (result.metrics.extra.mirroredSolutions! > 0) mirrored++;
      }),
      { numRuns: 300 },
    );
    expect(mirrored).toBeGreaterThan(5);
  });
});

describe('PuzzleSat, a puzzle as an incremental SAT problem', () => {
  it('lists every solution once, symmetric ones first when given the symmetries, with or without the line propagator (brute force)', () => {
    fc.assert(
      fc.property(smallPuzzle, fc.boolean(), fc.boolean(), (puzzle, useSymmetry, lines) => {
        const symmetries = useSymmetry ? clueSymmetries(puzzle) : [];
        const sat = PuzzleSat.load(puzzle, {
          known: new Uint8Array(puzzle.width * puzzle.height),
          encoding: 'blocks',
          cellDecisions: false,
          lines,
          shouldStop: () => false,
          symmetric: symmetries.map((s) => s.image),
        })!;
        const found: Grid[] = [];
        while (found.length < 30 && sat.next(7) !== 'none') {
          if (sat.solution) {
            found.push(sat.solution);
            sat.exclude(sat.solution);
          }
        }
        for (const s of found) expect(isSolution(puzzle, s)).toBe(true);
        expect(new Set(found.map(key)).size).toBe(found.length);
        const all = bruteForceSolutions(puzzle, 30);
        if (all.length === 30) return; // too many to compare whole
        expect(found.map(key).sort()).toEqual(all.map(key).sort());
        // The symmetric solutions come first.
        const isSymmetric = (g: Grid) => symmetries.every((s) => key(mapGrid(g, s)) === key(g));
        const symmetricCount = all.filter(isSymmetric).length;
        for (let i = 0; i < symmetricCount; i++) expect(isSymmetric(found[i]!)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
