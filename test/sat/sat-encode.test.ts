import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EMPTY, FILLED, UNKNOWN, makePuzzle } from '../../corpus/model.js';
import { cluesOf, isSolution } from '../../corpus/grid.js';
import { SatSolver } from '../../solvers/sat/engine/solver.js';
import { solveLineOverlap } from '../../solvers/line/overlap.js';
import { blockingClause, cellVariable, decodeGrid, encodeLineCnf, encodeNonogram, ENCODINGS, type EncodingName } from '../../solvers/sat/encodings/encode.js';

/** Block lengths of the line spelt by the low n bits of mask (bit i = cell i filled). */
function runsOfMask(mask: number, n: number): number[] {
  const runs: number[] = [];
  let run = 0;
  for (let i = 0; i < n; i++) {
    if ((mask >> i) & 1) run++;
    else if (run > 0) {
      runs.push(run);
      run = 0;
    }
  }
  if (run > 0) runs.push(run);
  return runs;
}

/** Every filling of the line that has the clue and agrees with the known cells. */
function fillings(clue: number[], n: number, known: number[]): number[] {
  const out: number[] = [];
  for (let mask = 0; mask < 1 << n; mask++) {
    const r = runsOfMask(mask, n);
    if (r.length !== clue.length || r.some((b, i) => b !== clue[i])) continue;
    if (known.some((code, i) => code !== UNKNOWN && (code === FILLED) !== (((mask >> i) & 1) === 1))) continue;
    out.push(mask);
  }
  return out;
}

/** A line case: length, a clue (often feasible: taken from a random picture), known cells. */
const lineCase = fc
  .integer({ min: 1, max: 11 })
  .chain((n) =>
    fc.record({
      n: fc.constant(n),
      picture: fc.integer({ min: 0, max: (1 << n) - 1 }),
      otherClue: fc.array(fc.integer({ min: 1, max: n }), { maxLength: 4 }),
      useOther: fc.boolean(),
      known: fc.array(fc.constantFrom(UNKNOWN, UNKNOWN, FILLED, EMPTY), { minLength: n, maxLength: n }),
    }),
  )
  .map(({ n, picture, otherClue, useOther, known }) => ({
    n,
    clue: useOther ? otherClue : runsOfMask(picture, n),
    known,
  }));

/** Runs unit propagation (at level 0) over the line CNF plus units for the known cells. */
function propagateLine(clue: number[], n: number, known: number[], pruneInEncoder: boolean, encoding: EncodingName): SatSolver | null {
  const cnf = encodeLineCnf(clue, n, pruneInEncoder ? known : undefined, encoding);
  const s = new SatSolver(cnf.numVars);
  for (const c of cnf.clauses) if (!s.addClause(c)) return null;
  for (let i = 0; i < n; i++) {
    if (known[i] === UNKNOWN) continue;
    if (!s.addClause([known[i] === FILLED ? i + 1 : -(i + 1)])) return null;
  }
  return s;
}

/** What each cell must be over all fillings: true, false, or undefined when they disagree. */
function forcedValues(all: number[], n: number): (boolean | undefined)[] {
  return Array.from({ length: n }, (_, i) => {
    const ones = all.filter((m) => (m >> i) & 1).length;
    return ones === all.length ? true : ones === 0 ? false : undefined;
  });
}

describe('line encoding: automaton', () => {
  for (const prune of [false, true]) {
    it(`unit propagation decides exactly the cells an exact line solver decides (${prune ? 'pruned by known cells' : 'known cells as units'})`, () => {
      fc.assert(
        fc.property(lineCase, ({ n, clue, known }) => {
          const all = fillings(clue, n, known);
          const s = propagateLine(clue, n, known, prune, 'automaton');
          expect(s === null).toBe(all.length === 0);
          if (!s) return;
          const forced = forcedValues(all, n);
          for (let i = 0; i < n; i++) expect(s.fixedValue(i + 1)).toBe(forced[i]);
        }),
        { numRuns: 800 },
      );
    });
  }
});

