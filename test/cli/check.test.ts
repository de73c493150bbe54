import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError, InputErrors } from '../../corpus/errors.js';
import { gridToRows } from '../../corpus/grid.js';
import { EMPTY, FILLED } from '../../corpus/model.js';
import { parseGridFile } from '../../harness/cli/commands/check.js';

const pictureArb = fc
  .record({ width: fc.integer({ min: 1, max: 10 }), height: fc.integer({ min: 1, max: 10 }) })
  .chain(({ width, height }) =>
    fc
      .array(fc.constantFrom(FILLED, EMPTY), { minLength: width * height, maxLength: width * height })
      .map((cells) => ({ width, height, grid: Uint8Array.from(cells) })),
  );

const problemsOf = (f: () => unknown): string[] => {
  try {
    f();
  } catch (err) {
    if (err instanceof InputErrors) return err.problems.map((p) => p.message);
    if (err instanceof InputError) return [err.message];
    throw err;
  }
  return [];
};

describe('parseGridFile', () => {
  it('reads back #/. rows, 1/0 rows and tab-separated rows', () => {
    fc.assert(
      fc.property(pictureArb, ({ width, height, grid }) => {
        const rows = gridToRows(grid, width);
        const forms = [
          rows,
          rows.map((r) => r.replace(/#/g, '1').replace(/\./g, '0')),
          rows.map((r) => r.replace(/#/g, '1').replace(/\./g, '0').split('').join('\t')),
        ];
        for (const form of forms) expect(Array.from(parseGridFile(form.join('\n'), 'g.txt', width, height))).toEqual(Array.from(grid));
      }),
      { numRuns: 80 },
    );
  });

  it('reads spaces as empty cells unless the line is exactly `width` single values separated by spaces', () => {
    expect(Array.from(parseGridFile('# #', 'g', 3, 1))).toEqual([FILLED, EMPTY, FILLED]);
    expect(Array.from(parseGridFile('1 0 1', 'g', 3, 1))).toEqual([FILLED, EMPTY, FILLED]);
    expect(Array.from(parseGridFile('1 0 1', 'g', 5, 1))).toEqual([FILLED, EMPTY, EMPTY, EMPTY, FILLED]);
    // Trailing blanks past the width are ignored.
    expect(Array.from(parseGridFile('#.  \n.#\t\n', 'g', 2, 2))).toEqual([FILLED, EMPTY, EMPTY, FILLED]);
    // A row of exactly `width` spaces is an empty row; shorter or longer blank lines separate rows.
    expect(Array.from(parseGridFile('# #\n   \n \n#  \n', 'g', 3, 3))).toEqual([FILLED, EMPTY, FILLED, EMPTY, EMPTY, EMPTY, FILLED, EMPTY, EMPTY]);
  });

  it('skips blank lines, comments and tournament headers', () => {
    const text = '$1$\n// c\n; c\n\n#.\n\n.#\n';
    expect(Array.from(parseGridFile(text, 'g', 2, 2))).toEqual([FILLED, EMPTY, EMPTY, FILLED]);
  });

  it('names every problem with its file and line', () => {
    expect(problemsOf(() => parseGridFile('#.\n#\n', 'g.txt', 2, 2))).toEqual(['g.txt:2: row 2 has 1 cells, expected 2']);
    expect(problemsOf(() => parseGridFile('#.\n#!\n..\n', 'g.txt', 2, 2))).toEqual([
      'g.txt:2: unknown cell "!" in row 2, column 2',
      "g.txt:3: more rows than the puzzle's 2",
    ]);
    expect(problemsOf(() => parseGridFile('1\t2\n', 'g.txt', 2, 1))).toEqual(['g.txt:1: unknown cell "2" in row 1, column 2']);
    expect(problemsOf(() => parseGridFile('', 'g.txt', 2, 1))).toEqual(['g.txt:0: grid has 0 rows, expected 1']);
    // Quoted input is cut to 80 characters, so a problem stays one short line.
    expect(problemsOf(() => parseGridFile(`#\t${'x'.repeat(100_000)}\n`, 'g.txt', 2, 1))).toEqual([`g.txt:1: unknown cell "${'x'.repeat(79)}…" in row 1, column 2`]);
  });
  it('reports at most 10 problems of a grid file, then how many more, as for puzzle files', () => {
    // 200 bad rows of a 200×200 puzzle were 200 lines on stderr.
    const text = Array.from({ length: 200 }, () => 'z'.repeat(200)).join('\n');
    let message = '';
    try {
      parseGridFile(text, 'g.txt', 200, 200);
    } catch (err) {
      message = (err as Error).message;
    }
    const lines = message.split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('g.txt:1: unknown cell "z" in row 1, column 1');
    expect(lines[10]).toBe('g.txt:0: … and 190 more problems');
  });
});
