import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runsOf } from '../../corpus/grid.js';
import { EMPTY, FILLED, UNKNOWN } from '../../corpus/model.js';
import {
  binomial,
  enumeratePlacements,
  filterPlacements,
  lineMasks,
  placementCells,
  placementCount,
  wordsFor,
} from '../../solvers/line/enumerate.js';

/** C(n, k) from Pascal's triangle, independent of the multiplicative formula. */
function pascal(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let row = [1n];
  for (let i = 1; i <= n; i++) {
    const next = [1n];
    for (let j = 1; j < i; j++) next.push(row[j - 1]! + row[j]!);
    next.push(1n);
    row = next;
  }
  return row[k]!;
}

/** A clue that fits a line of `length` cells, from random block lengths trimmed to fit. */
const lineAndClue = (maxLength: number) =>
  fc.integer({ min: 1, max: maxLength }).chain((length) =>
    fc.array(fc.integer({ min: 1, max: length }), { maxLength: length }).map((blocks) => {
      const clue: number[] = [];
      let used = 0;
      for (const b of blocks) {
        const need = (clue.length > 0 ? 1 : 0) + b;
        if (used + need > length) break;
        clue.push(b);
        used += need;
      }
      return { length, clue };
    }),
  );

const sameClue = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

describe('placement counting', () => {
  it('binomial agrees with Pascal’s triangle, exactly, also past 2^53', () => {
    for (const [n, k] of [[0, 0], [5, 2], [10, 0], [10, 10], [30, 15], [60, 30], [200, 100], [3, 5]] as const)
      expect(binomial(n, k)).toBe(pascal(n, k));
  });

  it('is C(length − sum + 1, blocks), and 0 when the blocks cannot fit', () => {
    expect(placementCount(5, [])).toBe(1n);
    expect(placementCount(5, [5])).toBe(1n);
    expect(placementCount(5, [2, 2])).toBe(1n);
    expect(placementCount(5, [2, 1])).toBe(3n);
    expect(placementCount(5, [3, 2])).toBe(0n);
    expect(placementCount(25, [1, 1, 1])).toBe(pascal(23, 3));
  });

  it('equals the number of placements generated, and of all 0/1 lines with that clue', () => {
    fc.assert(
      fc.property(lineAndClue(14), ({ length, clue }) => {
        const set = enumeratePlacements(length, clue)!;
        expect(BigInt(set.count)).toBe(placementCount(length, clue));
        expect(BigInt(set.count)).toBe(pascal(length - clue.reduce((a, b) => a + b, 0) + 1, clue.length));
        let matching = 0;
        for (let m = 0; m < 1 << length; m++) {
          const cells = Array.from({ length }, (_, i) => ((m >> i) & 1 ? FILLED : EMPTY));
          if (sameClue(runsOf(cells, 0, 1, length), clue)) matching++;
        }
        expect(set.count).toBe(matching);
      }),
      { numRuns: 150 },
    );
  });
});

describe('enumeratePlacements', () => {
  it('lists distinct placements that each satisfy the clue, on lines of several words', () => {
    fc.assert(
      fc.property(lineAndClue(70), ({ length, clue }) => {
        fc.pre(placementCount(length, clue) <= 3000n);
        const set = enumeratePlacements(length, clue)!;
        expect(set.words).toBe(wordsFor(length));
        const seen = new Set<string>();
        for (let p = 0; p < set.count; p++) {
          const cells = placementCells(set, p);
          expect(runsOf(cells, 0, 1, length)).toEqual(clue);
          seen.add(cells.join(''));
          // No bit is set past the end of the line.
          const last = set.bits[p * set.words + set.words - 1]!;
          if (length % 32 !== 0) expect(last >>> (length % 32)).toBe(0);
        }
        expect(seen.size).toBe(set.count);
      }),
      { numRuns: 120 },
    );
  });

  it('stops when asked', () => {
    expect(enumeratePlacements(40, [1, 1, 1, 1, 1], () => true)).toBeNull();
  });
});

describe('filterPlacements', () => {
  it('keeps exactly the placements that agree with the known cells, and reports their consensus', () => {
    const arb = lineAndClue(40).chain(({ length, clue }) =>
      fc
        .array(fc.constantFrom(UNKNOWN, UNKNOWN, FILLED, EMPTY), { minLength: length, maxLength: length })
        .map((known) => ({ length, clue, known: Uint8Array.from(known) })),
    );
    fc.assert(
      fc.property(arb, ({ length, clue, known }) => {
        fc.pre(placementCount(length, clue) <= 2000n);
        const set = enumeratePlacements(length, clue)!;
        const all = Array.from({ length: set.count }, (_, p) => placementCells(set, p));
        const expected = all.filter((cells) => cells.every((v, i) => known[i] === UNKNOWN || known[i] === v));
        const w = wordsFor(length);
        const [f, e, and, or] = [0, 0, 0, 0].map(() => new Uint32Array(w)) as [Uint32Array, Uint32Array, Uint32Array, Uint32Array];
        lineMasks(known, 0, 1, length, f, e);
        const dropped = filterPlacements(set, f, e, and, or);
        expect(dropped).toBe(all.length - expected.length);
        expect(Array.from({ length: set.count }, (_, p) => placementCells(set, p).join(''))).toEqual(
          expected.map((c) => c.join('')),
        );
        if (expected.length === 0) return;
        for (let i = 0; i < length; i++) {
          const bit = (x: Uint32Array) => (x[i >>> 5]! >>> (i & 31)) & 1;
          expect(bit(and)).toBe(expected.every((c) => c[i] === FILLED) ? 1 : 0);
          expect(bit(or)).toBe(expected.some((c) => c[i] === FILLED) ? 1 : 0);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('polls its stop check every 65536 placements of a long line, and gives up with -1 once it fires', () => {
    // 168,921 placements of 19 words: millions of placements of a line of thousands of cells took seconds unpolled.
    const length = 600;
    const clue = [10, 10];
    const w = wordsFor(length);
    const masks = () => [0, 0, 0, 0].map(() => new Uint32Array(w)) as [Uint32Array, Uint32Array, Uint32Array, Uint32Array];
    const known = new Uint8Array(length);
    known[5] = FILLED; // keeps the placements whose first block covers cell 5
    const plain = enumeratePlacements(length, clue)!;
    const [f, e, and, or] = masks();
    lineMasks(known, 0, 1, length, f, e);
    const dropped = filterPlacements(plain, f, e, and, or);

    const watched = enumeratePlacements(length, clue)!;
    const [, , and2, or2] = masks();
    let polls = 0;
    expect(filterPlacements(watched, f, e, and2, or2, () => (polls++, false))).toBe(dropped);
    expect(polls).toBe(2); // at placements 65,535 and 131,071
    expect(watched.count).toBe(plain.count);
    expect(Array.from(and2)).toEqual(Array.from(and));
    expect(Array.from(or2)).toEqual(Array.from(or));

    expect(filterPlacements(enumeratePlacements(length, clue)!, f, e, and2, or2, () => true)).toBe(-1);
  });

  it('reads a column of a grid through its stride', () => {
    // 3×2 grid, column 1 is FILLED, EMPTY.
    const grid = Uint8Array.from([UNKNOWN, FILLED, UNKNOWN, UNKNOWN, EMPTY, UNKNOWN]);
    const f = new Uint32Array(1);
    const e = new Uint32Array(1);
    lineMasks(grid, 1, 3, 2, f, e);
    expect([f[0], e[0]]).toEqual([1, 2]);
  });
});
