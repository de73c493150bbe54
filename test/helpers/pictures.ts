import fc from 'fast-check';
import { cluesOf } from '../../corpus/grid.js';
import { EMPTY, FILLED, makePuzzle, type Puzzle } from '../../corpus/model.js';

export interface PictureShape {
  minSide?: number;
  maxSide: number;
  minDensity?: number;
  maxDensity?: number;
}

/** Puzzles read off random pictures, so the picture (the goal) is always one of their solutions. */
export function picturedPuzzle({ minSide = 1, maxSide, minDensity = 0.2, maxDensity = 0.8 }: PictureShape): fc.Arbitrary<Puzzle> {
  return fc
    .record({
      width: fc.integer({ min: minSide, max: maxSide }),
      height: fc.integer({ min: minSide, max: maxSide }),
      density: fc.double({ min: minDensity, max: maxDensity, noNaN: true }),
      seed: fc.integer(),
    })
    .map(({ width, height, density, seed }) => {
      let state = seed | 0;
      const next = () => {
        state = (Math.imul(state, 1664525) + 1013904223) | 0;
        return (state >>> 8) / 2 ** 24;
      };
      const goal = Uint8Array.from({ length: width * height }, () => (next() < density ? FILLED : EMPTY));
      const { rows, columns } = cluesOf(goal, width, height);
      return makePuzzle(rows, columns, {}, goal);
    });
}
