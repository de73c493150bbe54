import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EMPTY, FILLED, UNKNOWN } from '../../corpus/model.js';
import { runsOf } from '../../corpus/grid.js';
import { ExactLineSolver, solveLineExact } from '../../solvers/line/exact.js';
import { MULTI_MAX, MultiWordLines, setWords } from '../../solvers/line/exact-multi.js';
import { OverlapLineSolver, leftmostPlacement, solveLineOverlap } from '../../solvers/line/overlap.js';
import { lineClue } from '../../solvers/line/line-solver.js';

/** Every placement (block start positions) of the clue in n cells. */
function allPlacements(clue: number[], n: number): number[][] {
  const out: number[][] = [];
  const starts: number[] = [];
  const place = (j: number, from: number): void => {
    if (j === clue.length) {
      out.push([...starts]);
      return;
    }
    let rest = 0;
    for (let t = j; t < clue.length; t++) rest += clue[t]! + (t > j ? 1 : 0);
    for (let s = from; s + rest <= n; s++) {
      starts.push(s);
      place(j + 1, s + clue[j]! + 1);
      starts.pop();
    }
  };
  place(0, 0);
  return out;
}

function cellsOf(clue: number[], starts: number[], n: number): number[] {
  const cells = new Array<number>(n).fill(EMPTY);
  starts.forEach((s, j) => cells.fill(FILLED, s, s + clue[j]!));
  return cells;
}

/** Consistent placements of a line, by brute force. */
function consistent(clue: number[], line: number[]): number[][] {
  return allPlacements(clue, line.length).filter((starts) =>
    cellsOf(clue, starts, line.length).every((v, i) => line[i] === UNKNOWN || line[i] === v),
  );
}

/** What all consistent placements agree on, or null when there is none. */
function bruteForce(clue: number[], line: number[]): number[] | null {
  const fits = consistent(clue, line);
  if (fits.length === 0) return null;
  const lines = fits.map((s) => cellsOf(clue, s, line.length));
  return line.map((_, i) => (lines.every((l) => l[i] === lines[0]![i]) ? lines[0]![i]! : UNKNOWN));
}

const cellCode = fc.constantFrom(UNKNOWN, FILLED, EMPTY);

/** A line with a real placement behind it: clue from a full line, some of its cells revealed. */
const solvableLine = fc
  .integer({ min: 0, max: 20 })
  .chain((n) =>
    fc.tuple(fc.array(fc.boolean(), { minLength: n, maxLength: n }), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: n, maxLength: n }), fc.double({ min: 0, max: 1, noNaN: true })),
  )
  .map(([picture, coins, reveal]) => {
    const full = picture.map((f) => (f ? FILLED : EMPTY));
    const clue = runsOf(full, 0, 1, full.length);
    const line = full.map((v, i) => (coins[i]! < reveal ? v : UNKNOWN));
    return { clue, line };
  });

/** A random clue (lengths 1..6) and random cell states: often impossible. */
const randomLine = fc
  .integer({ min: 0, max: 20 })
  .chain((n) =>
    fc.record({
      clue: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 6 }),
      line: fc.array(fc.oneof({ weight: 3, arbitrary: fc.constant(UNKNOWN) }, { weight: 1, arbitrary: cellCode }), { minLength: n, maxLength: n }),
    }),
  );

const anyLine = fc.oneof(solvableLine, randomLine);

