import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { gridToRows } from '../../corpus/grid.js';
import { EMPTY, FILLED, UNKNOWN, withoutGoal } from '../../corpus/model.js';
import { AdapterError, readGridOutput, readJsonOutput, readModel } from '../../harness/external/adapters.js';
import { commandWords, fillPlaceholders, resolveExternal, unclosedQuote } from '../../harness/external/spec.js';
import { checkAnswer } from '../../harness/results/verify.js';
import { decodeGrid, encodeNonogram } from '../../solvers/sat/encodings/encode.js';
import { picturedPuzzle } from '../helpers/pictures.js';

const hashRows = (rows: string[]) => rows.join('\n');

describe('the grid adapter', () => {
  it('reads back any grids written as rows, in each accepted spelling, with the status word', () => {
    fc.assert(
      fc.property(
        picturedPuzzle({ maxSide: 8 }),
        fc.constantFrom(['#', '.'], ['1', '0'], ['X', '.'], ['x', '.'], ['█', '.']),
        fc.boolean(),
        fc.constantFrom('unique', 'multiple', 's SATISFIABLE', 'status: stuck', ''),
        (puzzle, [on, off], spaced, word) => {
          const rows = gridToRows(puzzle.goal!, puzzle.width).map((r) => {
            const cells = [...r].map((c) => (c === '#' ? on : off));
            return spaced ? cells.join(' ') : cells.join('');
          });
          const text = `c solver 1.0\n${hashRows(rows)}\n\n${hashRows(rows)}\n${word}\n`;
          const result = readGridOutput(text, withoutGoal(puzzle));
          expect(result.solutions).toHaveLength(2);
          expect([...result.solutions[0]!]).toEqual([...puzzle.goal!]);
          expect([...result.grid]).toEqual([...puzzle.goal!]);
          const expected = { unique: 'unique', multiple: 'multiple', 's SATISFIABLE': 'solved', 'status: stuck': 'stuck', '': 'multiple' }[word];
          expect(result.status).toBe(expected);
        },
      ),
    );
  });

  it('takes a partial grid with ? cells as where the solver stopped (stuck without a word)', () => {
    const puzzle = { id: 'x', width: 3, height: 2, rows: [[3], [1]], columns: [[2], [1], [1]], meta: {} };
    const r = readGridOutput('###\n#??\n', puzzle);
    expect(r.status).toBe('stuck');
    expect(r.solutions).toEqual([]);
    expect([...r.grid]).toEqual([FILLED, FILLED, FILLED, FILLED, UNKNOWN, UNKNOWN]);
    expect(readGridOutput('UNSAT\n', puzzle).status).toBe('contradiction');
  });

  it('refuses garbage, truncated grids, rows of the wrong width and two different status words', () => {
    const puzzle = { id: 'x', width: 3, height: 2, rows: [[3], [1]], columns: [[2], [1], [1]], meta: {} };
    const problem = (text: string) => {
      try {
        readGridOutput(text, puzzle);
        return 'read';
      } catch (err) {
        expect(err).toBeInstanceOf(AdapterError);
        return (err as Error).message;
      }
    };
    expect(problem('Segmentation fault\n')).toMatch(/no grid and no status/);
    expect(problem('###\nunique\n')).toMatch(/line 1: a grid of 1 rows, the puzzle has 2/);
    expect(problem('###\n#.\nunique\n')).toMatch(/line 2: a row of 2 cells, the puzzle is 3 wide/);
    expect(problem('###\n#..\nunique\nmultiple\n')).toMatch(/second status word/);
    expect(problem('###\n#..\n\n###\n#?.\n')).toMatch(/partial grid/);
    // A whole grid of the wrong width, which a count line before a grid cannot be.
    expect(problem('##\n#.\nunique\n')).toMatch(/line 1: a grid of 2 columns, the puzzle is 3 wide/);
    expect(problem('4\n###\n#..\n.#\n#.\n')).toMatch(/line 4: a grid of 2 columns/);
  });

  it('reads no further than one grid past the most solutions asked for', () => {
    const puzzle = { id: 'x', width: 3, height: 2, rows: [[3], [1]], columns: [[2], [1], [1]], meta: {} };
    const grid = '###\n#..\n';
    expect(readGridOutput(grid.repeat(2), puzzle, 2).solutions).toHaveLength(2);
    expect(() => readGridOutput(grid.repeat(3), puzzle, 2)).toThrow(/line 5: more than 2 grids/);
    // A flood: refused at its third grid, whatever follows (here a line the reader would otherwise refuse).
    expect(() => readGridOutput(`${grid.repeat(200_000)}#\n`, puzzle, 2)).toThrow(/line 5: more than 2 grids/);
  });

  it('passes over lines that only look like answers: a count before the grid, words that are no status', () => {
    const puzzle = { id: 'x', width: 3, height: 2, rows: [[3], [1]], columns: [[2], [1], [1]], meta: {} };
    const r = readGridOutput('1\nconstructor\ntoString\n###\n#..\nUNIQUE\n', puzzle);
    expect([r.status, r.solutions.length]).toEqual(['unique', 1]);
    // Counts on lines of their own, and lines of dashes around and between grids.
    const separated = readGridOutput('10\n01\n----------\n----------\n###\n#..\n---\n###\n#..\n---\nmultiple\n', puzzle);
    expect([separated.status, separated.solutions.length]).toEqual(['multiple', 2]);
  });
});