describe('line encoding: blocks', () => {
  it('unit propagation is sound, and decides at least what the overlap rules decide', () => {
    fc.assert(
      fc.property(lineCase, fc.boolean(), ({ n, clue, known }, prune) => {
        const all = fillings(clue, n, known);
        const s = propagateLine(clue, n, known, prune, 'blocks');
        const overlap = solveLineOverlap(clue, Uint8Array.from(known));
        if (all.length === 0) {
          if (overlap === null) expect(s).toBeNull(); // an impossibility the overlap rules see
          if (prune) expect(s).toBeNull(); // pruning uses the exact placements
          return;
        }
        expect(s).not.toBeNull();
        expect(overlap).not.toBeNull();
        const forced = forcedValues(all, n);
        for (let i = 0; i < n; i++) {
          const value = s!.fixedValue(i + 1);
          if (value !== undefined) expect(value).toBe(forced[i]);
          if (overlap![i] !== UNKNOWN) expect(value).toBe(overlap![i] === FILLED);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('gives a block variables only for the starts that placements fitting the known cells use', () => {
    // Clue 2 in 6 cells with cell 3 filled: block 0 starts at 2 or 3, so one variable, s ≥ 3.
    const cnf = encodeLineCnf([2], 6, [UNKNOWN, UNKNOWN, UNKNOWN, FILLED, UNKNOWN, UNKNOWN], 'blocks');
    expect(cnf.numVars).toBe(7);
  });
});

for (const encoding of ENCODINGS) {
  describe(`line encoding: ${encoding}`, () => {
    it('has one model per filling of the line', () => {
      fc.assert(
        fc.property(lineCase, ({ n, clue, known }) => {
          const cnf = encodeLineCnf(clue, n, known, encoding);
          const s = new SatSolver(cnf.numVars);
          cnf.clauses.forEach((c) => s.addClause(c));
          const seen = new Set<number>();
          while (s.solve() === 'sat') {
            let mask = 0;
            for (let i = 0; i < n; i++) if (s.value(i + 1)) mask |= 1 << i;
            expect(seen.has(mask)).toBe(false);
            seen.add(mask);
            // Exclude the whole model, auxiliary variables included: a second model of the same filling would show up.
            if (!s.addClause(Array.from({ length: cnf.numVars }, (_, v) => (s.value(v + 1) ? -(v + 1) : v + 1)))) break;
          }
          expect([...seen].sort((a, b) => a - b)).toEqual(fillings(clue, n, known));
        }),
        { numRuns: 300 },
      );
    });

    it('needs no variables for a line that is fully determined, and an empty clause for an impossible one', () => {
      const full = encodeLineCnf([5], 5, undefined, encoding);
      expect(full.numVars).toBe(5);
      expect(full.clauses).toEqual([[1], [2], [3], [4], [5]]);
      const empty = encodeLineCnf([], 3, undefined, encoding);
      expect(empty.numVars).toBe(3);
      expect(empty.clauses).toEqual([[-1], [-2], [-3]]);
      expect(encodeLineCnf([2, 2], 4, undefined, encoding).clauses).toContainEqual([]);
      expect(encodeLineCnf([2], 3, [EMPTY, FILLED, EMPTY], encoding).clauses).toContainEqual([]);
    });
  });
}

describe('puzzle encoding', () => {
  const pictures = fc
    .record({ w: fc.integer({ min: 1, max: 7 }), h: fc.integer({ min: 1, max: 7 }) })
    .chain(({ w, h }) =>
      fc.record({
        w: fc.constant(w),
        h: fc.constant(h),
        cells: fc.array(fc.boolean(), { minLength: w * h, maxLength: w * h }),
      }),
    );

  it('numbers cell (r, c) as r·width + c + 1 and decodes models into solutions, in both encodings', () => {
    fc.assert(
      fc.property(pictures, fc.constantFrom(...ENCODINGS), ({ w, h, cells }, encoding) => {
        const picture = Uint8Array.from(cells, (b) => (b ? FILLED : EMPTY));
        const { rows, columns } = cluesOf(picture, w, h);
        const puzzle = makePuzzle(rows, columns);
        const cnf = encodeNonogram(puzzle, { encoding });
        expect(cnf.cellVars).toBe(w * h);
        expect(cellVariable(w, h - 1, w - 1)).toBe(w * h);
        for (const c of cnf.clauses) for (const l of c) expect(Math.abs(l)).toBeLessThanOrEqual(cnf.numVars);
        const s = new SatSolver(cnf.numVars);
        cnf.clauses.forEach((c) => s.addClause(c));
        expect(s.solve()).toBe('sat');
        const grid = decodeGrid(puzzle, (v) => s.value(v));
        expect(isSolution(puzzle, grid)).toBe(true);
        // The picture itself satisfies the cell units of the encoding with known = picture.
        const fixed = encodeNonogram(puzzle, { known: picture, encoding });
        const t = new SatSolver(fixed.numVars);
        expect(fixed.clauses.every((c) => t.addClause(c))).toBe(true);
        expect(t.solve()).toBe('sat');
        expect(decodeGrid(puzzle, (v) => t.value(v))).toEqual(picture);
        expect(blockingClause(picture, picture)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('states a cell that two lines force once', () => {
    for (const encoding of ENCODINGS) expect(encodeNonogram(makePuzzle([[1]], [[1]]), { encoding }).clauses).toEqual([[1]]);
  });

  it('blocking clauses name every unknown cell against its value', () => {
    const solution = Uint8Array.of(FILLED, EMPTY, FILLED, EMPTY);
    expect(blockingClause(solution)).toEqual([-1, 2, -3, 4]);
    expect(blockingClause(solution, Uint8Array.of(FILLED, UNKNOWN, UNKNOWN, EMPTY))).toEqual([2, -3]);
  });
});
