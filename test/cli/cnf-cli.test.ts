import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gridToRows } from '../../corpus/grid.js';
import { loadPuzzle } from '../../corpus/load.js';
import { parseDimacs } from '../../solvers/sat/dimacs/dimacs.js';
import { encodeNonogram, encodeNonogramFlat } from '../../solvers/sat/encodings/encode.js';
import { generateRandomPuzzle } from '../../corpus/generate.js';
import { createRng } from '../../corpus/random.js';
import { writeNon } from '../../corpus/formats/non.js';
import { SatSolver } from '../../solvers/sat/engine/solver.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const CLI = 'dist/harness/cli.js';
const PUZZLE = 'corpus/puzzles/webpbn/1.non';

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const tmp = tempDirs('cnf');

/** Solves DIMACS text with our engine and writes the model in the given answer format. */
function modelFile(dir: string, dimacs: string, format: 'competition' | 'minisat', flipVariable = 0): string {
  const cnf = parseDimacs(dimacs);
  const s = new SatSolver(cnf.numVars);
  cnf.clauses.forEach((c) => s.addClause(c));
  expect(s.solve()).toBe('sat');
  const lits = Array.from({ length: cnf.numVars }, (_, i) => ((s.value(i + 1) !== (i + 1 === flipVariable)) ? i + 1 : -(i + 1)));
  const text =
    format === 'competition'
      ? `c our engine\ns SATISFIABLE\nv ${lits.slice(0, 10).join(' ')}\nv ${lits.slice(10).join(' ')} 0\n`
      : `SAT\n${lits.join(' ')} 0\n`;
  const path = join(dir, `${format}-${flipVariable}.model`);
  writeFileSync(path, text);
  return path;
}

