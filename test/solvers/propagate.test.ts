import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cluesOf } from '../../corpus/grid.js';
import { EMPTY, FILLED, UNKNOWN, makePuzzle, type Puzzle } from '../../corpus/model.js';
import { ExactLineSolver } from '../../solvers/line/exact.js';
import { MULTI_MAX } from '../../solvers/line/exact-multi.js';
import { OverlapLineSolver } from '../../solvers/line/overlap.js';
import type { LineSolver } from '../../solvers/line/line-solver.js';
import { Propagator } from '../../solvers/propagation/propagator.js';
import { picturedPuzzle } from '../helpers/pictures.js';

/** A puzzle read off a random picture (so its picture is one of its solutions). */
const pictured = (maxSide: number) => picturedPuzzle({ maxSide });

/** The exact solver behind an interface the propagator does not recognise: forces the array form. */
function arrayForm(): LineSolver {
  const exact = new ExactLineSolver();
  return { name: 'exact-array', solve: (clue, line, n) => exact.solve(clue, line, n) };
}

function propagateAll(p: Puzzle, solver: LineSolver, cache = true, preset: [number, number][] = []) {
  const prop = new Propagator(p, solver, { cache });
  for (const [cell, value] of preset) if (prop.grid[cell] === UNKNOWN) prop.assign(cell, value);
  prop.enqueueAll();
  const ok = prop.propagate();
  return { prop, ok };
}

/** Propagates in the bit form, in the array form, without the cache and with the tables, which must all agree; returns the first two. */
function propagateInEveryForm(p: Puzzle, preset: [number, number][]) {
  const bits = propagateAll(p, new ExactLineSolver(), true, preset);
  const cells = propagateAll(p, arrayForm(), true, preset);
  for (const other of [cells, propagateAll(p, new ExactLineSolver(), false, preset), propagateAll(p, new ExactLineSolver({ bitParallel: false }), true, preset)]) {
    expect(other.ok).toBe(bits.ok);
    if (bits.ok) expect(other.prop.grid).toEqual(bits.prop.grid);
  }
  return { bits, cells };
}

