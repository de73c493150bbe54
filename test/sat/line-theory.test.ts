import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cluesOf } from '../../corpus/grid.js';
import { EMPTY, FILLED, UNKNOWN, makePuzzle, type Puzzle } from '../../corpus/model.js';
import { createRng, probabilityThreshold } from '../../corpus/random.js';
import { ExactLineSolver } from '../../solvers/line/exact.js';
import { MULTI_MAX } from '../../solvers/line/exact-multi.js';
import { lineClue } from '../../solvers/line/line-solver.js';
import { encodeNonogramFlat } from '../../solvers/sat/encodings/encode.js';
import { SatSolver } from '../../solvers/sat/engine/solver.js';
import type { TheoryHost } from '../../solvers/sat/engine/theory.js';
import { LineTheory } from '../../solvers/sat/puzzle/line-theory.js';

/** The cells of line `index` (rows, then columns). */
function lineCells(p: Puzzle, index: number): number[] {
  return index < p.height
    ? Array.from({ length: p.width }, (_, c) => index * p.width + c)
    : Array.from({ length: p.height }, (_, r) => r * p.width + index - p.height);
}

/** Whether every placement of the line's clue satisfies the clause (DIMACS literals over its cells). */
function impliedByLine(p: Puzzle, index: number, clause: number[]): boolean {
  const cells = lineCells(p, index);
  const clue = [...(index < p.height ? p.rows[index]! : p.columns[index - p.height]!)].filter((b) => b > 0);
  const n = cells.length;
  const check = (fill: boolean[]) => clause.some((l) => fill[cells.indexOf(Math.abs(l) - 1)] === l > 0);
  // Every placement, block by block.
  const place = (j: number, from: number, fill: boolean[]): boolean => {
    if (j === clue.length) return check(fill);
    for (let s = from; s + clue[j]! <= n; s++) {
      const next = fill.slice();
      for (let i = s; i < s + clue[j]!; i++) next[i] = true;
      if (!place(j + 1, s + clue[j]! + 1, next)) return false;
    }
    return true;
  };
  return place(0, 0, new Array<boolean>(n).fill(false));
}

/** The table form of the line solver, independent of the bit-parallel forms the propagator uses. */
const tableSolver = new ExactLineSolver({ bitParallel: false });

/**
 * The same question for long lines, where placements are too many to list: the clause holds on
 * every placement exactly when the line with all its literals false has none.
 */
function impliedByLongLine(p: Puzzle, index: number, clause: number[]): boolean {
  const cells = lineCells(p, index);
  const line = new Uint8Array(cells.length);
  for (const l of clause) line[cells.indexOf(Math.abs(l) - 1)] = l > 0 ? EMPTY : FILLED;
  return !tableSolver.solve(lineClue(index < p.height ? p.rows[index]! : p.columns[index - p.height]!), line, line.length);
}

const randomPuzzle = (widths: fc.Arbitrary<number>, heights: fc.Arbitrary<number>) =>
  fc.record({ w: widths, h: heights, seed: fc.nat() }).map(({ w, h, seed }) => {
    const rng = createRng(seed);
    const threshold = probabilityThreshold(0.55);
    const clues = cluesOf(Uint8Array.from({ length: w * h }, () => (rng.chance(threshold) ? FILLED : EMPTY)), w, h);
    return makePuzzle(clues.rows, clues.columns);
  });

const smallPuzzle = randomPuzzle(fc.integer({ min: 6, max: 15 }), fc.integer({ min: 6, max: 15 }));
/** Rows of one mask word, of two (31 to 61 cells), and of several words (up to MULTI_MAX cells). */
const widePuzzle = randomPuzzle(fc.oneof(fc.integer({ min: 20, max: 30 }), fc.integer({ min: 31, max: 61 }), fc.integer({ min: 62, max: 100 })), fc.integer({ min: 8, max: 14 }));
/** Rows longer than bit sets hold. */
const longestPuzzle = randomPuzzle(fc.integer({ min: MULTI_MAX + 1, max: MULTI_MAX + 6 }), fc.integer({ min: 5, max: 8 }));

