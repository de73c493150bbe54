import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { InputError } from '../../corpus/errors.js';
import { parseDimacs, writeDimacs } from '../../solvers/sat/dimacs/dimacs.js';
import { parseSolverOutput } from '../../solvers/sat/dimacs/solver-output.js';

/** The InputError a parse throws (fails the test when it does not throw one). */
function errorOf(parse: () => unknown): InputError {
  try {
    parse();
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return err as InputError;
  }
  throw new Error('expected a InputError');
}

describe('DIMACS', () => {
  const cnfs = fc.integer({ min: 0, max: 30 }).chain((numVars) =>
    fc.record({
      numVars: fc.constant(numVars),
      clauses: fc.array(
        numVars === 0
          ? fc.constant([] as number[])
          : fc.array(fc.integer({ min: 1, max: numVars }).chain((v) => fc.constantFrom(v, -v)), { maxLength: 6 }),
        { maxLength: 20 },
      ),
      comments: fc.array(fc.stringMatching(/^[a-z0-9 =*.,]{0,20}$/), { maxLength: 3 }),
    }),
  );

  it('reads back what it writes', () => {
    fc.assert(
      fc.property(cnfs, (cnf) => {
        const back = parseDimacs(writeDimacs(cnf), 'x.cnf');
        expect(back.numVars).toBe(cnf.numVars);
        expect(back.clauses).toEqual(cnf.clauses);
        expect(back.comments).toEqual(cnf.comments.map((c) => c.trim()));
      }),
    );
  });

  it('writes a comment holding line breaks (a puzzle title may) as several comment lines', () => {
    const text = writeDimacs({ numVars: 1, clauses: [[1]], comments: ['puzzle "two\nlines\r\nand\u2028more"'] });
    expect(text).toBe('c puzzle "two\nc lines\nc and\nc more"\np cnf 1 1\n1 0\n');
    expect(parseDimacs(text).comments).toEqual(['puzzle "two', 'lines', 'and', 'more"']);
  });

  it('reads clauses spread over lines, several per line, comments anywhere and a SATLIB % end', () => {
    const text = 'c first\nc\np cnf 4  3\n1 -2\n 3 0 -4 0\nc between\n2\n0\n%\n0\n';
    const cnf = parseDimacs(text);
    expect(cnf).toEqual({ numVars: 4, clauses: [[1, -2, 3], [-4], [2]], comments: ['first', ''] });
  });

  it('names the file and line of malformed input', () => {
    const cases: [string, number, RegExp][] = [
      ['1 2 0\n', 1, /before the "p cnf" header/],
      ['p cnf x 2\n', 1, /malformed header/],
      ['p dnf 2 1\n1 0\n', 1, /malformed header/],
      ['p cnf 2 1\np cnf 2 1\n', 2, /second header \(the first is on line 1\)/],
      ['p cnf 2 1\n1 a 0\n', 2, /"a" is not an integer/],
      ['p cnf 2 1\n\n1 3 0\n', 3, /literal 3 names a variable above 2/],
      ['p cnf 2 2\n1 0\n', 1, /declares 2 clauses, found 1/],
      ['p cnf 2 1\n1 0\n-2\n', 3, /not ended by 0/],
      ['c only comments\n', 0, /no "p cnf" header/],
    ];
    for (const [text, line, message] of cases) {
      const err = errorOf(() => parseDimacs(text, 'bad.cnf'));
      expect(err.file).toBe('bad.cnf');
      expect(err.line).toBe(line);
      expect(err.message).toMatch(message);
      expect(err.message.startsWith(`bad.cnf:${line}: `)).toBe(true);
    }
  });
});

describe('solver output', () => {
  it('reads the competition format', () => {
    const answer = parseSolverOutput('c kissat\ns SATISFIABLE\nv 1 -2\nv 3 0\n', 4);
    expect(answer.status).toBe('sat');
    expect(Array.from(answer.values)).toEqual([0, 1, -1, 1, 0]);
  });

  it("reads MiniSat's result file", () => {
    const answer = parseSolverOutput('SAT\n-1 2 -3 0\n', 3);
    expect(answer.status).toBe('sat');
    expect(Array.from(answer.values)).toEqual([0, -1, 1, -1]);
    expect(parseSolverOutput('UNSAT\n', 3).status).toBe('unsat');
    expect(parseSolverOutput('s UNSATISFIABLE\n', 3).status).toBe('unsat');
    // A comment line is `c` and any blank after it, as in DIMACS input.
    expect(parseSolverOutput('c\tfrom a solver that tabs\ns SATISFIABLE\nv 1 -2 3 0\n', 3).status).toBe('sat');
    expect(parseSolverOutput('INDET\n', 3).status).toBe('unknown');
  });

  it('names the line of malformed answers', () => {
    const cases: [string, number, RegExp][] = [
      ['1 2 0\n', 1, /before a status line/],
      ['s SATISFIABLE\nv 1 x 0\n', 2, /"x" is not an integer/],
      ['s SATISFIABLE\nv 1 -1 0\n', 2, /both values/],
      ['s SATISFIABLE\nv 9 0\n', 2, /above 3/],
      ['s SATISFIABLE\nv 1 2\n\n', 2, /not ended by 0/],
      ['s SATISFIABLE\n', 1, /no model follows/],
      ['s MAYBE\n', 1, /unknown solver status/],
      ['SAT\n1 0\nSAT\n', 3, /second status line/],
      ['s UNSATISFIABLE\nv 1 0\n', 2, /after a unsat status/],
      ['s SATISFIABLE\nv 1 0\nv 2 0\n', 3, /after the terminating 0/],
      ['c nothing\n', 0, /no solver status/],
      // Quoted input is cut to 80 characters, so a problem stays one short line.
      [`s SATISFIABLE\nv 1 ${'x'.repeat(100_000)} 0\n`, 2, /^model\.txt:2: "x{79}…" is not an integer literal$/],
      [`s ${'M'.repeat(100_000)}\n`, 1, /^model\.txt:1: unknown solver status "M{79}…"$/],
    ];
    for (const [text, line, message] of cases) {
      const err = errorOf(() => parseSolverOutput(text, 3, 'model.txt'));
      expect(err.line).toBe(line);
      expect(err.message).toMatch(message);
    }
  });
});
