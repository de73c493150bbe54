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

function sameClue(a: Clue, b: Clue): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
function reversedClue(a: Clue, b: Clue): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[b.length - 1 - i]) return false;
  return true;
}
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
  // Each line's blocks, worked out once (the candidates read them many times).
  const rowBlocks = Array.from({ length: h }, (_, i) => blocksOf(puzzle.rows[top + i]!));
  const columnBlocks = Array.from({ length: w }, (_, j) => blocksOf(puzzle.columns[left + j]!));
  const R = (i: number) => rowBlocks[i]!;
  const C = (j: number) => columnBlocks[j]!;
  const all = (n: number, ok: (i: number) => boolean) => {
    for (let i = 0; i < n; i++) if (!ok(i)) return false;
    return true;
  };
  /** The grid cell of frame cell (i, j). */
  const at = (i: number, j: number) => (top + i) * width + left + j;

  // Each candidate: whether the clues allow it, and where frame cell (i, j) goes, as an affine map:
  // the frame cell that (0, 0) goes to, and the step its image takes (in frame rows and columns)
  // as i grows by one (`down`) and as j grows by one (`right`). Built with no pair per cell: a
  // large grid has tens of thousands, and this runs once per solve, before the search.
  type Step = readonly [number, number];
  const candidates: { name: SymmetryName; holds: () => boolean; origin: Step; down: Step; right: Step }[] = [
    {
      name: 'mirror', // (i, j) → (i, w - 1 - j)
      holds: () => all(h, (i) => reversedClue(R(i), R(i))) && all(w, (j) => sameClue(C(j), C(w - 1 - j))),
      origin: [0, w - 1],
      down: [1, 0],
      right: [0, -1],
    },
    {
      name: 'flip', // (i, j) → (h - 1 - i, j)
      holds: () => all(w, (j) => reversedClue(C(j), C(j))) && all(h, (i) => sameClue(R(i), R(h - 1 - i))),
      origin: [h - 1, 0],
      down: [-1, 0],
      right: [0, 1],
    },
    {
      name: 'rotate-180', // (i, j) → (h - 1 - i, w - 1 - j)
      holds: () => all(h, (i) => reversedClue(R(i), R(h - 1 - i))) && all(w, (j) => reversedClue(C(j), C(w - 1 - j))),
      origin: [h - 1, w - 1],
      down: [-1, 0],
      right: [0, -1],
    },
  ];
  if (h === w) {
    candidates.push(
      // (i, j) → (j, i)
      { name: 'transpose', holds: () => all(h, (i) => sameClue(R(i), C(i))), origin: [0, 0], down: [0, 1], right: [1, 0] },
      // (i, j) → (w - 1 - j, h - 1 - i)
      {
        name: 'anti-transpose',
        holds: () => all(h, (i) => reversedClue(R(i), C(w - 1 - i))),
        origin: [w - 1, h - 1],
        down: [0, -1],
        right: [-1, 0],
      },
      // Clockwise: a row of the image is a column of the original read upwards. (i, j) → (j, w - 1 - i)
      {
        name: 'rotate-90',
        holds: () => all(h, (i) => reversedClue(R(i), C(i))) && all(w, (j) => sameClue(C(j), R(w - 1 - j))),
        origin: [0, w - 1],
        down: [0, -1],
        right: [1, 0],
      },
      // Its inverse, so that the symmetries found (with the identity) are closed under composition. (i, j) → (h - 1 - j, i)
      {
        name: 'rotate-270',
        holds: () => all(h, (i) => sameClue(R(i), C(w - 1 - i))) && all(w, (j) => reversedClue(C(j), R(j))),
        origin: [h - 1, 0],
        down: [0, 1],
        right: [-1, 0],
      },
    );
  }

  const symmetries: Symmetry[] = [];
  let identity: Int32Array | null = null;
  for (const c of candidates) {
    if (!c.holds()) continue;
    if (!identity) {
      identity = new Int32Array(width * height);
      for (let cell = 0; cell < identity.length; cell++) identity[cell] = cell;
    }
    const image = identity.slice(); // the cells outside the frame map to themselves
    const down = c.down[0] * width + c.down[1];
    const right = c.right[0] * width + c.right[1];
    let rowStart = at(c.origin[0], c.origin[1]);
    for (let i = 0; i < h; i++, rowStart += down) {
      let from = at(i, 0);
      let to = rowStart;
      for (let j = 0; j < w; j++, to += right) image[from++] = to;
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
  // Maps compared cell by cell (there are at most seven): no string key per map, which on a large
  // grid would be a string of hundreds of kilobytes each.
  const kept: Symmetry[] = [];
  for (const s of symmetries) if (!isIdentity(s.image) && !kept.some((k) => sameMap(k.image, s.image))) kept.push(s);
  return kept;
}

function isIdentity(image: Int32Array): boolean {
  for (let cell = 0; cell < image.length; cell++) if (image[cell] !== cell) return false;
  return true;
}

function sameMap(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let cell = 0; cell < a.length; cell++) if (a[cell] !== b[cell]) return false;
  return true;
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