describe('nonobench cnf', () => {
  const puzzle = loadPuzzle(PUZZLE);
  let written: ReturnType<typeof cli> | undefined;
  /** The command's standard output for PUZZLE, run once. */
  const dimacsText = () => (written ??= cli('cnf', PUZZLE)).stdout;

  it('writes the encoding as DIMACS with a header naming the puzzle, its size and the cell numbering', () => {
    const stdout = dimacsText();
    expect(written!.code).toBe(0);
    const cnf = parseDimacs(stdout, 'stdout');
    const ours = encodeNonogram(puzzle);
    expect(cnf.numVars).toBe(ours.numVars);
    expect(cnf.clauses).toEqual(ours.clauses);
    const header = cnf.comments!.join('\n');
    expect(header).toContain(`puzzle ${puzzle.id}`);
    expect(header).toContain(`size ${puzzle.width}x${puzzle.height}`);
    expect(header).toContain(`is variable r*${puzzle.width}+c+1`);
    expect(header).toContain(`variables 1..${puzzle.width * puzzle.height} are the cells`);
  });

  it('writes the same text to --out', () => {
    const dir = tmp();
    const out = join(dir, 'p.cnf');
    expect(cli('cnf', PUZZLE, '--out', out).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(dimacsText());
  });

  it('writes to standard output for --out -, as convert does, and leaves no file named -', () => {
    const dir = tmp();
    cpSync(PUZZLE, join(dir, PUZZLE));
    const r = spawnSync(process.execPath, [join(process.cwd(), CLI), 'cnf', PUZZLE, '--out', '-'], { encoding: 'utf8', cwd: dir });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(dimacsText());
    expect(readdirSync(dir)).toEqual(['corpus']);
  });

  it('decodes a model of its CNF, in either answer format, into the goal', () => {
    const dir = tmp();
    const dimacs = dimacsText();
    for (const format of ['competition', 'minisat'] as const) {
      const r = cli('cnf', '--decode', modelFile(dir, dimacs, format), PUZZLE);
      expect(r.code).toBe(0);
      expect(r.stdout.trim().split('\n')).toEqual(gridToRows(puzzle.goal!, puzzle.width));
    }
  });

  it('exits 1 when the model does not solve the puzzle or the solver found none', () => {
    const dir = tmp();
    const wrong = cli('cnf', '--decode', modelFile(dir, dimacsText(), 'minisat', 1), PUZZLE);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/not a solution: row 1/);
    const unsat = join(dir, 'unsat.model');
    writeFileSync(unsat, 's UNSATISFIABLE\n');
    const r = cli('cnf', '--decode', unsat, PUZZLE);
    expect(r.code).toBe(1);
    // The puzzle's file gives a solution, so UNSATISFIABLE is the solver's error, not the puzzle's lack of one.
    expect(r.stderr).toMatch(/UNSATISFIABLE, but the puzzle's file gives a solution/);
    const clues = join(dir, 'clues.non');
    writeFileSync(clues, 'width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n');
    expect(cli('cnf', '--decode', unsat, clues).stderr).toMatch(/reports UNSATISFIABLE \(the puzzle has no solution\)\n$/);
  });

  it('exits 2 with the line for a malformed model, and for one that leaves a cell out', () => {
    const dir = tmp();
    const bad = join(dir, 'bad.model');
    writeFileSync(bad, 's SATISFIABLE\nv 1 2 three 0\n');
    const r = cli('cnf', '--decode', bad, PUZZLE);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad}:2: "three" is not an integer literal`);
    const partial = join(dir, 'partial.model');
    writeFileSync(partial, 'SAT\n1 -2 0\n');
    const p = cli('cnf', '--decode', partial, PUZZLE);
    expect(p.code).toBe(2);
    expect(p.stderr).toMatch(/no value to variable 3 \(cell row 1, column 3\)/);
    // --out names a CNF's file: with --decode, which writes none, it was silently ignored.
    const both = cli('cnf', '--decode', partial, PUZZLE, '--out', join(dir, 'never.cnf'));
    expect([both.code, both.stderr.split('\n')[0]]).toEqual([2, 'nonobench: --out names the file of a CNF, and --decode writes none (it prints the grid): give one of them']);
    expect(existsSync(join(dir, 'never.cnf'))).toBe(false);
  });

  it('writes the automaton encoding with --encoding automaton, decodes its models with it, and says why a blocks decode refuses them', () => {
    const dir = tmp();
    const r = cli('cnf', PUZZLE, '--encoding', 'automaton');
    expect(r.code).toBe(0);
    const cnf = parseDimacs(r.stdout, 'stdout');
    const ours = encodeNonogram(puzzle, { encoding: 'automaton' });
    expect(cnf.clauses).toEqual(ours.clauses);
    expect(cnf.comments![0]).toBe('nonobench CNF encoding of a nonogram (encoding automaton)');
    expect(cnf.numVars).toBeGreaterThan(encodeNonogram(puzzle).numVars);
    const model = modelFile(dir, r.stdout, 'minisat');
    const decoded = cli('cnf', '--decode', model, PUZZLE, '--encoding', 'automaton');
    expect(decoded.code).toBe(0);
    expect(decoded.stdout.trim().split('\n')).toEqual(gridToRows(puzzle.goal!, puzzle.width));
    const mismatched = cli('cnf', '--decode', model, PUZZLE);
    expect(mismatched.code).toBe(2);
    expect(mismatched.stderr).toMatch(/names a variable above \d+ \(decoding as encoding blocks: was the CNF written with --encoding automaton\?\)/);
  });

  it('writes a large puzzle\'s CNF from its flat clauses, within a heap its arrays of clauses overflowed', () => {
    // An 80×80 automaton CNF: 450,000 clauses. As an array per clause and one string, it needed over 200 MB
    // of heap (V8 aborted, exit 134); a 300×300 one (31 million clauses) did so on the default heap.
    const dir = tmp();
    const file = join(dir, 'big.non');
    const big = generateRandomPuzzle(80, 80, 0.5, createRng(1));
    writeFileSync(file, writeNon(big));
    const r = spawnSync(process.execPath, ['--max-old-space-size=64', CLI, 'cnf', file, '--encoding', 'automaton'], { encoding: 'utf8', maxBuffer: 1 << 30 });
    expect([r.status, r.stderr]).toEqual([0, '']);
    const flat = encodeNonogramFlat(big, { encoding: 'automaton' })!;
    expect(/^p .*$/m.exec(r.stdout)?.[0]).toBe(`p cnf ${flat.numVars} ${flat.clauses.count}`);
    // Six comment lines and the header, then one line per clause.
    expect(r.stdout.split('\n').length - 1).toBe(7 + flat.clauses.count);
  });

  it('refuses an unknown --encoding before reading anything', () => {
    const r = cli('cnf', PUZZLE, '--encoding', 'ladder');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown encoding "ladder" (known: blocks, automaton)');
    expect(r.stderr).toContain('(see nonobench cnf --help)');
    expect(r.stdout).toBe('');
  });

  it('bench/sat.js refuses a bad --encoding or --param in one line, before any work', () => {
    const bench = (...args: string[]) => spawnSync(process.execPath, ['dist/test/bench/sat.js', ...args], { encoding: 'utf8' });
    const encoding = bench('--encoding', 'ladder');
    expect(encoding.status).toBe(2);
    expect(encoding.stderr).toBe('bench/sat: --encoding: unknown encoding "ladder" (known: blocks, automaton)\n');
    expect(encoding.stdout).toBe('');
    const param = bench('--param', 'cellDecisions');
    expect(param.status).toBe(2);
    expect(param.stderr).toBe('bench/sat: --param expects key=value, got "cellDecisions"\n');
  });
});
