import { clip, InputError, MAX_FILE_PROBLEMS, MAX_QUOTED, ProblemLog } from './errors.js';
import { checkHeap } from './heap-guard.js';
import { verifyGrid } from './grid.js';
import { EMPTY, FILLED, makePuzzle, type Clue, type Puzzle, type PuzzleMeta } from './model.js';

/**
 * Every reader turns its text into RawPuzzles (what the file says, with line numbers) and this module
 * turns those into Puzzles or precise errors. Keeping the checks here gives every format the same
 * messages and the same limits.
 */

/** Default cap on width and height: a typo such as `width 2000` should fail fast, not allocate. */
export const DEFAULT_MAX_SIZE = 200;

export interface LoadOptions {
  /** Largest accepted width or height (default 200). */
  maxSize?: number;
  /** Tournament files: a solutions file to attach (default: the sibling `…solutions.txt`, when present). */
  solutions?: string;
}

/** One item of a clue line as written (`"3"`, `"-1"`, `"2.5"`), with its line. */
export interface RawItem {
  text: string;
  line: number;
}

export interface RawClueLine {
  line: number;
  items: RawItem[];
}

/** The `rows` or `columns` clues of a puzzle and the line of the key that introduced them. */
export interface RawBlock {
  line: number;
  lines: RawClueLine[];
}

export interface RawValue {
  text: string;
  line: number;
}

/** A goal picture: `0`/`1` characters (formats map their own characters before this), row-major. */
export interface RawGoal {
  line: number;
  /** Either the whole picture in one string … */
  text?: string;
  /** … or one string per picture row with its line (XML images, tournament solutions). */
  rows?: RawValue[];
  /** What to call it in messages: `goal` or e.g. `solution $3`. */
  label: string;
  /** Set when the goal comes from another file (tournament solutions): errors then point into that file. */
  file?: string;
}

export interface RawPuzzle {
  file: string;
  /** Line where the puzzle starts: 0 for a single-puzzle file; used for problems of the puzzle as a whole. */
  line: number;
  /** `puzzle 3` for members of multi-puzzle files: prefixes problems of the puzzle as a whole. */
  label?: string;
  width?: RawValue;
  height?: RawValue;
  /** Formats without width/height keys take the size from the clue counts. */
  implicitSize?: boolean;
  rows?: RawBlock;
  columns?: RawBlock;
  goal?: RawGoal;
  meta: PuzzleMeta;
  /** Problems the reader already found (syntax, colour); reported together with the checks below. */
  problems: InputError[];
  /** Further problems the reader found once its file's budget was spent: counted, not kept. */
  more: number;
  /** The budget shared by the puzzles of its file (see addProblem). */
  budget: ProblemBudget;
  /** Set by readers when their problems make every further check noise (a colour puzzle, an unreadable layout). */
  fatal?: boolean;
}

/** Members of a bundle, 1-based and inclusive: `FILE#N` is N to N, `FILE#A-B` is A to B. */
export interface MemberRange {
  first: number;
  last: number;
  /** `N` or `A-B` as written, for messages. */
  text?: string;
}

/** How many more problems the readers of one file may keep as messages. */
export interface ProblemBudget {
  left: number;
}

/** Which puzzles of a file, by 0-based index, will be built (and so have their problems reported). */
export type WantedPuzzles = (index: number) => boolean;

/**
 * The budget of each puzzle of a file, by its 0-based index: one shared by the puzzles that will be
 * built (all, or those `wanted` says), so a file of millions of bad lines or members keeps
 * MAX_FILE_PROBLEMS messages; none for the others, whose problems are never reported.
 */
export function problemBudgets(wanted?: WantedPuzzles): (index: number) => ProblemBudget {
  const shared: ProblemBudget = { left: MAX_FILE_PROBLEMS };
  const none: ProblemBudget = { left: 0 };
  return (k) => (wanted === undefined || wanted(k) ? shared : none);
}

export function newRawPuzzle(file: string, line: number, label?: string, budget: ProblemBudget = { left: MAX_FILE_PROBLEMS }): RawPuzzle {
  checkHeap(file, line);
  const raw: RawPuzzle = { file, line, meta: {}, problems: [], more: 0, budget };
  if (label) raw.label = label;
  return raw;
}

/** Records a problem a reader found at a line of its file: kept while the file's budget lasts, else only counted. */
export function addProblem(raw: RawPuzzle, line: number, detail: string): void {
  if (raw.budget.left > 0) keepProblem(raw, new InputError(raw.file, line, detail));
  else raw.more++;
}

/** Records a problem already made (one of another file, such as a tournament solutions file), as addProblem does. */
export function keepProblem(raw: RawPuzzle, problem: InputError): void {
  if (raw.budget.left > 0) {
    raw.budget.left--;
    raw.problems.push(problem);
  } else raw.more++;
}