describe('the json adapter', () => {
  it('reads what `solve --json` prints, counters included', () => {
    fc.assert(
      fc.property(picturedPuzzle({ maxSide: 8 }), fc.nat(1000), (puzzle, deadEnds) => {
        const rows = gridToRows(puzzle.goal!, puzzle.width);
        const text = `log line\n${JSON.stringify({ status: 'solved', grid: rows, solutions: [rows], deadEnds, decisions: 3, extra: { probes: 2 } })}\n`;
        const r = readJsonOutput(text, withoutGoal(puzzle));
        expect(r.status).toBe('solved');
        expect([...r.solutions[0]!]).toEqual([...puzzle.goal!]);
        expect(r.metrics.deadEnds).toBe(deadEnds);
        expect(r.metrics.extra).toEqual({ probes: 2 });
        expect(checkAnswer(puzzle, r)).toBeNull();
      }),
    );
  });

  it('refuses JSON that is not an answer', () => {
    const puzzle = { id: 'x', width: 2, height: 1, rows: [[1]], columns: [[1], []], meta: {} };
    expect(() => readJsonOutput('no json here', puzzle)).toThrow(/no JSON object/);
    expect(() => readJsonOutput('{"status": "done"}', puzzle)).toThrow(/status "done"/);
    expect(() => readJsonOutput('{"status": "solved", "solutions": [["#."]], "grid": ["#"]}', puzzle)).toThrow(/grid: not 1 rows of 2 cells/);
    expect(() => readJsonOutput('{"status": "solved", "solutions": [["#!"]]}', puzzle)).toThrow(/not a cell/);
    expect(() => readJsonOutput('{"status": "constructor"}', puzzle)).toThrow(/status "constructor" is not one of/);
  });

  it('takes pretty-printed JSON, any case of the status word, and a unique grid without solutions', () => {
    const puzzle = { id: 'x', width: 2, height: 1, rows: [[1]], columns: [[1], []], meta: {} };
    const r = readJsonOutput(JSON.stringify({ status: 'UNIQUE', grid: ['#.'] }, null, 2), puzzle);
    expect([r.status, r.solutions.length, [...r.grid]]).toEqual(['unique', 1, [FILLED, EMPTY]]);
  });
});

describe('the dimacs-model adapter', () => {
  it('decodes a model of our CNF to the picture, and refuses a model with a cell left out', () => {
    fc.assert(
      fc.property(picturedPuzzle({ maxSide: 6 }), (puzzle) => {
        const cnf = encodeNonogram(puzzle);
        const cells = Array.from({ length: cnf.cellVars }, (_, i) => (puzzle.goal![i] === FILLED ? i + 1 : -(i + 1)));
        const answer = readModel(`c x\ns SATISFIABLE\nv ${cells.join(' ')} 0\n`, cnf.numVars, cnf.cellVars);
        expect([...decodeGrid(puzzle, (v) => answer.values[v] === 1)]).toEqual([...puzzle.goal!]);
        if (cells.length > 1) expect(() => readModel(`SAT\n${cells.slice(0, -1).join(' ')} 0\n`, cnf.numVars, cnf.cellVars)).toThrow(/truncated model/);
        expect(() => readModel(`SAT\n${cells.join(' ')}\n`, cnf.numVars, cnf.cellVars)).toThrow(/not ended by 0/);
      }),
      { numRuns: 50 },
    );
    expect(readModel('s UNSATISFIABLE\n', 4, 4).status).toBe('unsat');
    expect(EMPTY).toBe(2);
  });
});

