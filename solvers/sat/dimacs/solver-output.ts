import { clip, InputError } from '../../../corpus/errors.js';
import { checkLineCount } from '../../../corpus/heap-guard.js';

/** What an external SAT solver reported. */
export interface SolverAnswer {
  status: 'sat' | 'unsat' | 'unknown';
  /** Per variable (1-based, index 0 unused): 1 true, -1 false, 0 not given. Empty unless sat. */
  values: Int8Array;
}

/** A Map, not an object: a word such as `constructor` or `toString` must not find Object.prototype's. */
const STATUS = new Map<string, SolverAnswer['status']>([
  ['SATISFIABLE', 'sat'],
  ['SAT', 'sat'],
  ['UNSATISFIABLE', 'unsat'],
  ['UNSAT', 'unsat'],
  ['UNKNOWN', 'unknown'],
  ['INDET', 'unknown'],
  ['INDETERMINATE', 'unknown'],
]);

/**
 * Reads a SAT solver's answer in either common form:
 * - the competition output: `c` comments, `s SATISFIABLE`, then `v` lines of literals ending with 0;
 * - MiniSat's result file: `SAT` on the first line, then the literals ending with 0.
 * Literals above `numVars` are rejected, as are contradictory ones; malformed input throws a
 * InputError with the 1-based line.
 */
export function parseSolverOutput(text: string, numVars: number, file = '<model>'): SolverAnswer {
  checkLineCount(text, file);
  const lines = text.split(/\r?\n/);
  const fail = (line: number, detail: string): never => {
    throw new InputError(file, line, detail);
  };
  let status: SolverAnswer['status'] | null = null;
  let statusLine = 0;
  const values = new Int8Array(numVars + 1);
  let ended = false;
  let sawLiterals = false;
  let lastLiteralLine = 0;
  let lineNo = 0;
  for (const raw of lines) {
    lineNo++;
    const line = raw.trim();
    if (line === '' || /^c(\s|$)/.test(line)) continue;
    let rest = line;
    if (line.startsWith('s ') || STATUS.has(line)) {
      if (status !== null) fail(lineNo, `second status line (the first is on line ${statusLine})`);
      const word = line.startsWith('s ') ? line.slice(2).trim() : line;
      const parsed = STATUS.get(word);
      if (parsed === undefined) fail(lineNo, `unknown solver status "${clip(word)}"`);
      status = parsed!;
      statusLine = lineNo;
      continue;
    }
    if (line.startsWith('v ') || line === 'v') rest = line.slice(1);
    if (status === null) fail(lineNo, 'literals before a status line ("s SATISFIABLE" or "SAT")');
    if (status !== 'sat') fail(lineNo, `literals after a ${status} status`);
    if (ended) fail(lineNo, 'literals after the terminating 0');
    for (const token of rest.trim().split(/\s+/)) {
      if (token === '') continue;
      if (!/^[+-]?\d+$/.test(token)) fail(lineNo, `"${clip(token)}" is not an integer literal`);
      const lit = Number(token);
      sawLiterals = true;
      lastLiteralLine = lineNo;
      if (lit === 0) {
        ended = true;
        continue;
      }
      if (ended) fail(lineNo, 'literals after the terminating 0');
      const v = Math.abs(lit);
      // Quoted as written: past 2^53 a number prints rounded (1e+20), and no CNF has that many variables.
      if (v > Number.MAX_SAFE_INTEGER) fail(lineNo, `literal ${clip(token)} is too large`);
      if (v > numVars) fail(lineNo, `literal ${clip(token)} names a variable above ${numVars}`);
      const value = lit > 0 ? 1 : -1;
      if (values[v] === -value) fail(lineNo, `variable ${v} is given both values`);
      values[v] = value;
    }
  }
  if (status === null) fail(0, 'no solver status ("s SATISFIABLE" / "SAT" / "UNSAT" ...)');
  if (status === 'sat' && !sawLiterals) fail(statusLine, 'satisfiable, but no model follows');
  if (status === 'sat' && !ended) fail(lastLiteralLine, 'the model is not ended by 0');
  return { status: status!, values };
}