export const COLOUR_MESSAGE = 'colour puzzles are not supported';

/**
 * How a reader records a puzzle's problems, each at its line. A colour puzzle is reported once and
 * marks the puzzle fatal: every later message would be noise.
 */
export function problemReporter(raw: RawPuzzle): { problem: (line: number, detail: string) => void; colour: (line: number) => void } {
  let colourReported = false;
  const problem = (line: number, detail: string) => addProblem(raw, line, detail);
  const colour = (line: number) => {
    if (!colourReported) problem(line, COLOUR_MESSAGE);
    colourReported = raw.fatal = true;
  };
  return { problem, colour };
}

/** A clue as written in messages (cut when very long). */
const clueText = (clue: Clue) => (clue.length ? clip(clue.join(',')) : '0');

/**
 * A clue line written as text, split into items each time they are read: a block refused for its
 * length is never split, and a file of millions of lines does not keep millions of item lists.
 */
class TextClueLine implements RawClueLine {
  constructor(
    readonly line: number,
    private readonly text: string,
  ) {}
  get items(): RawItem[] {
    const line = this.line;
    return this.text
      .split(/[\s,]+/)
      .filter((t) => t !== '')
      .map((t) => ({ text: t, line }));
  }
  /** Visits the items in order without making a list of them (one line may hold millions); stops when `visit` returns false. */
  eachItem(visit: (it: RawItem) => boolean | void): void {
    const item = /[^\s,]+/g;
    for (let m = item.exec(this.text); m; m = item.exec(this.text)) if (visit({ text: m[0], line: this.line }) === false) return;
  }
}

/** Visits the items of a clue line in order (see TextClueLine.eachItem); stops when `visit` returns false. */
function eachItem(cl: RawClueLine, visit: (it: RawItem) => boolean | void): void {
  if (cl instanceof TextClueLine) cl.eachItem(visit);
  else for (const it of cl.items) if (visit(it) === false) return;
}

/** Splits a clue line written as text (`3,1,2`, `3 1 2`, tab-separated; blank or `0` = empty). */
export function splitClueText(text: string, line: number): RawClueLine {
  return new TextClueLine(line, text);
}

const COLOUR_ITEM = /^\d+[a-zA-Z]$/;

/** A clue line written with colour letters (`3b,1d`), the nonogram-db colour extension. */
export function hasColourItems(cl: RawClueLine): boolean {
  let found = false;
  eachItem(cl, (it) => !(found = COLOUR_ITEM.test(it.text)));
  return found;
}

class Problems {
  readonly log = new ProblemLog();
  constructor(private readonly raw: RawPuzzle) {}
  at(line: number, detail: string, file = this.raw.file): void {
    this.log.add(file, line, detail);
  }
  /** A problem of the puzzle as a whole: at its first line, named when it is one of several. */
  whole(detail: string): void {
    this.at(this.raw.line, this.raw.label ? `${this.raw.label}: ${detail}` : detail);
  }
}

function parseSize(p: Problems, name: string, v: RawValue | undefined, maxSize: number): number | undefined {
  if (!v) {
    p.whole(`missing ${name}`);
    return undefined;
  }
  if (!/^\d+$/.test(v.text) || Number(v.text) < 1) {
    p.at(v.line, `${name} must be a positive integer, got "${clip(v.text)}"`);
    return undefined;
  }
  const n = Number(v.text);
  if (n > maxSize) {
    // The text as written: a huge number would print as 1e+23.
    p.at(v.line, `${name} ${clip(v.text)} is above the limit of ${maxSize} (raise it with --max-size)`);
    return undefined;
  }
  return n;
}

/**
 * Parses the clue items of one block; undefined when any item is bad (each bad item is reported).
 * Items are read one at a time, and a clue keeps at most `keep` numbers: a line of millions of
 * numbers (which no line holds) costs their count and sum, in `needs`, not millions of objects.
 */
