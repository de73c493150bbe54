import { afterEach, describe, expect, it, vi } from 'vitest';
import { makePuzzle, type Puzzle } from '../../corpus/model.js';
import { VarHeap } from '../../solvers/sat/engine/var-heap.js';
import { PuzzleSat } from '../../solvers/sat/puzzle/puzzle-sat.js';
import { clueSymmetries, distinctSymmetries } from '../../solvers/symmetry/symmetry.js';

/**
 * On a large puzzle with all seven symmetries (every line clued 1,1,…,1), the set-up before the
 * search used to run long stretches that never looked at the limit: finding the symmetries (a
 * string of the whole map per symmetry) and tying every cell to its images (hundreds of thousands
 * of clauses after the last poll of the loading). Counted here by polls, not by time.
 */
describe('symmetry set-up and the stop check', () => {
  afterEach(() => vi.restoreAllMocks());

  /** n×n, every row and column clued with n/2 ones: symmetric under all seven maps. */
  const ones = (n: number): Puzzle => {
    const clue = Array<number>(n / 2).fill(1);
    return makePuzzle(
      Array.from({ length: n }, () => clue.slice()),
      Array.from({ length: n }, () => clue.slice()),
    );
  };

  const load = (puzzle: Puzzle, symmetric: readonly Int32Array[], stopAt = Infinity) => {
    let polls = 0;
    const sat = PuzzleSat.load(puzzle, {
      known: new Uint8Array(puzzle.width * puzzle.height),
      encoding: 'blocks',
      cellDecisions: false,
      shouldStop: () => ++polls >= stopAt,
      symmetric,
    });
    return { sat, polls };
  };

  it('PuzzleSat.load polls while it ties the cells to their images', () => {
    const puzzle = ones(64);
    const images = distinctSymmetries(clueSymmetries(puzzle)).map((s) => s.image);
    expect(images).toHaveLength(7);
    const plain = load(puzzle, []);
    const tied = load(puzzle, images);
    expect(plain.sat).toBeDefined();
    expect(tied.sat).toBeDefined();
    // Every 4,096 cells visited (7 maps × 4,096 cells here): at least 7 polls more than without the ties.
    expect(tied.polls - plain.polls).toBeGreaterThanOrEqual(Math.floor((images.length * 64 * 64) / 4096));
  });

  it('a stop during the tying ends the load there', () => {
    const puzzle = ones(64);
    const images = distinctSymmetries(clueSymmetries(puzzle)).map((s) => s.image);
    // Both loads poll alike up to the end of the clause loading; the next poll of the tied one is in the tying.
    const plain = load(puzzle, []);
    const stopped = load(puzzle, images, plain.polls);
    expect(stopped.sat).toBeUndefined();
    expect(stopped.polls).toBe(plain.polls);
  });

  it('distinctSymmetries compares the maps cell by cell, with no string per map', () => {
    const join = vi.spyOn(Object.getPrototypeOf(Int32Array.prototype) as { join: () => string }, 'join');
    try {
      const square = distinctSymmetries(clueSymmetries(ones(16)));
      expect(square.map((s) => s.name)).toEqual(['mirror', 'flip', 'rotate-180', 'transpose', 'anti-transpose', 'rotate-90', 'rotate-270']);
      // One row: the mirror and the rotation by 180 degrees are the same map, the flip is the identity.
      const line = distinctSymmetries(clueSymmetries(makePuzzle([[1, 1]], [[1], [0], [1]])));
      expect(line.map((s) => s.name)).toEqual(['mirror']);
      expect(join).not.toHaveBeenCalled();
    } finally {
      join.mockRestore(); // the prototype is shared with the files that run after this one in its worker
    }
  });

  it('VarHeap.insertAllInOrder builds the heap that inserting 0, 1, … one at a time does', () => {
    const n = 1000;
    const activity = new Float64Array(n);
    const one = new VarHeap(n, activity);
    for (let v = 0; v < n; v++) one.insert(v);
    const all = new VarHeap(n, activity);
    all.insertAllInOrder();
    expect(all.size).toBe(n);
    const order = (heap: VarHeap) => Array.from({ length: n }, () => heap.removeMax());
    expect(order(all)).toEqual(order(one));
    expect(() => all.insertAllInOrder()).not.toThrow(); // empty again
    all.insert(3);
    expect(() => all.insertAllInOrder()).toThrow();
  });
});