describe('propagation', () => {
  it('never contradicts a solvable puzzle nor sets a cell against its picture (mask form, one and two words)', () => {
    fc.assert(
      fc.property(pictured(45), (p) => {
        const { prop, ok } = propagateAll(p, new ExactLineSolver());
        expect(ok).toBe(true);
        prop.grid.forEach((v, i) => v !== UNKNOWN && expect(v).toBe(p.goal![i]));
      }),
      { numRuns: 150 },
    );
  });

  it('reaches the same fixpoint in mask form, array form, table form and without the cache', () => {
    const withPreset = fc.tuple(pictured(40), fc.array(fc.tuple(fc.nat(), fc.boolean(), fc.boolean()), { maxLength: 12 }));
    fc.assert(
      fc.property(withPreset, ([p, picks]) => {
        // Preset cells: mostly from the picture, sometimes flipped (then often a contradiction).
        const preset = picks.map(([n, flip, fill]): [number, number] => {
          const cell = n % (p.width * p.height);
          const truth = p.goal![cell]!;
          return [cell, flip ? (fill ? FILLED : EMPTY) : truth];
        });
        propagateInEveryForm(p, preset);
      }),
      { numRuns: 150 },
    );
  });

  it('reaches the same fixpoint in set form (lines of 62 to MULTI_MAX cells) as in array and table form, in the same order, and again after undo', () => {
    const long = fc.integer({ min: ExactLineSolver.MASK_MAX + 1, max: MULTI_MAX + 10 });
    const short = fc.integer({ min: 1, max: 12 });
    // Mostly one long side; sometimes a side of 31 to 61 cells held in several words, or two long sides.
    const middle = fc.integer({ min: 31, max: ExactLineSolver.MASK_MAX });
    const wide = fc.integer({ min: ExactLineSolver.MASK_MAX + 1, max: 100 });
    const sides = fc.oneof(
      { weight: 4, arbitrary: fc.tuple(long, short) },
      { weight: 4, arbitrary: fc.tuple(short, long) },
      { weight: 1, arbitrary: fc.tuple(wide, middle) },
      { weight: 1, arbitrary: fc.tuple(wide, wide) },
    );
    const presetOf = (p: Puzzle, picks: [number, boolean, boolean][]) =>
      picks.map(([n, flip, fill]): [number, number] => {
        const cell = n % (p.width * p.height);
        return [cell, flip ? (fill ? FILLED : EMPTY) : p.goal![cell]!];
      });
    const picks = fc.array(fc.tuple(fc.nat(), fc.boolean(), fc.boolean()), { maxLength: 20 });
    let setForm = 0;
    fc.assert(
      fc.property(sides, fc.double({ min: 0.2, max: 0.8, noNaN: true }), fc.integer(), picks, picks, ([width, height], density, seed, first, second) => {
        let state = seed | 0;
        const goal = Uint8Array.from({ length: width * height }, () => {
          state = (Math.imul(state, 1664525) + 1013904223) | 0;
          return (state >>> 8) / 2 ** 24 < density ? FILLED : EMPTY;
        });
        const { rows, columns } = cluesOf(goal, width, height);
        const p = makePuzzle(rows, columns, {}, goal);
        const { bits: a, cells: b } = propagateInEveryForm(p, presetOf(p, first));
        expect(a.prop.solvesSets).toBe(Math.max(width, height) <= MULTI_MAX);
        if (a.prop.solvesSets) setForm++;
        // Cells are set in the same order too, so a search on either form takes the same path.
        if (a.ok) expect(a.prop.trail.subarray(0, a.prop.trailLength)).toEqual(b.prop.trail.subarray(0, b.prop.trailLength));
        // Back to the empty grid, then other cells: the bit sets must follow the cells.
        a.prop.undo(0);
        a.prop.clearQueue();
        for (const [cell, value] of presetOf(p, second)) if (a.prop.grid[cell] === UNKNOWN) a.prop.assign(cell, value);
        a.prop.enqueueAll();
        const again = a.prop.propagate();
        const fresh = propagateAll(p, arrayForm(), true, presetOf(p, second));
        expect(again).toBe(fresh.ok);
        if (again) expect(a.prop.grid).toEqual(fresh.prop.grid);
      }),
      { numRuns: 120 },
    );
    expect(setForm).toBeGreaterThan(60);
  });

  it('handles lines too long for the mask form', () => {
    const width = 70;
    const goal = Uint8Array.from({ length: width * 3 }, (_, i) => ((i * 7) % 5 < 2 ? FILLED : EMPTY));
    const { rows, columns } = cluesOf(goal, width, 3);
    const p = makePuzzle(rows, columns, {}, goal);
    const { prop, ok } = propagateAll(p, new ExactLineSolver());
    expect(ok).toBe(true);
    prop.grid.forEach((v, i) => v !== UNKNOWN && expect(v).toBe(goal[i]));
    expect(prop.lineSolves).toBeGreaterThan(0);
  });

  it('uses the cache: the same states again cost no solver call', () => {
    fc.assert(
      fc.property(pictured(20), (p) => {
        const prop = new Propagator(p, new ExactLineSolver());
        prop.enqueueAll();
        expect(prop.propagate()).toBe(true);
        const solves = prop.lineSolves;
        const grid = prop.grid.slice();
        prop.undo(0);
        expect(prop.grid.every((v) => v === UNKNOWN)).toBe(true);
        const hitsBefore = prop.cacheHits;
        prop.enqueueAll();
        expect(prop.propagate()).toBe(true);
        expect(prop.lineSolves).toBe(solves);
        expect(prop.cacheHits - hitsBefore).toBe(solves);
        expect(prop.grid).toEqual(grid);
      }),
      { numRuns: 60 },
    );
  });

  it('undo restores the grid and the unknown counts', () => {
    fc.assert(
      fc.property(pictured(12), fc.nat(), (p, pick) => {
        const prop = new Propagator(p, new ExactLineSolver());
        prop.enqueueAll();
        prop.propagate();
        const grid = prop.grid.slice();
        const counts = prop.unknownInLine.slice();
        const mark = prop.trailLength;
        const cell = grid.indexOf(UNKNOWN, pick % grid.length) >= 0 ? grid.indexOf(UNKNOWN, pick % grid.length) : grid.indexOf(UNKNOWN);
        if (cell < 0) return;
        prop.assign(cell, p.goal![cell] === FILLED ? EMPTY : FILLED);
        prop.propagate();
        prop.undo(mark);
        expect(prop.grid).toEqual(grid);
        expect(prop.unknownInLine).toEqual(counts);
        // And the restored state still propagates to the same fixpoint.
        prop.enqueueAll();
        expect(prop.propagate()).toBe(true);
        expect(prop.grid).toEqual(grid);
      }),
      { numRuns: 100 },
    );
  });

  it('reports a contradiction and leaves the queue empty', () => {
    const p = makePuzzle([[2], [2]], [[1], [1]]);
    const prop = new Propagator(p, new ExactLineSolver());
    prop.enqueueAll();
    expect(prop.propagate()).toBe(false);
    expect(prop.propagate()).toBe(true); // nothing queued any more
  });

  it('with the overlap solver deduces a subset of the exact fixpoint', () => {
    fc.assert(
      fc.property(pictured(25), (p) => {
        const exact = propagateAll(p, new ExactLineSolver());
        const overlap = propagateAll(p, new OverlapLineSolver());
        expect(overlap.ok).toBe(true);
        overlap.prop.grid.forEach((v, i) => v !== UNKNOWN && expect(v).toBe(exact.prop.grid[i]));
      }),
      { numRuns: 100 },
    );
  });

  it('stops when the cancellation check fires, keeping sound deductions', () => {
    const width = 40;
    const goal = Uint8Array.from({ length: width * width }, (_, i) => ((i * 37) % 11 < 5 ? FILLED : EMPTY));
    const { rows, columns } = cluesOf(goal, width, width);
    const p = makePuzzle(rows, columns, {}, goal);
    const prop = new Propagator(p, new ExactLineSolver(), { cache: false, shouldStop: () => true });
    prop.enqueueAll();
    // 80 lines: one poll would need 256 solves, so enqueue enough work by re-queueing.
    for (let round = 0; round < 5 && !prop.stopped; round++) {
      prop.enqueueAll();
      expect(prop.propagate()).toBe(true);
    }
    expect(prop.stopped).toBe(true);
    prop.grid.forEach((v, i) => v !== UNKNOWN && expect(v).toBe(goal[i]));
  });
});

describe('the cancellation check', () => {
  it('is polled by the cells of the lines solved, so a limit stops the solves of very long lines within a few of them', () => {
    // Rows of 3000 cells: each exact solve is far dearer than a 30-cell one.
    const width = 3000;
    const height = 4;
    const picture = Uint8Array.from({ length: width * height }, (_, i) => ((i * 7919) % 5 < 2 ? FILLED : EMPTY));
    const { rows, columns } = cluesOf(picture, width, height);
    for (const cache of [true, false]) {
      let polls = 0;
      const prop = new Propagator(makePuzzle(rows, columns), new ExactLineSolver(), { cache, shouldStop: () => ++polls > 0 });
      prop.enqueueAll();
      expect(prop.propagate()).toBe(true);
      expect(prop.stopped).toBe(true);
      expect(polls).toBe(1);
      // The first poll comes after the first 8192 cells of lines: the third row.
      expect(prop.lineSolves + prop.cacheHits).toBe(3);
    }
  });
});