function parseBlock(p: Problems, kind: 'row' | 'column', block: RawBlock, keep: number, needs: Map<number, number>): Clue[] | undefined {
  let ok = true;
  const clues: Clue[] = [];
  block.lines.forEach((cl, i) => {
    const clue: Clue = [];
    let zeroReported = false;
    // Whether the clue has more than one item, and its text as quoted (clip needs no more than MAX_QUOTED + 1 characters of it).
    let seen = 0;
    let quoted = '';
    eachItem(cl, (it) => {
      seen++;
      if (quoted.length <= MAX_QUOTED) quoted += seen > 1 ? `,${it.text}` : it.text;
      return seen < 2 || quoted.length <= MAX_QUOTED;
    });
    let blocks = 0;
    let sum = 0;
    const where = `${kind} ${i + 1}`;
    eachItem(cl, (it) => {
      if (/^\d+$/.test(it.text)) {
        const n = Number(it.text);
        // `0` alone is the empty line; a 0 among other blocks is most likely a typo (`3 0 2` for `3 10 2`).
        if (n > Number.MAX_SAFE_INTEGER) {
          // Past 2^53 the number would be printed rounded, as 1e+20: quote it as written instead.
          p.at(it.line, `${where}: clue ${clip(it.text)} is too large`);
          ok = false;
        } else if (n > 0) {
          blocks++;
          sum += n;
          if (clue.length < keep) clue.push(n);
        } else if (seen > 1) {
          // Once per clue: the message quotes the whole clue, so a second 0 would repeat it word for word.
          if (!zeroReported) p.at(it.line, `${where}: a 0 inside the clue "${clip(quoted)}" (0 stands alone, for an empty line)`);
          zeroReported = true;
          ok = false;
        }
      } else if (/^-\d+(\.\d+)?$/.test(it.text)) {
        p.at(it.line, `${where}: clue ${clip(it.text)} is negative`);
        ok = false;
      } else if (COLOUR_ITEM.test(it.text)) {
        p.at(it.line, COLOUR_MESSAGE);
        ok = false;
      } else {
        p.at(it.line, `${where}: clue "${clip(it.text)}" is not an integer`);
        ok = false;
      }
    });
    if (blocks > clue.length) needs.set(i, sum + blocks - 1);
    clues.push(clue);
  });
  return ok ? clues : undefined;
}

const cellsNeeded = (clue: Clue) => (clue.length ? clue.reduce((a, b) => a + b, 0) + clue.length - 1 : 0);
const total = (clues: Clue[]) => clues.reduce((s, c) => s + c.reduce((a, b) => a + b, 0), 0);

function checkCount(p: Problems, kind: 'rows' | 'columns', block: RawBlock, expected: number, sizeName: string): boolean {
  const n = block.lines.length;
  if (n < expected) {
    p.at(block.line, `${kind}: ${n} clue line${n === 1 ? '' : 's'}, expected ${expected} (the ${sizeName})`);
    return false;
  }
  if (n > expected) {
    p.at(block.lines[expected]!.line, `${kind}: extra clue line, expected ${expected} lines (the ${sizeName})`);
    return false;
  }
  return true;
}

function checkFits(p: Problems, kind: 'row' | 'column', clues: Clue[], block: RawBlock, length: number, needs: Map<number, number>): boolean {
  let ok = true;
  clues.forEach((clue, i) => {
    const need = needs.get(i) ?? cellsNeeded(clue);
    if (need > length) {
      p.at(block.lines[i]!.line, `${kind} ${i + 1}: clue ${clueText(clue)} needs ${need} cells but the ${kind} has ${length}`);
      ok = false;
    }
  });
  return ok;
}

/** The goal as a grid, or undefined after reporting why it cannot be one (wrong shape, bad character). */
function parseGoal(p: Problems, goal: RawGoal, width: number, height: number): Uint8Array | undefined {
  const file = goal.file;
  const rows: RawValue[] = goal.rows ?? [];
  if (!goal.rows) {
    const text = goal.text ?? '';
    if (text.length !== width * height) {
      p.at(goal.line, `${goal.label} has ${text.length} cells, expected ${width * height} (${width}x${height})`, file);
      return undefined;
    }
    for (let y = 0; y < height; y++) rows.push({ text: text.slice(y * width, (y + 1) * width), line: goal.line });
  } else {
    if (rows.length !== height) {
      p.at(goal.line, `${goal.label} has ${rows.length} rows, expected ${height}`, file);
      return undefined;
    }
    for (let y = 0; y < height; y++) {
      if (rows[y]!.text.length !== width) {
        p.at(rows[y]!.line, `${goal.label} row ${y + 1} has ${rows[y]!.text.length} cells, expected ${width}`, file);
        return undefined;
      }
    }
  }
  const grid = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = rows[y]!;
    for (let x = 0; x < width; x++) {
      const ch = String.fromCodePoint(row.text.codePointAt(x)!); // a whole character for the message, even outside the BMP
      if (ch === '1') grid[y * width + x] = FILLED;
      else if (ch === '0') grid[y * width + x] = EMPTY;
      else {
        p.at(row.line, `${goal.label} has a bad character "${ch}" at row ${y + 1}, column ${x + 1} (expected 0 or 1)`, file);
        return undefined;
      }
    }
  }
  return grid;
}

/**
 * Checks a raw puzzle and builds it. Reports every problem it can (several per file), as InputErrors.
 */
