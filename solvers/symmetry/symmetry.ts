import { isSolution } from '../../corpus/grid.js';
import type { Clue, Grid, Puzzle } from '../../corpus/model.js';

/**
 * A symmetry of a puzzle's clues: a permutation of the cells (a mirror, a rotation or a transpose
 * of the grid) under which the clues stay the same, so that it maps every solution to a solution.
 * `image[cell]` is the cell that `cell` maps to.
 */
export interface Symmetry {
  name: SymmetryName;
  image: Int32Array;
}

export type SymmetryName = 'mirror' | 'flip' | 'rotate-180' | 'transpose' | 'anti-transpose' | 'rotate-90' | 'rotate-270';

const sameClue = (a: Clue, b: Clue) => a.length === b.length && a.every((v, i) => v === b[i]);
const reversedClue = (a: Clue, b: Clue) => a.length === b.length && a.every((v, i) => v === b[b.length - 1 - i]);
const isEmptyClue = (c: Clue) => c.every((v) => v === 0);
/** The clue without zero-length blocks (`[0]` and `[]` both mean an empty line). */
const blocksOf = (c: Clue): Clue => c.filter((v) => v > 0);

/**
 * The symmetries of the puzzle's clues, all of them but the identity (so a solution's images are
 * its whole orbit). Empty lines at the grid's edges are left out first (their
 * cells are empty in every solution), so a picture drawn off-centre in a larger frame still counts
 * as symmetric; the cells outside that frame map to themselves.
 */
export function clueSymmetries(puzzle: Puzzle): Symmetry[] {
  const { width, height } = puzzle;
  const rowsUsed = puzzle.rows.map((c) => !isEmptyClue(c));
  const columnsUsed = puzzle.columns.map((c) => !isEmptyClue(c));
  const top = rowsUsed.indexOf(true);
  const left = columnsUsed.indexOf(true);
  if (top < 0 || left < 0) return [];
  const h = rowsUsed.lastIndexOf(true) - top + 1;
  const w = columnsUsed.lastIndexOf(true) - left + 1;
  const R = (i: number) => blocksOf(puzzle.rows[top + i]!);
  const C = (j: number) => blocksOf(puzzle.columns[left + j]!);
  const all = (n: number, ok: (i: number) => boolean) => {
    for (let i = 0; i < n; i++) if (!ok(i)) return false;
    return true;
  };

  // Each candidate: whether the clues allow it, and where frame cell (i, j) goes.
  const candidates: { name: SymmetryName; holds: () => boolean; to: (i: number, j: number) => [number, number] }[] = [
    {
      name: 'mirror',
      holds: () => all(h, (i) => reversedClue(R(i), R(i))) && all(w, (j) => sameClue(C(j), C(w - 1 - j))),
      to: (i, j) => [i, w - 1 - j],
    },
    {
      name: 'flip',
      holds: () => all(w, (j) => reversedClue(C(j), C(j))) && all(h, (i) => sameClue(R(i), R(h - 1 - i))),
      to: (i, j) => [h - 1 - i, j],
    },
    {
      name: 'rotate-180',
      holds: () => all(h, (i) => reversedClue(R(i), R(h - 1 - i))) && all(w, (j) => reversedClue(C(j), C(w - 1 - j))),
      to: (i, j) => [h - 1 - i, w - 1 - j],
    },
  ];
  if (h === w) {
    candidates.push(
      { name: 'transpose', holds: () => all(h, (i) => sameClue(R(i), C(i))), to: (i, j) => [j, i] },
      { name: 'anti-transpose', holds: () => all(h, (i) => reversedClue(R(i), C(w - 1 - i))), to: (i, j) => [w - 1 - j, h - 1 - i] },
      // Clockwise: a row of the image is a column of the original read upwards.
      {
        name: 'rotate-90',
        holds: () => all(h, (i) => reversedClue(R(i), C(i))) && all(w, (j) => sameClue(C(j), R(w - 1 - j))),
        to: (i, j) => [j, w - 1 - i],
      },
      // Its inverse, so that the symmetries found (with the identity) are closed under composition.
      {
        name: 'rotate-270',
        holds: () => all(h, (i) => sameClue(R(i), C(w - 1 - i))) && all(w, (j) => reversedClue(C(j), R(j))),
        to: (i, j) => [h - 1 - j, i],
      },
    );
  }

  const symmetries: Symmetry[] = [];
  for (const c of candidates) {
    if (!c.holds()) continue;
    const image = new Int32Array(width * height);
    for (let cell = 0; cell < image.length; cell++) image[cell] = cell;
    for (let i = 0; i < h; i++)
      for (let j = 0; j < w; j++) {
        const [ti, tj] = c.to(i, j);
        image[(top + i) * width + left + j] = (top + ti) * width + left + tj;
      }
    symmetries.push({ name: c.name, image });
  }
  return symmetries;
}

/**
 * The symmetries that move some cell, each map once: on a picture one line thick (a 1×N puzzle,
 * or a frame of one row or column) a mirror maps every cell to itself and two candidates can be
 * the same map. Those are the symmetries a solver can use; the identity would only tie each cell
 * to itself (and be counted in `extra.symmetries`).
 */
export function distinctSymmetries(symmetries: readonly Symmetry[]): Symmetry[] {
  const seen = new Set<string>();
  return symmetries.filter((s) => {
    if (s.image.every((to, cell) => to === cell)) return false;
    const key = s.image.join(',');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The grid the symmetry maps `grid` to. */
export function mapGrid(grid: Grid, symmetry: Symmetry): Grid {
  const out = new Uint8Array(grid.length);
  const { image } = symmetry;
  for (let cell = 0; cell < grid.length; cell++) out[image[cell]!] = grid[cell]!;
  return out;
}

/**
 * The other solutions a solution gives for free: its images under the symmetries that differ from
 * it and from each other, each checked against the clues.
 */
export function imagesOf(puzzle: Puzzle, solution: Grid, symmetries: readonly Symmetry[]): Grid[] {
  const images: Grid[] = [];
  const differs = (a: Grid, b: Grid) => a.some((v, i) => v !== b[i]);
  for (const symmetry of symmetries) {
    const image = mapGrid(solution, symmetry);
    if (!differs(image, solution) || images.some((other) => !differs(image, other))) continue;
    if (!isSolution(puzzle, image)) throw new Error(`the ${symmetry.name} image of a solution of ${puzzle.id} breaks its clues`);
    images.push(image);
  }
  return images;
}
