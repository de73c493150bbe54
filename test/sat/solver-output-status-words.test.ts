import { describe, expect, it } from 'vitest';
import { parseSolverOutput } from '../../solvers/sat/dimacs/solver-output.js';
import { problemsOf } from '../helpers/problems.js';

describe("parseSolverOutput's status words", () => {
  it('refuses the names of Object.prototype as statuses (`s toString` is no UNSATISFIABLE)', () => {
    for (const word of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      expect(problemsOf(() => parseSolverOutput(`s ${word}\n`, 3, 'm.txt'))).toEqual([['m.txt', 1, `unknown solver status "${word}"`]]);
      // A bare word is a status line only when it is one of the statuses: otherwise it is a bad literal.
      expect(problemsOf(() => parseSolverOutput(`${word}\n`, 3, 'm.txt'))).toEqual([['m.txt', 1, 'literals before a status line ("s SATISFIABLE" or "SAT")']]);
    }
    expect(parseSolverOutput('s UNSATISFIABLE\n', 3).status).toBe('unsat');
    expect(parseSolverOutput('SAT\n1 -2 3 0\n', 3).status).toBe('sat');
  });
});
