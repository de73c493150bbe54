import type { Command } from 'commander';
import { InputError, oneLineText, withinMemory } from '../../../corpus/errors.js';
import { describeViolation, gridToRows, verifyGrid } from '../../../corpus/grid.js';
import { loadPuzzle } from '../../../corpus/load.js';
import type { Puzzle } from '../../../corpus/model.js';
import { dimacsPieces } from '../../../solvers/sat/dimacs/dimacs.js';
import { cnfComments } from '../../../solvers/sat/encodings/cnf-comments.js';
import { decodeGrid, DEFAULT_ENCODING, encodeNonogramFlat, encodingNamed, ENCODINGS, type EncodingName, type FlatNonogramCnf } from '../../../solvers/sat/encodings/encode.js';
import { parseSolverOutput } from '../../../solvers/sat/dimacs/solver-output.js';
import { writeOutputFile } from '../../io/output-path.js';
import { readInput } from '../../io/read-input.js';
import { EXIT_FAILED, UsageError } from '../../io/thrown.js';
import { loadOptionsOf, maxSizeOption, nonEmpty } from '../options.js';

interface CnfCommandOptions {
  out?: string;
  decode?: string;
  maxSize?: number;
  encoding: string;
}

/** Exit code when a model does not solve the puzzle (or the solver found none). */
export const EXIT_NOT_A_SOLUTION = EXIT_FAILED;

/** What UNSATISFIABLE says of the puzzle: that it has no solution, unless its file gives one, which proves the solver (or the CNF it was given) wrong. */
const unsatReading = (puzzle: Puzzle) =>
  puzzle.goal && verifyGrid(puzzle, puzzle.goal).length === 0
    ? "UNSATISFIABLE, but the puzzle's file gives a solution: the solver is wrong, or was given another CNF"
    : 'UNSATISFIABLE (the puzzle has no solution)';

/** The grid a solver's model file gives, or an exit with a message when it gives none. */
function decodeModelFile(puzzle: Puzzle, cnf: FlatNonogramCnf, encoding: EncodingName, modelPath: string): void {
  let answer;
  try {
    answer = parseSolverOutput(readInput(modelPath), cnf.numVars, modelPath);
  } catch (error) {
    // The automaton encoding has more variables than blocks: its models overrun a blocks decode.
    if (encoding === 'blocks' && error instanceof InputError && / names a variable above /.test(error.detail))
      throw new InputError(error.file, error.line, `${error.detail} (decoding as encoding blocks: was the CNF written with --encoding automaton?)`);
    throw error;
  }
  if (answer.status !== 'sat') {
    process.stderr.write(
      `nonobench: ${oneLineText(modelPath)}: the solver reports ${answer.status === 'unsat' ? unsatReading(puzzle) : 'no answer (UNKNOWN)'}\n`,
    );
    process.exitCode = EXIT_NOT_A_SOLUTION;
    return;
  }
  for (let v = 1; v <= cnf.cellVars; v++) {
    if (answer.values[v] === 0) {
      const r = Math.floor((v - 1) / puzzle.width);
      const c = (v - 1) % puzzle.width;
      throw new InputError(modelPath, 0, `the model gives no value to variable ${v} (cell row ${r + 1}, column ${c + 1})`);
    }
  }
  const grid = decodeGrid(puzzle, (v) => answer.values[v] === 1);
  process.stdout.write(`${gridToRows(grid, puzzle.width).join('\n')}\n`);
  const violations = verifyGrid(puzzle, grid);
  if (violations.length > 0) {
    for (const v of violations) process.stderr.write(`not a solution: ${describeViolation(v)}\n`);
    process.exitCode = EXIT_NOT_A_SOLUTION;
  }
}

export function registerCnf(program: Command): void {
  program
    .command('cnf')
    .description('write a puzzle as DIMACS CNF for outside SAT solvers, or (--decode) read a solver model back as a grid')
    .argument('<puzzle>', 'puzzle file (FILE#N for a member of a bundle)')
    .option('-o, --out <file>', 'write the CNF to this file instead of standard output (-: standard output)', nonEmpty('--out'))
    .option(
      '--decode <model>',
      'read a solver model ("s SATISFIABLE" + "v" lines, or MiniSat\'s "SAT" result file), print the grid, exit 1 unless it solves the puzzle',
      nonEmpty('--decode'),
    )
    .option('--encoding <name>', `the line encoding: ${ENCODINGS.join(' or ')} (see the README)`, DEFAULT_ENCODING)
    .addOption(maxSizeOption())
    .action((puzzlePath: string, opts: CnfCommandOptions) => {
      if (opts.decode !== undefined && opts.out !== undefined) throw new UsageError('--out names the file of a CNF, and --decode writes none (it prints the grid): give one of them');
      let encoding: EncodingName;
      try {
        encoding = encodingNamed(opts.encoding);
      } catch (error) {
        throw new UsageError(`--encoding: ${(error as Error).message}`);
      }
      const puzzle = loadPuzzle(puzzlePath, loadOptionsOf(opts));
      // Flat clauses, never an array per clause: the CNF of a large puzzle has tens of millions of them.
      const cnf = withinMemory(puzzle.meta.source ?? puzzlePath, puzzle.width, puzzle.height, () => encodeNonogramFlat(puzzle, { encoding })!);
      if (opts.decode !== undefined) {
        decodeModelFile(puzzle, cnf, encoding, opts.decode);
        return;
      }
      // A comment is one line: a line break in the puzzle's file name or title would end it and corrupt the CNF.
      // In pieces: the text of a large puzzle's CNF is longer than one string can be.
      const text = dimacsPieces({ ...cnf, comments: cnfComments(puzzle, cnf, encoding).map(oneLineText) });
      if (opts.out !== undefined && opts.out !== '-') writeOutputFile(opts.out, text);
      else for (const piece of text) process.stdout.write(piece);
    });
}
