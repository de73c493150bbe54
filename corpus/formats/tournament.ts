import { basename } from 'node:path';
import { clip, InputError } from '../errors.js';
import type { Puzzle } from '../model.js';
import {
  addProblem,
  buildPuzzles,
  keepProblem,
  newRawPuzzle,
  problemBudgets,
  splitClueText,
  type LoadOptions,
  type RawClueLine,
  type RawGoal,
  type RawPuzzle,
  type WantedPuzzles,
} from '../validate.js';
import { splitLines } from './text.js';
import { checkHeap } from '../heap-guard.js';

/**
 * The computer-tournament text format (TAAI, TCGA, ICGA): many square puzzles per file, each a line `$N`,
 * then N column clues, then N row clues, one line each, numbers separated by tabs (`0` or an empty line
 * for an empty line). The size is not written: it is half the number of lines of the puzzle.
 * A companion solutions file has `$N` and then one line of 0/1 values per row.
 */

const MARKER = /^\$\s*(\S*)/;

interface Section {
  kind: 'section';
  /** The label after `$` (the puzzle's number in the file). */
  label: string;
  /** 1-based line of the `$` marker. */
  line: number;
  /** Its lines are the file's lines from index `line` to `end` (exclusive): kept as a range, not copied. */
  end: number;
}

/** The sections after the first that repeat a label: their content is never read. */
interface Repeats {
  kind: 'repeats';
  label: string;
  /** Line of the first section with the label. */
  first: number;
  /** Lines of the first and the last repeat, and how many there are. */
  at: number;
  last: number;
  count: number;
}

/**
 * Cuts a tournament-format text at its `$` markers, in file order; text before the first marker is
 * an error. A label's repeats are counted, not kept (a file of millions of them must stay small in
 * memory), and stand as one entry where the first of them is.
 */
function sections(text: string, file: string): { lines: string[]; found: (Section | Repeats)[] } {
  const found: (Section | Repeats)[] = [];
  const first = new Map<string, number>();
  const repeats = new Map<string, Repeats>();
  let current: Section | null = null;
  const lines = splitLines(text, file);
  lines.forEach((raw, i) => {
    const m = MARKER.exec(raw.trim());
    if (m) {
      const label = m[1]!;
      const line = i + 1;
      const before = first.get(label);
      if (before === undefined) {
        first.set(label, line);
        current = { kind: 'section', label, line, end: line };
        found.push(current);
        return;
      }
      current = null;
      const known = repeats.get(label);
      if (known) {
        known.count++;
        known.last = line;
      } else {
        const rep: Repeats = { kind: 'repeats', label, first: before, at: line, last: line, count: 1 };
        repeats.set(label, rep);
        found.push(rep);
      }
    } else if (current) current.end = i + 1;
    else if (found.length === 0 && raw.trim() !== '') throw new InputError(file, i + 1, 'expected a "$N" line to start a puzzle');
  });
  if (found.length === 0) throw new InputError(file, 0, 'no puzzle found (no "$N" line)');
  return { lines, found };
}

/** The end of a section without its trailing blank lines (found in place, never by copying: a file of many blank lines must stay linear). */
function endOfContent(lines: string[], sec: Section): number {
  let end = sec.end;
  while (end > sec.line && lines[end - 1]!.trim() === '') end--;
  return end;
}

/** True when a text looks like the tournament format: its first non-blank line is a `$` marker. */
export const looksLikeTournament = (text: string) => /^\s*\$/.test(text.replace(/^\uFEFF/, ''));

/**
 * Reads the puzzles of a tournament-format text; with a solutions text, attaches solution $N to puzzle $N.
 * `wanted` as for readNon.
 */
