import { describe, expect, it } from 'vitest';
import { parseSolverOutput } from '../../solvers/sat/dimacs/solver-output.js';
import { problemsOf } from '../helpers/problems.js';

describe('parseSolverOutput literals out of range', () => {
  it('quotes a literal as written, never rounded', () => {
    expect(problemsOf(() => parseSolverOutput('s SATISFIABLE\nv 1 -99999999999999999999 0\n', 3, 'm.txt'))).toEqual([
      ['m.txt', 2, 'literal -99999999999999999999 is too large'],
    ]);
    expect(problemsOf(() => parseSolverOutput('SAT\n+0007 0\n', 3, 'm.txt'))).toEqual([['m.txt', 2, 'literal +0007 names a variable above 3']]);
  });
});
