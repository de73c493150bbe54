import { InputError } from '../../../corpus/errors.js';

/** A formula in conjunctive normal form: clauses of DIMACS literals (v or -v, v in 1..numVars). */
export interface Cnf {
  numVars: number;
  clauses: number[][];
  /** Comment lines (without the leading `c `), written before the header. */
  comments?: string[];
}

const INTEGER = /^[+-]?\d+$/;

/**
 * Reads DIMACS CNF: `c` comment lines, one `p cnf V C` header, then clauses as integers that may
 * span lines, each ended by `0`. A `%` line (SATLIB's end marker) ends the input. Malformed input
 * throws a InputError naming the file and the 1-based line.
 */
export function parseDimacs(text: string, file = '<input>'): Cnf {
  const lines = text.split(/\r?\n/);
  const fail = (line: number, detail: string): never => {
    throw new InputError(file, line, detail);
  };
  let numVars = -1;
  let declared = 0;
  let headerLine = 0;
  const comments: string[] = [];
  const clauses: number[][] = [];
  let clause: number[] = [];
  let clauseLine = 0;
  let lineNo = 0;
  for (const raw of lines) {
    lineNo++;
    const line = raw.trim();
    if (line === '') continue;
    if (line === '%') break;
    if (line[0] === 'c' && (line.length === 1 || /\s/.test(line[1]!))) {
      if (numVars < 0) comments.push(line.slice(1).trim());
      continue;
    }
    if (line[0] === 'p') {
      if (numVars >= 0) fail(lineNo, `second header (the first is on line ${headerLine})`);
      const m = /^p\s+cnf\s+(\d+)\s+(\d+)$/.exec(line);
      if (!m) fail(lineNo, `malformed header "${line}": expected "p cnf VARIABLES CLAUSES"`);
      numVars = Number(m![1]);
      declared = Number(m![2]);
      headerLine = lineNo;
      continue;
    }
    if (numVars < 0) fail(lineNo, `clause data before the "p cnf" header`);
    for (const token of line.split(/\s+/)) {
      if (!INTEGER.test(token)) fail(lineNo, `"${token}" is not an integer literal`);
      const lit = Number(token);
      if (lit === 0) {
        clauses.push(clause);
        clause = [];
        continue;
      }
      if (Math.abs(lit) > numVars) fail(lineNo, `literal ${lit} names a variable above ${numVars} (header, line ${headerLine})`);
      if (clause.length === 0) clauseLine = lineNo;
      clause.push(lit);
    }
  }
  if (numVars < 0) fail(0, 'no "p cnf" header');
  if (clause.length > 0) fail(clauseLine, 'last clause is not ended by 0');
  if (clauses.length !== declared)
    fail(headerLine, `header declares ${declared} clauses, found ${clauses.length}`);
  return { numVars, clauses, comments };
}

/** Clauses in one flat list of literals (as the encoders write them): clause i is lits[ends[i-1] .. ends[i]). */
export interface FlatClauseList {
  count: number;
  lits: Int32Array;
  ends: Int32Array;
}

/** Lines joined into one piece of the text at a time: a large puzzle's CNF has millions of clauses. */
const LINES_PER_PIECE = 1 << 16;

/**
 * DIMACS CNF text in pieces of many lines: comment lines, the header, one clause per line. Flat clauses are
 * written as they lie, without an array per clause; a 300×300 puzzle's automaton CNF has tens of millions of
 * clauses, and its text is longer than a JavaScript string can be.
 */
export function* dimacsPieces(cnf: Omit<Cnf, 'clauses'> & { clauses: number[][] | FlatClauseList }): Generator<string> {
  const out: string[] = [];
  // A line break inside a comment (a puzzle title may hold one) would start a line that is not a comment.
  for (const comment of cnf.comments ?? []) for (const part of comment.split(/\r\n|[\r\n\u2028\u2029]/)) out.push(part === '' ? 'c' : `c ${part}`);
  const { clauses } = cnf;
  const count = Array.isArray(clauses) ? clauses.length : clauses.count;
  out.push(`p cnf ${cnf.numVars} ${count}`);
  yield `${out.join('\n')}\n`;
  let lines: string[] = [];
  for (let i = 0; i < count; i++) {
    let line = '';
    if (Array.isArray(clauses)) for (const lit of clauses[i]!) line += `${lit} `;
    else for (let k = i === 0 ? 0 : clauses.ends[i - 1]!; k < clauses.ends[i]!; k++) line += `${clauses.lits[k]!} `;
    lines.push(`${line}0`);
    if (lines.length === LINES_PER_PIECE) {
      yield `${lines.join('\n')}\n`;
      lines = [];
    }
  }
  if (lines.length > 0) yield `${lines.join('\n')}\n`;
}

/** Writes DIMACS CNF as one text (see dimacsPieces). */
export const writeDimacs = (cnf: Omit<Cnf, 'clauses'> & { clauses: number[][] | FlatClauseList }): string => [...dimacsPieces(cnf)].join('');
