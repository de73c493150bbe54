import { EMPTY, FILLED, type Clue, type Grid, type Puzzle } from '../../corpus/model.js';

// A solver independent of every strategy, for differential tests on small puzzles.

/** Every placement of a clue in a line of n cells, as cell arrays. */
function linePlacements(clue: Clue, n: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  const cells = new Uint8Array(n).fill(EMPTY);
  const place = (j: number, from: number): void => {
    if (j === clue.length) {
      out.push(cells.slice());
      return;
    }
    let rest = 0;
    for (let t = j; t < clue.length; t++) rest += clue[t]! + (t > j ? 1 : 0);
    for (let s = from; s + rest <= n; s++) {
      cells.fill(FILLED, s, s + clue[j]!);
      place(j + 1, s + clue[j]! + 1);
      cells.fill(EMPTY, s, s + clue[j]!);
    }
  };
  place(0, 0);
  return out;
}

/**
 * All solutions (up to `cap`) by brute force: rows' placements one row at a time, pruned by
 * checking each column's runs so far against a prefix of its clue.
 */
export function bruteForceSolutions(p: Puzzle, cap = 10_000): Grid[] {
  const { width, height } = p;
  const options = p.rows.map((clue) => linePlacements(clue, width));
  const grid = new Uint8Array(width * height);
  const found: Grid[] = [];
  // Column state: index of the current block and the length of the run in progress.
  const block = new Int32Array(width);
  const run = new Int32Array(width);
  const rec = (y: number): void => {
    if (found.length >= cap) return;
    if (y === height) {
      for (let x = 0; x < width; x++) {
        const blocks = block[x]! + (run[x]! > 0 ? 1 : 0);
        if (blocks !== p.columns[x]!.length || (run[x]! > 0 && run[x] !== p.columns[x]![block[x]!])) return;
      }
      found.push(grid.slice());
      return;
    }
    for (const row of options[y]!) {
      const savedBlock = block.slice();
      const savedRun = run.slice();
      let ok = true;
      for (let x = 0; x < width && ok; x++) {
        const clue = p.columns[x]!;
        if (row[x] === FILLED) {
          run[x]!++;
          ok = block[x]! < clue.length && run[x]! <= clue[block[x]!]!;
        } else if (run[x]! > 0) {
          ok = run[x] === clue[block[x]!];
          block[x]!++;
          run[x] = 0;
        }
      }
      if (ok) {
        grid.set(row, y * width);
        rec(y + 1);
      }
      block.set(savedBlock);
      run.set(savedRun);
    }
  };
  rec(0);
  return found;
}