describe('exact line solver', () => {
  it('agrees with a brute force over all placements', () => {
    fc.assert(
      fc.property(anyLine, ({ clue, line }) => {
        const expected = bruteForce(clue, line);
        const got = solveLineExact(clue, line);
        expect(got === null ? null : [...got]).toEqual(expected);
      }),
      { numRuns: 4000 },
    );
  });

  it('finds solvable lines solvable', () => {
    fc.assert(
      fc.property(solvableLine, ({ clue, line }) => {
        expect(solveLineExact(clue, line)).not.toBeNull();
      }),
      { numRuns: 1000 },
    );
  });

  it('gives the same answers in its table form (used for lines over 30 cells)', () => {
    const tables = new ExactLineSolver({ bitParallel: false });
    fc.assert(
      fc.property(anyLine, ({ clue, line }) => {
        const cells = Uint8Array.from(line);
        const ok = tables.solve(lineClue(clue), cells, cells.length);
        const expected = bruteForce(clue, line);
        expect(ok ? [...cells] : null).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with its table form on long lines (25 to 260 cells: one word, two words, several words, tables)', () => {
    const bits = new ExactLineSolver();
    const tables = new ExactLineSolver({ bitParallel: false });
    const longLine = fc.oneof(fc.integer({ min: 25, max: 70 }), fc.integer({ min: 120, max: 130 }), fc.integer({ min: 60, max: 260 })).chain((n) =>
      fc.tuple(
        fc.array(fc.boolean(), { minLength: n, maxLength: n }),
        fc.array(fc.constantFrom(UNKNOWN, UNKNOWN, UNKNOWN, FILLED, EMPTY, -1), { minLength: n, maxLength: n }),
      ),
    );
    fc.assert(
      fc.property(longLine, ([picture, mask]) => {
        const full = picture.map((f) => (f ? FILLED : EMPTY));
        const clue = lineClue(runsOf(full, 0, 1, full.length));
        // -1 reveals the true cell; FILLED / EMPTY put a possibly wrong value.
        const line = Uint8Array.from(mask.map((m, i) => (m === -1 ? full[i]! : m)));
        const a = Uint8Array.from(line);
        const b = Uint8Array.from(line);
        const okA = bits.solve(clue, a, a.length);
        const okB = tables.solve(clue, b, b.length);
        expect(okA).toBe(okB);
        if (okA) expect([...a]).toEqual([...b]);
        if (line.length <= ExactLineSolver.BIT_PARALLEL_MAX && mask.every((m) => m !== FILLED && m !== EMPTY))
          expect(okA).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('solves lines given as two-word masks like lines given as cells', () => {
    const bits = new ExactLineSolver();
    const cells = new ExactLineSolver();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: ExactLineSolver.MASK_MAX }), fc.integer(), fc.integer(), (n, seedA, seedB) => {
        // A picture from one seed, and cells revealed (or contradicted) from another.
        const full = Array.from({ length: n }, (_, i) => (((seedA >>> (i % 31)) ^ (i * 7)) % 3 === 0 ? FILLED : EMPTY));
        const clue = lineClue(runsOf(full, 0, 1, n));
        const line = Uint8Array.from(full, (v, i) => {
          const r = (Math.imul(seedB ^ i, 0x9e3779b1) >>> 27) & 7;
          return r < 4 ? UNKNOWN : r < 7 ? v : v === FILLED ? EMPTY : FILLED;
        });
        let fLo = 0, fHi = 0, eLo = 0, eHi = 0;
        line.forEach((v, c) => {
          if (v === FILLED) c < 31 ? (fLo |= 1 << c) : (fHi |= 1 << (c - 31));
          if (v === EMPTY) c < 31 ? (eLo |= 1 << c) : (eHi |= 1 << (c - 31));
        });
        const ok = bits.solveLineMasks(clue, n, fLo, fHi, eLo, eHi);
        const expected = Uint8Array.from(line);
        expect(ok).toBe(cells.solve(clue, expected, n));
        if (!ok) return;
        const m = bits.masks;
        const got = Array.from({ length: n }, (_, c) => {
          const f = c < 31 ? (m.filledLo >>> c) & 1 : (m.filledHi >>> (c - 31)) & 1;
          const e = c < 31 ? (m.emptyLo >>> c) & 1 : (m.emptyHi >>> (c - 31)) & 1;
          expect(f & e).toBe(0);
          return f ? FILLED : e ? EMPTY : UNKNOWN;
        });
        expect(got).toEqual([...expected]);
      }),
      { numRuns: 3000 },
    );
  });

  it('solves lines given as bit sets of one or more words like lines given as cells (up to MULTI_MAX cells)', () => {
    const sets = new MultiWordLines();
    const exact = new ExactLineSolver();
    const tables = new ExactLineSolver({ bitParallel: false });
    let solved = 0;
    let refuted = 0;
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 1, max: ExactLineSolver.MASK_MAX }), fc.integer({ min: ExactLineSolver.MASK_MAX + 1, max: MULTI_MAX })),
        fc.integer({ min: 0, max: 2 }),
        // Dense pictures too: their clues leave the blocks little room, which the tables solve.
        fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0.9, max: 1, noNaN: true })),
        fc.integer(),
        fc.integer(),
        fc.nat(),
        (n, padding, density, seedA, seedB, wrong) => {
          // A picture from one seed (sometimes all empty), cells revealed from another, and in half the lines one cell contradicted.
          const full = Array.from({ length: n }, (_, i) => ((Math.imul(seedA ^ i, 0x85ebca77) >>> 8) / (1 << 24) < density ? FILLED : EMPTY));
          const clue = lineClue(runsOf(full, 0, 1, n));
          const line = Uint8Array.from(full, (v, i) => {
            if (i === wrong % (2 * n)) return v === FILLED ? EMPTY : FILLED;
            return (Math.imul(seedB ^ i, 0x9e3779b1) >>> 28) < 10 ? UNKNOWN : v;
          });
          const stride = setWords(n) + padding;
          const input = new Int32Array(2 * stride);
          line.forEach((v, c) => {
            if (v !== UNKNOWN) input[(v === FILLED ? 0 : stride) + Math.floor(c / 31)]! |= 1 << c % 31;
          });
          const out = new Int32Array(2 * stride).fill(-1); // every word must be written
          const given = input.slice();
          const ok = sets.solveSets(clue, n, input, stride, out);
          expect([...input]).toEqual([...given]);
          // The solver's entry, which hands lines that masks hold to the mask form, agrees.
          const viaMasks = new Int32Array(2 * stride).fill(-1);
          expect(exact.solveLineSets(clue, n, input, stride, viaMasks)).toBe(ok);
          if (ok) expect([...viaMasks]).toEqual([...out]);
          const expected = Uint8Array.from(line);
          expect(ok).toBe(tables.solve(clue, expected, n));
          if (!ok) {
            refuted++;
            return;
          }
          solved++;
          const bit = (at: number, c: number) => (out[at + Math.floor(c / 31)]! >>> c % 31) & 1;
          const got = Array.from({ length: n }, (_, c) => {
            expect(bit(0, c) & bit(stride, c)).toBe(0);
            return bit(0, c) ? FILLED : bit(stride, c) ? EMPTY : UNKNOWN;
          });
          expect(got).toEqual([...expected]);
          // No bit past the line: bit 31 of each word, and the cells n … of the last words.
          for (let c = n; c < 31 * stride; c++) expect(bit(0, c) | bit(stride, c)).toBe(0);
          for (const word of out) expect(word >>> 31).toBe(0);
        },
      ),
      { numRuns: 1500 },
    );
    expect(solved).toBeGreaterThan(300);
    expect(refuted).toBeGreaterThan(100);
  });

  it('reuses its scratch across lines of different sizes', () => {
    const solver = new ExactLineSolver();
    fc.assert(
      fc.property(fc.array(anyLine, { minLength: 1, maxLength: 8 }), (lines) => {
        for (const { clue, line } of lines) {
          const cells = Uint8Array.from(line);
          const ok = solver.solve(lineClue(clue), cells, cells.length);
          const expected = bruteForce(clue, line);
          expect(ok).toBe(expected !== null);
          if (ok) expect([...cells]).toEqual(expected);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('solves a line held at the start of a longer buffer without reading past its length', () => {
    const solver = new ExactLineSolver();
    const cells = new Uint8Array([UNKNOWN, UNKNOWN, UNKNOWN, FILLED, FILLED, FILLED]);
    expect(solver.solve(new Int32Array([2]), cells, 3)).toBe(true);
    expect([...cells.subarray(0, 3)]).toEqual([UNKNOWN, FILLED, UNKNOWN]);
  });

  it('handles the edge cases', () => {
    expect(solveLineExact([], [])).toEqual(new Uint8Array([]));
    expect(solveLineExact([1], [])).toBeNull();
    expect(solveLineExact([], [UNKNOWN, FILLED])).toBeNull();
    expect([...solveLineExact([0], [UNKNOWN, UNKNOWN])!]).toEqual([EMPTY, EMPTY]);
    expect([...solveLineExact([3], [UNKNOWN, UNKNOWN, UNKNOWN])!]).toEqual([FILLED, FILLED, FILLED]);
    expect(solveLineExact([2, 2], [UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN])).toBeNull();
  });
});

describe('overlap line solver', () => {
  it('deduces a subset of the exact deductions and reports impossible exactly when the line is', () => {
    fc.assert(
      fc.property(anyLine, ({ clue, line }) => {
        const exact = bruteForce(clue, line);
        const got = solveLineOverlap(clue, line);
        expect(got === null).toBe(exact === null);
        if (got && exact) {
          got.forEach((v, i) => {
            if (line[i] !== UNKNOWN) expect(v).toBe(line[i]);
            else if (v !== UNKNOWN) expect(v).toBe(exact[i]);
          });
        }
      }),
      { numRuns: 4000 },
    );
  });

  it('finds the componentwise smallest consistent placement', () => {
    fc.assert(
      fc.property(anyLine, ({ clue, line }) => {
        const fits = consistent(clue, line);
        const c = lineClue(clue);
        const start = new Int32Array(c.length);
        const ok = leftmostPlacement(c, Uint8Array.from(line), line.length, start);
        expect(ok).toBe(fits.length > 0);
        if (ok) expect([...start]).toEqual(clue.map((_, j) => Math.min(...fits.map((f) => f[j]!))));
      }),
      { numRuns: 3000 },
    );
  });

  it('applies the overlap and the simple-space rules', () => {
    const solver = new OverlapLineSolver();
    const line = new Uint8Array(10); // clue 4,3 in 10 cells: slack 2
    expect(solver.solve(new Int32Array([4, 3]), line, 10)).toBe(true);
    expect([...line]).toEqual([0, 0, 1, 1, 0, 0, 0, 1, 0, 0]);
    const gapped = new Uint8Array([FILLED, 0, 0, 0, 0, 0, 0, 0, 0, FILLED]); // 2,2
    expect(solver.solve(new Int32Array([2, 2]), gapped, 10)).toBe(true);
    expect([...gapped]).toEqual([1, 1, 2, 2, 2, 2, 2, 2, 1, 1]);
  });
});