export function readTournament(text: string, file: string, solutions?: { text: string; file: string }, wanted?: WantedPuzzles): RawPuzzle[] {
  const budget = problemBudgets(wanted);
  const { lines, found } = sections(text, file);
  // Only the puzzles to be built are read, and their solutions: `FILE#N` of a file of a thousand reads one.
  const labels = wanted ? new Set(found.filter((sec, k) => sec.kind === 'section' && wanted(k)).map((sec) => sec.label)) : undefined;
  const { goals, problems } = solutions ? readSolutions(solutions.text, solutions.file, labels) : NO_SOLUTIONS;
  return found.map((sec, k) => {
    if (sec.kind === 'repeats') {
      // Which of two a solution or a result belongs to is unknown: a repeat is reported, not read.
      const raw = newRawPuzzle(file, sec.at, `$${clip(sec.label)}`, budget(k));
      keepProblem(raw, duplicate(file, sec));
      raw.fatal = true;
      return raw;
    }
    const raw = newRawPuzzle(file, sec.line, `$${clip(sec.label)}`, budget(k));
    if (labels && !labels.has(sec.label)) return raw; // not built: its place in the file is all that counts
    raw.implicitSize = true;
    raw.meta.catalogue = `${basename(file)} $${sec.label}`;
    // Labels are unique here, so each problem of the solutions file is reported once.
    for (const problem of problems.get(sec.label) ?? []) keepProblem(raw, problem);
    // Trailing blank lines separate puzzles, except one that an odd count shows to be the last row's empty clue.
    let end = endOfContent(lines, sec);
    if ((end - sec.line) % 2 === 1 && end < sec.end) end++;
    const count = end - sec.line;
    if (count === 0 || count % 2 === 1) {
      addProblem(raw, sec.line, `$${clip(sec.label)}: ${count} clue lines; expected N column clues then N row clues`);
      raw.fatal = true;
      return raw;
    }
    // Clue line i (0-based index into the file's lines) is line i + 1. Each is an object: a puzzle of
    // millions of (blank) clue lines must end with one line, not V8's out-of-memory abort.
    const clueLines = (from: number, to: number) => {
      const read: RawClueLine[] = [];
      for (let i = from; i < to; i++) {
        checkHeap(file, i + 1);
        read.push(splitClueText(lines[i]!, i + 1));
      }
      return read;
    };
    const n = count / 2;
    raw.columns = { line: sec.line, lines: clueLines(sec.line, sec.line + n) };
    raw.rows = { line: sec.line, lines: clueLines(sec.line + n, end) };
    const goal = goals.get(sec.label);
    if (goal) raw.goal = goal;
    return raw;
  });
}

/** One problem for all the repeats of a label, at the first repeat. */
function duplicate(file: string, rep: Repeats): InputError {
  const more = rep.count > 1 ? `, and ${rep.count - 1} more repeat${rep.count === 2 ? '' : 's'} up to line ${rep.last}` : '';
  return new InputError(file, rep.at, `duplicate $${clip(rep.label)} (first on line ${rep.first}${more})`);
}

interface Solutions {
  goals: Map<string, RawGoal>;
  /** Problems of the solutions file (repeated labels), by the label of the puzzle to report them with. */
  problems: Map<string, InputError[]>;
}
const NO_SOLUTIONS: Solutions = { goals: new Map(), problems: new Map() };

/**
 * Solutions by label: each `$N` section's non-blank lines are picture rows of 0/1 values; the first
 * of a repeated label counts. With `labels`, only those are read.
 */
function readSolutions(text: string, file: string, labels?: ReadonlySet<string>): Solutions {
  const goals = new Map<string, RawGoal>();
  const problems = new Map<string, InputError[]>();
  const { lines, found } = sections(text, file);
  for (const sec of found) {
    if (sec.kind === 'repeats') {
      problems.set(sec.label, [duplicate(file, sec)]);
      continue;
    }
    if (labels && !labels.has(sec.label)) continue;
    const from = sec.line;
    goals.set(sec.label, {
      line: sec.line,
      file,
      label: `solution $${clip(sec.label)}`,
      rows: lines.slice(from, endOfContent(lines, sec)).map((text, j) => ({ text: text.split(/[\s,]+/).join(''), line: from + j + 1 })),
    });
  }
  return { goals, problems };
}

/** Parses a tournament-format text into checked puzzles (throws InputErrors naming file and line). */
export function parseTournament(
  text: string,
  file: string,
  options: LoadOptions & { solutionsText?: string; solutionsFile?: string } = {},
): Puzzle[] {
  const solutions =
    options.solutionsText !== undefined ? { text: options.solutionsText, file: options.solutionsFile ?? 'solutions' } : undefined;
  return buildPuzzles(readTournament(text, file, solutions), options);
}