export function buildPuzzle(raw: RawPuzzle, options: LoadOptions = {}): Puzzle {
  const maxSize = options.maxSize ?? DEFAULT_MAX_SIZE;
  const p = new Problems(raw);
  for (const problem of raw.problems) p.log.push(problem);
  p.log.more += raw.more;
  if (raw.fatal && !p.log.empty) throw p.log.error();

  if (!raw.rows) p.whole('missing rows');
  if (!raw.columns) p.whole('missing columns');

  let width: number | undefined;
  let height: number | undefined;
  let countsOk = true;
  // A block refused as a whole is not read item by item: millions of lines over the limit would only add noise.
  let readRows = raw.rows !== undefined;
  let readColumns = raw.columns !== undefined;
  if (raw.implicitSize) {
    // The size is the number of clue lines; only the limit applies.
    for (const [name, block] of [['width', raw.columns], ['height', raw.rows]] as const) {
      if (!block) continue;
      const n = block.lines.length;
      if (n === 0) p.at(block.line, `${name === 'width' ? 'columns' : 'rows'}: no clue lines`);
      else if (n > maxSize) {
        p.at(block.line, `${name} ${n} is above the limit of ${maxSize} (raise it with --max-size)`);
        if (name === 'width') readColumns = false;
        else readRows = false;
      } else if (name === 'width') width = n;
      else height = n;
    }
    // Formats with optional explicit sizes (JSON) check them against the clue counts.
    if (raw.width && width !== undefined) countsOk = checkExplicit(p, 'width', raw.width, width) && countsOk;
    if (raw.height && height !== undefined) countsOk = checkExplicit(p, 'height', raw.height, height) && countsOk;
  } else {
    width = parseSize(p, 'width', raw.width, maxSize);
    height = parseSize(p, 'height', raw.height, maxSize);
    if (raw.rows && height !== undefined) countsOk = checkCount(p, 'rows', raw.rows, height, 'height') && countsOk;
    if (raw.columns && width !== undefined) countsOk = checkCount(p, 'columns', raw.columns, width, 'width') && countsOk;
  }

  // A clue of more numbers than this fits no line the limit allows (and still quotes as cut): the rest are only counted.
  const keep = Math.max(maxSize, MAX_QUOTED) + 1;
  const rowNeeds = new Map<number, number>();
  const columnNeeds = new Map<number, number>();
  const rows = readRows ? parseBlock(p, 'row', raw.rows!, keep, rowNeeds) : undefined;
  const columns = readColumns ? parseBlock(p, 'column', raw.columns!, keep, columnNeeds) : undefined;
  if (!rows || !columns || width === undefined || height === undefined || !countsOk) throw p.log.error();

  const fits = checkFits(p, 'row', rows, raw.rows!, width, rowNeeds) && checkFits(p, 'column', columns, raw.columns!, height, columnNeeds);
  if (fits) {
    const rowTotal = total(rows);
    const columnTotal = total(columns);
    if (rowTotal !== columnTotal)
      p.at(raw.columns!.line, `row clues fill ${rowTotal} cells but column clues fill ${columnTotal}`);
  }

  const puzzle = makePuzzle(rows, columns, { ...raw.meta });
  if (raw.goal) {
    const goal = parseGoal(p, raw.goal, width, height);
    if (goal && p.log.empty) {
      const first = verifyGrid(puzzle, goal)[0];
      if (first) {
        // External solutions are the suspect: point into their file; an own goal: point at the clue it breaks.
        const line = raw.goal.file
          ? first.kind === 'row'
            ? (raw.goal.rows?.[first.index]?.line ?? raw.goal.line)
            : raw.goal.line
          : first.kind === 'row'
            ? raw.rows!.lines[first.index]!.line
            : raw.columns!.lines[first.index]!.line;
        const { label } = raw.goal;
        p.at(line, `${label} does not satisfy ${first.kind} ${first.index + 1}: clue ${clueText(first.expected)}, ${label} gives ${clueText(first.actual)}`, raw.goal.file);
      } else puzzle.goal = goal;
    }
  }
  if (!p.log.empty) throw p.log.error();
  return puzzle;
}

function checkExplicit(p: Problems, name: 'width' | 'height', v: RawValue, actual: number): boolean {
  const kind = name === 'width' ? 'columns' : 'rows';
  if (v.text !== String(actual)) {
    p.at(v.line, `${name} is ${clip(v.text)} but there are ${actual} ${kind}`);
    return false;
  }
  return true;
}

/** Builds each raw puzzle, collecting the problems of all of them (as a ProblemLog does) into one InputErrors. */
export function buildPuzzles(raws: RawPuzzle[], options: LoadOptions = {}): Puzzle[] {
  const puzzles: Puzzle[] = [];
  const log = new ProblemLog();
  for (const raw of raws) {
    try {
      puzzles.push(buildPuzzle(raw, options));
    } catch (err) {
      if (!log.absorb(err)) throw err;
    }
  }
  if (!log.empty) throw log.error();
  return puzzles;
}
