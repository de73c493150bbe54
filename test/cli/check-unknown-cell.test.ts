import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeViolation, verifyGrid, gridFromRows } from '../../corpus/grid.js';
import { loadPuzzle } from '../../corpus/load.js';
import { tempDirs } from '../helpers/temp-dirs.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';

const DANCER = 'corpus/puzzles/webpbn/1.non';
const GOAL = ['.##..', '.##.#', '..#.#', '.###.', '#.#..', '#.#..', '..##.', '.#.#.', '.#.##', '##...'];
const dir = tempDirs('check-unknown')();
requireBuiltCli();

describe('an incomplete grid names its first unknown cell as rows and columns are named: 1-based', () => {
  it('describeViolation gives the row and column, not the index in the grid', () => {
    const rows = GOAL.slice();
    rows[2] = '..?.#'; // row 3, column 3: index 12
    const [first] = verifyGrid(loadPuzzle(DANCER), gridFromRows(rows));
    expect(describeViolation(first!)).toBe('grid is incomplete (first unknown cell at row 3, column 3)');
  });

  it('check prints it so', () => {
    const rows = GOAL.slice();
    rows[9] = '##..?';
    const file = join(dir, 'incomplete.txt');
    writeFileSync(file, `${rows.join('\n')}\n`);
    const { code, out } = runCli('check', DANCER, file);
    expect(code).toBe(1);
    expect(out.split('\n')[0]).toBe('grid is incomplete (first unknown cell at row 10, column 5)');
  });
});
