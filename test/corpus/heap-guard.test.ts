import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../harness/results/csv.js';
import { CLI, requireBuiltCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

requireBuiltCli();
const dir = tempDirs('heap-guard');

/** nonobench ARGS in `cwd`, in an old space of 128 MiB. */
const inSmallHeap = (args: string[], cwd?: string) =>
  spawnSync(process.execPath, ['--max-old-space-size=128', resolve(CLI), ...args], { cwd, encoding: 'utf8', timeout: 120_000 });

describe('a corpus larger than memory', () => {
  it('ends the load with one line at the file and line, exit 2, where V8 aborted the process (solve and run)', () => {
    // Half a million 1×1 tournament puzzles (5 MB) in an old space of 128 MiB: V8's out-of-memory abort,
    // before (and with the share of the heap limit taken whole, the limit's young generation included).
    const file = join(dir(), 'many.txt');
    writeFileSync(file, Array.from({ length: 500_000 }, (_, i) => `$${i + 1}\n0\n0\n`).join(''));
    for (const args of [['solve', file, '-s', 'overlap'], ['run', file, '-s', 'overlap', '--quiet', '--out', join(dir(), 'run.csv')]]) {
      const r = inSmallHeap(args);
      expect([r.status, r.signal], args[0]).toEqual([2, null]);
      expect(r.stderr, args[0]).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: more puzzles than memory holds \\(the heap is \\d+% of its \\d+ MiB limit here\\): load a part \\(FILE#FIRST-LAST\\)[^\\n]*\\n$`));
    }
  });
});

describe('a strategy that asks for more memory than there is', () => {
  it('is a memory row (a typed array of billions of cells), where other strategies still solve the puzzle', () => {
    // One row of 100,000 cells and 50,000 blocks (--max-size raised): the exact line solver's table would hold 5·10⁹ cells.
    const width = 100_000;
    const file = join(dir(), 'wide.non');
    writeFileSync(file, `width ${width}\nheight 1\n\nrows\n${Array(width / 2).fill('1').join(',')}\n\ncolumns\n${Array.from({ length: width }, (_, i) => (i % 2 === 0 ? '1' : '0')).join('\n')}\n`);
    const out = join(dir(), 'wide.csv');
    const r = spawnSync(process.execPath, [CLI, 'run', file, '--max-size', String(width), '-s', 'sat,overlap', '--quiet', '--out', out], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status).toBe(0); // a resource limit, as a timeout is: no failed solve
    const rows = parseCsv(readFileSync(out, 'utf8')).records;
    expect(Object.fromEntries(rows.map((row) => [row.config, row.status]))).toEqual({ sat: 'memory', overlap: 'unique' });
    expect(rows.find((row) => row.config === 'sat')!.error).toMatch(/Invalid typed array length/);
  });
});

describe('one clue of millions of numbers', () => {
  it('is one line at its file and line, exit 2, in every format, where V8 aborted the process', () => {
    // Each file is a few megabytes; read in an old space of 128 MiB, each ended in V8's out-of-memory abort, before:
    // a .non clue line was split into millions of strings and item objects, JSON and XML made a node of every number.
    const ones = (n: number, sep: string) => Array(n).fill('1').join(sep);
    const d = dir();
    const non = join(d, 'long-clue.non');
    writeFileSync(non, `width 2\nheight 2\nrows\n${ones(2_500_000, ',')}\n1\ncolumns\n2\n0\n`);
    const json = join(d, 'long-clue.json');
    writeFileSync(json, `{"rows": [[${ones(4_000_000, ',')}], [1]], "columns": [[2], []]}`);
    const xml = join(d, 'long-clue.xml');
    writeFileSync(xml, `<puzzle><clues type="rows"><line>${'<count>1</count>'.repeat(500_000)}</line><line><count>1</count></line></clues><clues type="columns"><line><count>2</count></line><line/></clues></puzzle>`);
    const expected: [string, RegExp][] = [
      [non, /^long-clue\.non:4: row 1: clue (1,){39}1… needs 4999999 cells but the row has 2\n$/],
      [json, /^long-clue\.json:1: more puzzles than memory holds \(the heap is \d+% of its \d+ MiB limit here\)[^\n]*\n$/],
      [xml, /^long-clue\.xml:1: more puzzles than memory holds \(the heap is \d+% of its \d+ MiB limit here\)[^\n]*\n$/],
    ];
    for (const [file, message] of expected) {
      const r = inSmallHeap(['convert', file, '-'], d);
      expect([r.status, r.signal], file).toEqual([2, null]);
      expect(r.stderr, file).toMatch(message);
    }
  });
});

describe('one value of millions of characters', () => {
  // Each file is a few megabytes; read in an old space of 128 MiB, each ended in V8's out-of-memory abort, before:
  // the JSON string and the XML picture row were grown a character at a time (a rope of a node per character),
  // and check split a grid row into a value per character.

  it('is read in a small heap: a JSON string', () => {
    const d = dir();
    writeFileSync(join(d, 'long-title.json'), `{"title": "${'x'.repeat(8_000_000)}", "rows": [[1], [1]], "columns": [[1], [1]]}`);
    const r = inSmallHeap(['convert', 'long-title.json', 'out.non'], d);
    expect([r.status, r.signal, r.stderr]).toEqual([0, null, '']);
    expect(readFileSync(join(d, 'out.non'), 'utf8')).toContain(`title "${'x'.repeat(8_000_000)}"`);
  });

  it('is read in a small heap: an XML picture row', () => {
    const d = dir();
    writeFileSync(
      join(d, 'long-goal.xml'),
      `<puzzle><clues type="rows"><line><count>1</count></line></clues><clues type="columns"><line><count>1</count></line></clues><solution type="goal"><image>|${'X'.repeat(5_000_000)}|</image></solution></puzzle>`,
    );
    const r = inSmallHeap(['convert', 'long-goal.xml', '-'], d);
    expect([r.status, r.signal, r.stderr]).toEqual([2, null, 'long-goal.xml:1: goal row 1 has 5000000 cells, expected 1\n']);
  });

  it('is read in a small heap: a grid row given to check', () => {
    const d = dir();
    writeFileSync(join(d, 'p.non'), 'width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n');
    for (const [row, cells] of [['#'.repeat(20_000_000), 20_000_000], ['1\t'.repeat(5_000_000), 5_000_000]] as const) {
      writeFileSync(join(d, 'long-row.txt'), `${row}\n.#\n`);
      const r = inSmallHeap(['check', 'p.non', 'long-row.txt'], d);
      expect([r.status, r.signal, r.stderr]).toEqual([2, null, `long-row.txt:1: row 1 has ${cells} cells, expected 2\n`]);
    }
  });
});

describe('a file of more lines than memory holds', () => {
  // Ten million short lines (20 to 50 MB) in an old space of 128 MiB: V8's out-of-memory abort, before, inside the
  // split into lines (past 134 million lines with any heap, V8's array limit) or while reading them.
  const N = 10_000_000;
  const refused = (file: string) =>
    new RegExp(`^${file.replace('.', '\\.')}:0: 10,000,00\\d lines that are not empty, more than memory holds \\(the heap's limit is \\d+ MiB here\\)[^\\n]*\\n$`);
  const OK = 'width 1\nheight 1\nrows\n1\ncolumns\n1\n';

  it('is one line at the file, and the other files of the run go on (.non comments, .nonpack dividers)', () => {
    const d = dir();
    writeFileSync(join(d, 'comments.non'), `width 1\nheight 1\n${'#\n'.repeat(N)}rows\n1\ncolumns\n1\n`);
    writeFileSync(join(d, 'dividers.nonpack'), '====\n'.repeat(N));
    writeFileSync(join(d, 'ok.non'), OK);
    for (const file of ['comments.non', 'dividers.nonpack']) {
      const r = inSmallHeap(['run', file, 'ok.non', '-s', 'overlap', '--quiet', '--out', 'run.csv'], d);
      expect([r.status, r.signal], file).toEqual([2, null]);
      expect(r.stderr, file).toMatch(refused(file));
      expect(readFileSync(join(d, 'run.csv'), 'utf8')).toMatch(/,ok\.non,/);
    }
  });

  it('is one line at the file for a grid given to check and a model given to cnf --decode', () => {
    const d = dir();
    writeFileSync(join(d, 'ok.non'), OK);
    writeFileSync(join(d, 'grid.txt'), `#\n${'####\n'.repeat(N)}`);
    writeFileSync(join(d, 'model.txt'), `s SATISFIABLE\n${'c\n'.repeat(N)}v 1 0\n`);
    for (const [args, file] of [[['check', 'ok.non', 'grid.txt'], 'grid.txt'], [['cnf', 'ok.non', '--decode', 'model.txt'], 'model.txt']] as const) {
      const r = inSmallHeap([...args], d);
      expect([r.status, r.signal], file).toEqual([2, null]);
      expect(r.stderr, file).toMatch(refused(file));
    }
  });

  it('ends the load at its line for a tournament puzzle of millions of blank clue lines', () => {
    const d = dir();
    writeFileSync(join(d, 'tall.txt'), `$1\n1\n${'\n'.repeat(N)}1\n`);
    const r = inSmallHeap(['convert', 'tall.txt', 'out.json'], d);
    expect([r.status, r.signal]).toEqual([2, null]);
    expect(r.stderr).toMatch(/^tall\.txt:\d+: more puzzles than memory holds \(the heap is \d+% of its \d+ MiB limit here\)[^\n]*\n$/);
  });

  it('still reads ten million empty lines, which share one string', () => {
    const d = dir();
    writeFileSync(join(d, 'blank.non'), `width 1\nheight 1\n${'\n'.repeat(N)}rows\n1\ncolumns\n1\n`);
    const r = inSmallHeap(['convert', 'blank.non', 'out.json'], d);
    expect([r.status, r.signal, r.stderr]).toEqual([0, null, '']);
  });
});

describe('a file larger than a string can be', () => {
  /** A folder with big.non, 600 MiB of zeros that take no disk (sparse), and ok.non, a 1×1 puzzle. */
  const bigAndOk = () => {
    const d = dir();
    writeFileSync(join(d, 'big.non'), '');
    truncateSync(join(d, 'big.non'), 600 * 2 ** 20);
    writeFileSync(join(d, 'ok.non'), 'width 1\nheight 1\nrows\n1\ncolumns\n1\n');
    return d;
  };

  it('is one line at the file, not V8 aborting the process as it decodes it, and the run goes on', () => {
    // Decoding it as one string would abort the process.
    const d = bigAndOk();
    const r = spawnSync(process.execPath, [resolve(CLI), 'run', 'big.non', 'ok.non', '-s', 'overlap', '--quiet', '--out', 'run.csv'], { cwd: d, encoding: 'utf8', timeout: 120_000 });
    expect([r.status, r.signal, r.stderr]).toEqual([2, null, 'big.non:0: cannot read the file (629,145,600 bytes, more than the 536,870,888 a text file may have)\n']);
    expect(readFileSync(join(d, 'run.csv'), 'utf8')).toMatch(/,ok\.non,/);
  });

  it('is still an input file, never overwritten by the run that refused it', () => {
    const d = bigAndOk();
    const big = join(d, 'big.non');
    const r = spawnSync(process.execPath, [resolve(CLI), 'run', 'big.non', 'ok.non', '-s', 'overlap', '--quiet', '--out', 'big.non'], { cwd: d, encoding: 'utf8', timeout: 120_000 });
    expect(r.status).toBe(2);
    expect(statSync(big).size).toBe(600 * 2 ** 20);
  });
});