describe('external solver settings', () => {
  it('split the command as a shell does and fill in placeholders word by word', () => {
    expect(commandWords('solver -q "a b" {puzzle}')).toEqual(['solver', '-q', 'a b', '{puzzle}']);
    expect(fillPlaceholders(['--in={puzzle}', '{{x}}', '{timeout}s'], { puzzle: '/t/p one.non', timeout: '3' })).toEqual(['--in=/t/p one.non', '{x}', '3s']);
    expect(commandWords(`solver 'it''s' "say \\"hi\\"" a\\'b 'c \\' d`)).toEqual(['solver', 'its', 'say "hi"', "a'b", 'c \\', 'd']);
  });

  it('refuse a quote left open, as a shell does, and take every quote a shell closes', () => {
    for (const [command, quote] of [
      ['cadical "{cnf}', '"'],
      ["cadical -q '{cnf}", "'"],
      [`solver "a \\" b`, '"'],
      [`solver 'a' 'b`, "'"],
    ])
      expect(() => commandWords(command!)).toThrow(`command: a ${quote} quote is not closed (a shell would refuse it)`);
    // Any text of letters, spaces, backslashes, quotes and #: a quote left open exactly when sh refuses it.
    fc.assert(
      fc.property(fc.stringMatching(/^[a b\\'"#]{0,12}$/), (text) => {
        const shell = spawnSync('sh', ['-n', '-c', `: ${text}`], { encoding: 'utf8' });
        expect(unclosedQuote(`solver ${text}`) !== '').toBe(shell.status !== 0);
      }),
      { numRuns: 150 },
    );
    // A comment is refused as a shell operator, not as the quote inside it; $'…' is read as the splitter reads it.
    expect(() => commandWords("solver {cnf} # it's")).toThrow(/shell operators/);
    expect(commandWords("solver $'it\\'s'")).toEqual(['solver', "it's"]);
    expect(unclosedQuote("solver $$'a\\'b'")).toBe("'"); // `$$` is no `$'`: the last quote opens`
    // Variables are left as written, braces included, quoted or not.
    expect(commandWords(`solver \${HOME}x "\${HOME}y" $HOME $$ "a$1" '\${Z}' \\$Q`)).toEqual(['solver', '${HOME}x', '${HOME}y', '$HOME', '$$', 'a$1', '${Z}', '$Q']);
    // A `#` inside a word is part of it, quoted or not; the words are those sh makes.
    expect(commandWords(`x a#b 'c#d' "e#f" g\\#h`)).toEqual(['x', 'a#b', 'c#d', 'e#f', 'g#h']);
    fc.assert(
      fc.property(fc.stringMatching(/^[a b\\'"#]{0,12}$/), (text) => {
        if (unclosedQuote(`x ${text}`) !== '' || text.endsWith('\\')) return; // a last backslash would escape what the loop puts after it
        const shell = spawnSync('sh', ['-c', `for w in x ${text}; do printf '%s\\0' "$w"; done`], { encoding: 'utf8' });
        const words = shell.stdout.split('\0').slice(0, -1);
        let split: string[];
        try {
          split = commandWords(`x ${text}`);
        } catch (err) {
          expect(String(err)).toMatch(/shell operators \(\{"comment"/); // a comment, which sh drops and we refuse
          return;
        }
        expect(split).toEqual(words);
      }),
      { numRuns: 200 },
    );
  });

  it('refuse what cannot run: shell operators, unknown placeholders, missing programs, mismatched formats', () => {
    const base = { input: 'non', output: 'grid' } as const;
    expect(() => resolveExternal({ ...base, command: 'node {puzzle} | tee x' })).toThrow(/shell operators/);
    expect(() => resolveExternal({ ...base, command: 'node {puzle}' })).toThrow(/unknown placeholder \{puzle\}/);
    expect(() => resolveExternal({ ...base, command: 'no-such-solver-here {puzzle}' })).toThrow(/not found on PATH/);
    expect(() => resolveExternal({ ...base, command: 'node {cnf}' })).toThrow(/\{cnf\} needs input cnf/);
    expect(() => resolveExternal({ input: 'non', output: 'dimacs-model', command: 'node {puzzle}' })).toThrow(/needs input cnf/);
    const ok = resolveExternal({ ...base, command: 'node {puzzle}' });
    expect(ok.program).toMatch(/^\/.*\/node$/);
    expect(ok.identity).toMatch(/@[0-9a-f]{12}$/);
    expect(ok.inputFile).toBe(true);
    expect(resolveExternal({ ...base, command: 'node -' }).inputFile).toBe(false);
  });
});
