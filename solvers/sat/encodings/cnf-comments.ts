import type { Puzzle } from '../../../corpus/model.js';
import { DEFAULT_ENCODING, type EncodingName, type NonogramCnf } from './encode.js';

/** What the comments say of a CNF: its variable counts (its clauses may be in either form). */
type CnfCounts = Pick<NonogramCnf, 'numVars' | 'cellVars'>;

/** The header comments of an exported CNF: enough for an outside tool to map cells to variables. */
export function cnfComments(puzzle: Puzzle, cnf: CnfCounts, encoding: EncodingName): string[] {
  const { width, height } = puzzle;
  const title = puzzle.meta.title ? ` "${puzzle.meta.title}"` : '';
  const source = puzzle.meta.source ? ` from ${puzzle.meta.source}` : '';
  // Some puzzles need no auxiliary variable at all (a blank one, for instance): then there are cells only.
  const what = encoding === 'blocks' ? 'block starts ("block b starts at p or later")' : 'line-automaton states';
  const aux = cnf.numVars > cnf.cellVars ? `; ${cnf.cellVars + 1}..${cnf.numVars} are ${what}` : '';
  return [
    `nonobench CNF encoding of a nonogram (encoding ${encoding})`,
    `puzzle ${puzzle.id}${title}${source}`,
    `size ${width}x${height} (width x height)`,
    `cell (row r, column c), counted from 0 at the top left, is variable r*${width}+c+1 (true = filled)`,
    `variables 1..${cnf.cellVars} are the cells${aux}`,
    `read a solver model back with: nonobench cnf --decode MODEL PUZZLE${encoding === DEFAULT_ENCODING ? '' : ` --encoding ${encoding}`}`,
  ];
}
