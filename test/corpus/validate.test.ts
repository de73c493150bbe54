import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, InputErrors } from '../../corpus/errors.js';
import { parseNon } from '../../corpus/formats/non.js';
import { parseJsonPuzzles } from '../../corpus/formats/json.js';
import { parseTournament } from '../../corpus/formats/tournament.js';
import { parseWebpbnXml } from '../../corpus/formats/xml.js';
import { loadPuzzles } from '../../corpus/load.js';
import { BAD_CASES, BAD_DIR, COMPANION_FILES } from '../fixtures/bad-cases.js';
import { problemsOf } from '../helpers/problems.js';

const SMALL = (extra = '') => `width 3\nheight 2\n${extra}\nrows\n1,1\n2\n\ncolumns\n2\n1\n1\n`;

describe('malformed fixtures through the library', () => {
  it('covers every file of the bad fixture folder', () => {
    const listed = new Set([...BAD_CASES.map((c) => c.input), ...COMPANION_FILES]);
    const present = readdirSync(BAD_DIR).map((f) => `${BAD_DIR}/${f}`);
    expect(present.filter((f) => !listed.has(f))).toEqual([]);
    expect([...listed].filter((f) => !present.includes(f))).toEqual([]);
  });

  for (const c of BAD_CASES) {
    it(`${c.input}: exact lines and messages`, () => {
      expect(problemsOf(() => loadPuzzles(c.input))).toEqual(c.problems);
    });
  }

  it('throws typed errors carrying file and line, with one-line messages', () => {
    let caught: unknown;
    try {
      loadPuzzles(`${BAD_DIR}/negative-clue.non`);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(InputError);
    const e = caught as InputError;
    expect([e.file, e.line]).toEqual([`${BAD_DIR}/negative-clue.non`, 11]);
    expect(e.message).toBe(`${BAD_DIR}/negative-clue.non:11: column 2: clue -1 is negative`);
    let several: unknown;
    try {
      loadPuzzles(`${BAD_DIR}/multiple-problems.non`);
    } catch (err) {
      several = err;
    }
    expect(several).toBeInstanceOf(InputErrors);
    for (const c of BAD_CASES)
      for (const [, , message] of c.problems) {
        expect(message).not.toContain('\n');
        expect(message[0]).toMatch(/[a-z$]/);
      }
  });

  it('reports an unreadable file at line 0', () => {
    expect(problemsOf(() => loadPuzzles('test/fixtures/no-such-file.non'))).toEqual([
      ['test/fixtures/no-such-file.non', 0, 'cannot read the file (no such file or directory)'],
    ]);
    // A link to itself, and a path through a file: in words, not ELOOP and ENOTDIR.
    const dir = mkdtempSync(join(tmpdir(), 'nonobench-unreadable-'));
    symlinkSync('loop.non', join(dir, 'loop.non'));
    writeFileSync(join(dir, 'file'), '');
    try {
      expect(problemsOf(() => loadPuzzles(join(dir, 'loop.non')))).toEqual([[join(dir, 'loop.non'), 0, 'cannot read the file (its links go round in a loop)']]);
      expect(problemsOf(() => loadPuzzles(join(dir, 'file', 'p.non')))).toEqual([[join(dir, 'file', 'p.non'), 0, 'cannot read the file (a folder in its path is a file)']]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});

describe('validation rules', () => {
  it('accepts the small reference puzzle', () => {
    expect(parseNon(SMALL(), 'x.non')[0]!.rows).toEqual([[1, 1], [2]]);
  });

  it('applies the size limit, configurable by maxSize', () => {
    const wide = 'width 12\nheight 1\nrows\n1\ncolumns\n1\n0\n0\n0\n0\n0\n0\n0\n0\n0\n0\n0\n';
    expect(parseNon(wide, 'w.non')[0]!.width).toBe(12);
    expect(problemsOf(() => parseNon(wide, 'w.non', { maxSize: 10 }))).toEqual([
      ['w.non', 1, 'width 12 is above the limit of 10 (raise it with --max-size)'],
    ]);
    expect(problemsOf(() => loadPuzzles('test/fixtures/formats/sample.non', { maxSize: 3 }))).toEqual([
      ['test/fixtures/formats/sample.non', 7, 'width 4 is above the limit of 3 (raise it with --max-size)'],
    ]);
    // Formats without size keys take the size from the clue count.
    const json = JSON.stringify({ rows: [[1]], columns: [[1], [], [], [], []] });
    expect(problemsOf(() => parseJsonPuzzles(json, 'j.json', { maxSize: 4 }))).toEqual([
      ['j.json', 1, 'width 5 is above the limit of 4 (raise it with --max-size)'],
    ]);
  });

  it('reports missing height, rows and columns at line 0 of a single puzzle', () => {
    expect(problemsOf(() => parseNon('width 3\ntitle "x"\n', 'm.non'))).toEqual([
      ['m.non', 0, 'missing rows'],
      ['m.non', 0, 'missing columns'],
      ['m.non', 0, 'missing height'],
    ]);
  });

  it('names the member and its first line for whole-puzzle problems in a bundle', () => {
    const text = `${SMALL()}====\n\ntitle "no size"\nrows\n1\ncolumns\n1\n`;
    expect(problemsOf(() => parseNon(text, 'b.nonpack'))).toEqual([
      ['b.nonpack', 14, 'puzzle 2: missing width'],
      ['b.nonpack', 14, 'puzzle 2: missing height'],
    ]);
  });

  it('counts a blank line inside a clue block as an empty line, and stops a block at the next key', () => {
    const p = parseNon('width 2\nheight 3\nrows\n1\n\n1\ncolumns\n1,1\n0\n', 'e.non')[0]!;
    expect(p.rows).toEqual([[1], [], [1]]);
    expect(p.columns).toEqual([[1, 1], []]);
  });

  it('rejects a clue line outside any block and duplicate keys', () => {
    expect(problemsOf(() => parseNon(`3,4\n${SMALL()}`, 'o.non'))).toEqual([
      ['o.non', 1, 'clue line outside rows/columns: "3,4"'],
    ]);
    expect(problemsOf(() => parseNon(`${SMALL()}rows\n1,1\n2\n`, 'd.non'))).toEqual([
      ['d.non', 12, 'duplicate rows key (first on line 4)'],
    ]);
  });

  it('reports zero-size and non-numeric sizes', () => {
    expect(problemsOf(() => parseNon(SMALL().replace('width 3', 'width 0'), 'z.non'))).toEqual([
      ['z.non', 1, 'width must be a positive integer, got "0"'],
    ]);
  });

  it('checks XML image rows one by one', () => {
    const xml = (image: string) =>
      `<puzzle><clue type="columns"><line><count>1</count></line><line/></clue>\n<clue type="rows"><line><count>1</count></line></clue>\n<solution><image>\n${image}\n</image></solution></puzzle>`;
    expect(parseWebpbnXml(xml('|X.|'), 'i.xml')[0]!.goal).toEqual(new Uint8Array([1, 2]));
    expect(problemsOf(() => parseWebpbnXml(xml('|X..|'), 'i.xml'))).toEqual([['i.xml', 4, 'goal row 1 has 3 cells, expected 2']]);
    expect(problemsOf(() => parseWebpbnXml(xml('|Xz|'), 'i.xml'))).toEqual([
      ['i.xml', 4, 'goal has a bad character "z" at row 1, column 2 (expected 0 or 1)'],
    ]);
    expect(problemsOf(() => parseWebpbnXml(xml('|X.|').replace('<puzzle>', '<puzzle type="triddler">'), 't.xml'))).toEqual([
      ['t.xml', 1, 'only grid puzzles are supported, not type "triddler"'],
    ]);
  });

  it('names the solutions file and line of a tournament solution of the wrong shape', () => {
    const questions = '$1\n1\n0\n1\n0\n';
    expect(problemsOf(() => parseTournament(questions, 'q.txt', { solutionsText: '$1\n1\t0\n', solutionsFile: 's.txt' }))).toEqual([
      ['s.txt', 1, 'solution $1 has 1 rows, expected 2'],
    ]);
    expect(problemsOf(() => parseTournament(questions, 'q.txt', { solutionsText: '$1\n1\t0\t1\n0\t0\n', solutionsFile: 's.txt' }))).toEqual([
      ['s.txt', 2, 'solution $1 row 1 has 3 cells, expected 2'],
    ]);
    // A solution that fits is attached as the goal.
    const [p] = parseTournament(questions, 'q.txt', { solutionsText: '$1\n1\t0\n0\t0\n', solutionsFile: 's.txt' });
    expect(p!.goal).toEqual(new Uint8Array([1, 2, 2, 2]));
  });

  it('rejects colour keys and colour clues in JSON once, and stops there', () => {
    expect(problemsOf(() => parseJsonPuzzles('{"colors": ["red"], "rows": [[9]]}', 'c.json'))).toEqual([
      ['c.json', 1, 'colour puzzles are not supported'],
    ]);
    const clues = '{\n"rows": [["1a", "2b"], ["1a"]],\n"columns": [["1a"], ["1b"], ["1a", "1b"]],\n"colors": ["a"]}';
    expect(problemsOf(() => parseJsonPuzzles(clues, 'c.json'))).toEqual([['c.json', 2, 'colour puzzles are not supported']]);
  });
});