describe('the line propagator inside the CDCL search', () => {
  /** Checks the property on `numRuns` puzzles; returns the lengths of the lines whose explanations it checked. */
  const explainsAndReachesFixpoints = (puzzles: fc.Arbitrary<Puzzle>, implied: typeof impliedByLine, numRuns: number): Set<number> => {
    const explainedLengths = new Set<number>();
    let explained = 0;
    let decisions = 0;
    fc.assert(
      fc.property(puzzles, (puzzle) => {
        const cnf = encodeNonogramFlat(puzzle, {})!;
        const engine = new SatSolver(cnf.numVars);
        for (let i = 0; i < cnf.clauses.count; i++) engine.addClauseSlice(cnf.clauses.lits, cnf.clauses.start(i), cnf.clauses.ends[i]!);
        const theory = new LineTheory(puzzle);
        const lines = puzzle.width + puzzle.height;
        const solver = new ExactLineSolver();
        // A host that checks each explanation against the clue of the line it is about.
        let quiet = true;
        const checked = (host: TheoryHost): TheoryHost => ({
          value: (v) => host.value(v),
          explain: (lits, size) => {
            quiet = false;
            explained++;
            const clause = Array.from(lits.subarray(0, size));
            // The contract the engine trusts: every literal but the first is false.
            for (const l of clause.slice(1)) expect(host.value(Math.abs(l)) * Math.sign(l)).toBe(-1);
            const cells = clause.map((l) => Math.abs(l) - 1);
            const rows = new Set(cells.map((c) => Math.floor(c / puzzle.width)));
            const columns = new Set(cells.map((c) => c % puzzle.width));
            const owners = [...(rows.size === 1 ? [[...rows][0]!] : []), ...(columns.size === 1 ? [puzzle.height + [...columns][0]!] : [])];
            const owner = owners.find((index) => implied(puzzle, index, clause));
            expect(owner).toBeDefined();
            explainedLengths.add(lineCells(puzzle, owner!).length);
            return host.explain(lits, size);
          },
        });
        engine.setTheory({
          assigned: (v) => theory.assigned(v),
          propagate: (host) => {
            quiet = true;
            if (!theory.propagate(checked(host))) return false;
            if (!quiet) return true; // the engine propagates what it was given, then asks again
            // Nothing more to deduce: the search decides next, so every line must be at its fixpoint.
            decisions++;
            for (let index = 0; index < lines; index++) {
              const cells = lineCells(puzzle, index);
              const line = Uint8Array.from(cells, (c) => (host.value(c + 1) === 1 ? FILLED : host.value(c + 1) === -1 ? EMPTY : UNKNOWN));
              const before = line.slice();
              const clue = lineClue(index < puzzle.height ? puzzle.rows[index]! : puzzle.columns[index - puzzle.height]!);
              if (!solver.solve(clue, line, line.length)) return true; // unit propagation on the CNF may meet it first
              expect([...line]).toEqual([...before]);
            }
            return true;
          },
        });
        let found = 0;
        while (found < 3 && engine.solve() === 'sat') {
          found++;
          const cells = puzzle.width * puzzle.height;
          if (!engine.addClause(Array.from({ length: cells }, (_, i) => (engine.value(i + 1) ? -(i + 1) : i + 1)))) break;
        }
      }),
      { numRuns },
    );
    expect(explained).toBeGreaterThan(10);
    expect(decisions).toBeGreaterThan(50);
    return explainedLengths;
  };

  it('explains with clauses its line implies, and leaves every line at the line solver’s fixpoint before each decision', () => {
    explainsAndReachesFixpoints(smallPuzzle, impliedByLine, 200);
  });

  it('does so on rows of one and two mask words and of several words', () => {
    const lengths = [...explainsAndReachesFixpoints(widePuzzle, impliedByLongLine, 80)];
    expect(lengths.some((n) => n > 30 && n <= ExactLineSolver.MASK_MAX)).toBe(true);
    expect(lengths.some((n) => n > ExactLineSolver.MASK_MAX && n <= MULTI_MAX)).toBe(true);
  });

  it('and on rows longer than bit sets hold', () => {
    const lengths = [...explainsAndReachesFixpoints(longestPuzzle, impliedByLongLine, 12)];
    expect(lengths.some((n) => n > MULTI_MAX)).toBe(true);
  });

  it('reports a line its assigned cells rule out with a conflict clause of those it needs, all false', () => {
    fc.assert(
      fc.property(smallPuzzle, fc.nat(), (puzzle, seed) => {
        // Assign random cells of one line, one by one, until the line solver finds it impossible.
        const rng = createRng(seed);
        const index = rng.nextBelow(puzzle.width + puzzle.height);
        const cells = lineCells(puzzle, index);
        const clue = lineClue(index < puzzle.height ? puzzle.rows[index]! : puzzle.columns[index - puzzle.height]!);
        const values = new Map<number, number>();
        const line = new Uint8Array(cells.length);
        const solver = new ExactLineSolver();
        for (const i of Array.from(cells.keys()).sort(() => (rng.chance(probabilityThreshold(0.5)) ? 1 : -1))) {
          line[i] = rng.chance(probabilityThreshold(0.5)) ? FILLED : EMPTY;
          values.set(cells[i]! + 1, line[i] === FILLED ? 1 : -1);
          if (!solver.solve(clue, line.slice(), line.length)) break;
        }
        // A full line is left to the CNF's unit propagation.
        fc.pre(!solver.solve(clue, line.slice(), line.length) && values.size < cells.length);
        const theory = new LineTheory(puzzle);
        for (const v of values.keys()) theory.assigned(v);
        let conflict: number[] | undefined;
        const host: TheoryHost = {
          value: (v) => values.get(v) ?? 0,
          explain: (lits, size) => {
            const clause = Array.from(lits.subarray(0, size));
            if (clause.every((l) => (values.get(Math.abs(l)) ?? 0) * Math.sign(l) === -1)) {
              conflict = clause;
              return false;
            }
            return true; // a deduction of a crossing line, taken as given
          },
        };
        expect(theory.propagate(host)).toBe(false);
        // The conflict may come from a crossing line that one of these cells rules out.
        const owners = Array.from({ length: puzzle.width + puzzle.height }, (_, k) => k).filter((k) =>
          conflict!.every((l) => lineCells(puzzle, k).includes(Math.abs(l) - 1)),
        );
        expect(owners.some((k) => impliedByLine(puzzle, k, conflict!))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
