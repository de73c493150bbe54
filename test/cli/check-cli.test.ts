import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../helpers/temp-dirs.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';

const DANCER = 'corpus/puzzles/webpbn/1.non';
const GOAL = '01100011010010101110101001010000110010100101111000';
const goalRows = () => GOAL.match(/.{5}/g)!.map((r) => r.replace(/1/g, '#').replace(/0/g, '.'));

const run = runCli;

const dir = tempDirs('check')();
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

requireBuiltCli();

describe('nonobench check', () => {
  it('prints ok and exits 0 for the goal, and draws it', () => {
    const svg = join(dir, 'new', 'folder', 'goal.svg'); // its folder is made
    const { code, out } = run('check', DANCER, file('goal.txt', `${goalRows().join('\n')}\n`), '--svg', svg);
    expect(code).toBe(0);
    expect(out).toBe('ok\n');
    expect(readFileSync(svg, 'utf8').split('class="filled"').length - 1).toBe(GOAL.split('1').length - 1);
  });

  it('accepts 1/0 rows, tab- and space-separated values, comments and blank lines', () => {
    const rows = GOAL.match(/.{5}/g)!;
    const text = [
      '// the goal of the Dancer',
      '; written several ways',
      '',
      ...rows.slice(0, 3),
      ...rows.slice(3, 6).map((r) => r.split('').join('\t')),
      ...rows.slice(6, 8).map((r) => r.split('').join(' ')),
      ...rows.slice(8).map((r) => r.replace(/1/g, 'X').replace(/0/g, '-')),
      '',
    ].join('\r\n');
    const { code, out } = run('check', DANCER, file('mixed.txt', text));
    expect(out).toBe('ok\n');
    expect(code).toBe(0);
  });

  it('names the violated row and column of a flipped cell and exits 1', () => {
    const rows = goalRows();
    // Row 4, column 3 (1-based): a filled cell made empty.
    rows[3] = rows[3]!.slice(0, 2) + (rows[3]![2] === '#' ? '.' : '#') + rows[3]!.slice(3);
    const { code, out } = run('check', DANCER, file('flipped.txt', rows.join('\n')));
    expect(code).toBe(1);
    const lines = out.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^row 4: expected 3, got /);
    expect(lines[1]).toMatch(/^column 3: expected 7, got /);
  });

  it('rejects a malformed grid file naming the file and the line, with exit 2', () => {
    const rows = goalRows();
    const wide = file('wide.txt', ['// comment', ...rows.slice(0, 4), `${rows[4]}#`, ...rows.slice(5)].join('\n'));
    let r = run('check', DANCER, wide);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${wide}:6: row 5 has 6 cells, expected 5`);

    const odd = file('odd.txt', [...rows.slice(0, 2), '.#?#Q', ...rows.slice(3)].join('\n'));
    r = run('check', DANCER, odd);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${odd}:3: unknown cell "Q" in row 3, column 5`);

    const short = file('short.txt', rows.slice(0, 9).join('\n'));
    r = run('check', DANCER, short);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${short}:9: grid has 9 rows, expected 10`);

    expect(run('check', DANCER, join(dir, 'missing.txt')).code).toBe(2);
  });
});

describe('a puzzle of more cells than an array can hold (--max-size raised)', () => {
  it('is one line at the puzzle file in check and cnf, which named no file before', () => {
    const n = 100_000;
    const puzzle = file('huge.non', `width ${n}\nheight ${n}\nrows\n${'0\n'.repeat(n)}columns\n${'0\n'.repeat(n)}`);
    const grid = file('tiny-grid.txt', '#\n');
    const line = (cells: number) => `${puzzle}:0: its ${n}x${n} grid is more than memory holds (Invalid typed array length: ${cells})\n`;
    for (const [args, cells] of [[['check', puzzle, grid], n * n], [['cnf', puzzle, '--out', join(dir, 'huge.cnf')], n * n + 1]] as const) {
      const r = run(...args, '--max-size', String(n));
      expect([r.code, r.err], args[0]).toEqual([2, line(cells)]);
    }
  });
});
