import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cluesOf, isSolution } from '../../corpus/grid.js';
import { EMPTY, FILLED, makePuzzle, type Grid } from '../../corpus/model.js';
import { clueSymmetries, mapGrid, type SymmetryName } from '../../solvers/symmetry/symmetry.js';
import { bruteForceSolutions } from '../helpers/brute-force.js';

/** A random picture of the given size (seeded), as a grid. */
function randomGrid(width: number, height: number, density: number, seed: number): Grid {
  let state = seed | 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) | 0;
    return (state >>> 8) / 2 ** 24;
  };
  return Uint8Array.from({ length: width * height }, () => (next() < density ? FILLED : EMPTY));
}

/** Where each transform sends cell (r, c) of an n×m grid, written independently of the module. */
const TRANSFORMS: Record<SymmetryName, (r: number, c: number, h: number, w: number) => [number, number]> = {
  mirror: (r, c, _h, w) => [r, w - 1 - c],
  flip: (r, c, h) => [h - 1 - r, c],
  'rotate-180': (r, c, h, w) => [h - 1 - r, w - 1 - c],
  transpose: (r, c) => [c, r],
  'anti-transpose': (r, c, h, w) => [w - 1 - c, h - 1 - r],
  'rotate-90': (r, c, h) => [c, h - 1 - r],
  'rotate-270': (r, c, _h, w) => [w - 1 - c, r],
};

/** A grid made invariant under a transform: every orbit of cells takes the value of its smallest cell. */
function symmetrised(grid: Grid, n: number, name: SymmetryName): Grid {
  const out = grid.slice();
  for (let cell = 0; cell < n * n; cell++) {
    const orbit = [cell];
    for (;;) {
      const last = orbit[orbit.length - 1]!;
      const [r, c] = TRANSFORMS[name]((last / n) | 0, last % n, n, n);
      if (r * n + c === cell) break;
      orbit.push(r * n + c);
    }
    const value = grid[Math.min(...orbit)]!;
    for (const k of orbit) out[k] = value;
  }
  return out;
}

describe('clue symmetries', () => {
  it('map every solution of a puzzle to a solution (brute force on small puzzles)', () => {
    const small = fc.record({
      width: fc.integer({ min: 1, max: 5 }),
      height: fc.integer({ min: 1, max: 5 }),
      density: fc.double({ min: 0.2, max: 0.8, noNaN: true }),
      seed: fc.integer(),
      shape: fc.constantFrom<SymmetryName | 'none'>('none', 'mirror', 'flip', 'rotate-180', 'transpose', 'anti-transpose', 'rotate-90', 'rotate-270'),
    });
    fc.assert(
      fc.property(small, ({ width, height, density, seed, shape }) => {
        const n = Math.max(width, height);
        const grid = shape === 'none' ? randomGrid(width, height, density, seed) : symmetrised(randomGrid(n, n, density, seed), n, shape);
        const w = shape === 'none' ? width : n;
        const h = shape === 'none' ? height : n;
        const { rows, columns } = cluesOf(grid, w, h);
        const puzzle = makePuzzle(rows, columns);
        const symmetries = clueSymmetries(puzzle);
        if (shape !== 'none' && grid.includes(FILLED)) expect(symmetries.map((s) => s.name)).toContain(shape);
        for (const solution of bruteForceSolutions(puzzle, 50))
          for (const s of symmetries) expect(isSolution(puzzle, mapGrid(solution, s))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('see through empty lines at the edges: a picture off-centre in a larger frame', () => {
    // A 3×3 cross in the top-left corner of a 5×4 grid: rows 3–4 and columns 3–4 are empty.
    const pic = ['.#...', '###..', '.#...', '.....'].join('');
    const grid = Uint8Array.from(pic, (ch) => (ch === '#' ? FILLED : EMPTY));
    const { rows, columns } = cluesOf(grid, 5, 4);
    const puzzle = makePuzzle(rows, columns);
    const names = clueSymmetries(puzzle).map((s) => s.name);
    expect(names).toEqual(['mirror', 'flip', 'rotate-180', 'transpose', 'anti-transpose', 'rotate-90', 'rotate-270']);
    const mirror = clueSymmetries(puzzle).find((s) => s.name === 'mirror')!;
    expect(mirror.image[0 * 5 + 0]).toBe(0 * 5 + 2); // (0,0) ↔ (0,2) inside the 3×3 frame
    expect(mirror.image[3 * 5 + 4]).toBe(3 * 5 + 4); // outside the frame: fixed
  });

  it('are closed under composition: with the identity they form a group', () => {
    const small = fc.record({ n: fc.integer({ min: 1, max: 5 }), seed: fc.integer(), density: fc.double({ min: 0.2, max: 0.8, noNaN: true }), shape: fc.constantFrom<SymmetryName>('mirror', 'rotate-90', 'transpose', 'rotate-180') });
    fc.assert(
      fc.property(small, ({ n, seed, density, shape }) => {
        const grid = symmetrised(randomGrid(n, n, density, seed), n, shape);
        const { rows, columns } = cluesOf(grid, n, n);
        const symmetries = clueSymmetries(makePuzzle(rows, columns));
        const key = (image: Int32Array) => image.join(',');
        const identity = key(Int32Array.from({ length: n * n }, (_, i) => i));
        const known = new Set([identity, ...symmetries.map((s) => key(s.image))]);
        for (const a of symmetries)
          for (const b of symmetries) expect(known.has(key(Int32Array.from(a.image, (to) => b.image[to]!)))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('find none in an asymmetric picture, nor in an empty puzzle', () => {
    const pic = ['##.', '#..', '...'].join('');
    const grid = Uint8Array.from(pic, (ch) => (ch === '#' ? FILLED : EMPTY));
    const { rows, columns } = cluesOf(grid, 3, 3);
    expect(clueSymmetries(makePuzzle(rows, columns)).map((s) => s.name)).toEqual(['transpose']);
    expect(clueSymmetries(makePuzzle([[], []], [[], []]))).toEqual([]);
  });
});
