import { clip } from '../errors.js';
import type { Clue, Puzzle, PuzzleMeta } from '../model.js';
import { gridToRows } from '../grid.js';
import {
  addProblem,
  buildPuzzles,
  problemBudgets,
  problemReporter,
  hasColourItems,
  newRawPuzzle,
  splitClueText,
  type LoadOptions,
  type RawBlock,
  type RawClueLine,
  type RawPuzzle,
  type WantedPuzzles,
} from '../validate.js';
import { decodeEntities, encodeNonString } from './entities.js';
import { splitLines } from './text.js';

/**
 * Steve Simpson's `.non` format with the nonogram-db extensions (`goal`, `license`, `====` bundles).
 * Keys are one per line; `rows` and `columns` are followed by one clue line per line of the puzzle.
 */

/**
 * A line starting with a word is a key (`width 5`, `rows`, or an unknown key to ignore). The `s` flag
 * lets `.` match U+2028 and U+2029, which `\s` also matches: without it a value holding one is refused,
 * after backtracking through every split of the spaces before it (quadratic: minutes on a long line).
 */
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*)(?:\s+(.*))?$/s;
const BUNDLE_DIVIDER = /^====\s*$/;

const META_KEYS: Record<string, keyof PuzzleMeta> = {
  title: 'title',
  by: 'author',
  author: 'author',
  copyright: 'copyright',
  license: 'license',
  licence: 'license',
  catalogue: 'catalogue',
  catalog: 'catalogue',
};

/** The keys nonobench reads: inside a clue block only these end it, so a clue such as `two` is a bad clue, not a key. */
const KNOWN_KEYS = new Set(['width', 'height', 'rows', 'columns', 'goal', 'color', 'colour', ...Object.keys(META_KEYS)]);

/** A `#` line is a comment, anywhere: readers are asked to ignore lines they do not recognise. */
const isComment = (trimmed: string) => trimmed.startsWith('#');

/** `rows N` and `columns N` (one number) are Simpson's spelling of `height N` and `width N`. */
const sizeAlias = (name: string, rest: string) =>
  (name === 'rows' || name === 'columns') && /^\d+$/.test(rest.trim()) ? (name === 'rows' ? 'height' : 'width') : name;

/** A string value: quoted (with HTML escapes) or bare (SPDX licence codes, unquoted goals). */
function stringValue(rest: string): string {
  const s = rest.trim();
  if (s.startsWith('"')) {
    const end = s.lastIndexOf('"');
    return decodeEntities(end > 0 ? s.slice(1, end) : s.slice(1));
  }
  return s;
}

interface Member {
  /** 0-based index into the file's lines of the member's first line. */
  start: number;
  end: number;
}

/** The `====`-separated members of a file, skipping members with nothing but blank lines. */
function members(lines: string[]): Member[] {
  const found: Member[] = [];
  let start = 0;
  for (let i = 0; i <= lines.length; i++) {
    if (i === lines.length || BUNDLE_DIVIDER.test(lines[i]!.trim())) {
      let blank = true;
      for (let j = start; j < i && blank; j++) blank = lines[j]!.trim() === '';
      if (!blank) found.push({ start, end: i });
      start = i + 1;
    }
  }
  return found;
}

/**
 * Reads a `.non` or `.nonpack` text into raw puzzles (one per bundle member), with line numbers; only
 * the members `wanted` names, when given, keep their problems (see problemBudgets).
 */
export function readNon(text: string, file: string, wanted?: WantedPuzzles): RawPuzzle[] {
  const lines = splitLines(text, file);
  const parts = members(lines);
  const budget = problemBudgets(wanted);
  return parts.map((m, k) => {
    // Whole-puzzle problems of a bundle member point at its first non-blank line.
    let first = m.start;
    while (lines[first]!.trim() === '') first++;
    const raw = parts.length > 1 ? newRawPuzzle(file, first + 1, `puzzle ${k + 1}`, budget(k)) : newRawPuzzle(file, 0, undefined, budget(k));
    readMember(lines, m, raw);
    return raw;
  });
}

function readMember(lines: string[], m: Member, raw: RawPuzzle): void {
  const seen = new Map<string, number>();
  const { colour } = problemReporter(raw);
  /**
   * Whether line i ends a clue block: a known key does; an unknown key only once the block has its
   * expected number of lines (it then follows the block, and is ignored like any unknown key).
   */
  const endsBlock = (i: number, collected: number, expected: number | undefined) => {
    const key = KEY_LINE.exec(lines[i]!.trim());
    return key !== null && (KNOWN_KEYS.has(key[1]!.toLowerCase()) || (expected !== undefined && collected >= expected));
  };

  let i = m.start;
  while (i < m.end) {
    const lineNo = i + 1;
    const text = lines[i]!.trim();
    const key = KEY_LINE.exec(text);
    i++;
    if (text === '' || isComment(text)) continue;
    if (!key) {
      addProblem(raw, lineNo, `clue line outside rows/columns: "${clip(text)}"`);
      continue;
    }
    const rest = key[2] ?? '';
    // Simpson's format also gives the size as `rows 5` / `columns 4` (then not the start of a block).
    const name = sizeAlias(key[1]!.toLowerCase(), rest);
    if (['width', 'height', 'rows', 'columns', 'goal'].includes(name)) {
      const before = seen.get(name);
      if (before !== undefined) {
        addProblem(raw, lineNo, `duplicate ${name} key (first on line ${before})`);
        // Skip a duplicate block's lines too, so they do not read as stray clues.
        if (name === 'rows' || name === 'columns') while (i < m.end && !endsBlock(i, 0, undefined)) i++;
        continue;
      }
      seen.set(name, lineNo);
    }
    switch (name) {
      case 'width':
      case 'height':
        raw[name] = { text: rest.trim(), line: lineNo };
        break;
      case 'rows':
      case 'columns': {
        // The expected count is known when the size came first (as the format asks).
        const size = name === 'rows' ? raw.height : raw.width;
        const expected = size && /^\d+$/.test(size.text) ? Number(size.text) : undefined;
        const collected: RawClueLine[] = [];
        while (i < m.end && !endsBlock(i, collected.length, expected)) {
          if (!isComment(lines[i]!.trim())) collected.push(splitClueText(lines[i]!, i + 1));
          i++;
        }
        const block: RawBlock = { line: lineNo, lines: blockLines(collected, expected, lines) };
        const coloured = block.lines.find(hasColourItems);
        if (coloured) colour(coloured.line);
        raw[name] = block;
        break;
      }
      case 'goal':
        raw.goal = { line: lineNo, text: stringValue(rest), label: 'goal' };
        break;
      case 'color':
      case 'colour':
        colour(lineNo);
        break;
      default: {
        if (Object.hasOwn(META_KEYS, name)) raw.meta[META_KEYS[name]!] = stringValue(rest);
        // Any other key is ignored, as the format asks of readers.
      }
    }
  }
}

/**
 * The clue lines of a block. With a known count, the first `expected` lines are clues (a blank one is an
 * empty line) and later blank lines are separators; later non-blank lines are kept, so validation can
 * name the first extra one. With no known count, trailing blank lines are separators.
 */
function blockLines(collected: RawClueLine[], expected: number | undefined, lines: string[]): RawClueLine[] {
  const isBlank = (cl: RawClueLine) => lines[cl.line - 1]!.trim() === '';
  if (expected === undefined) {
    let n = collected.length;
    while (n > 0 && isBlank(collected[n - 1]!)) n--;
    return collected.slice(0, n);
  }
  return [...collected.slice(0, expected), ...collected.slice(expected).filter((cl) => !isBlank(cl))];
}

/** Parses a `.non` / `.nonpack` text into checked puzzles (throws InputErrors naming file and line). */
export function parseNon(text: string, file: string, options: LoadOptions = {}): Puzzle[] {
  return buildPuzzles(readNon(text, file), options);
}

const clueLine = (clue: Clue) => (clue.length ? clue.join(',') : '0');
/** SPDX-style licence codes are written bare, as the format's example does; anything else quoted. */
const licenseValue = (s: string) => (/^[A-Za-z0-9.+-]+$/.test(s) ? s : `"${encodeNonString(s)}"`);

/** Writes one puzzle as `.non` text (metadata keys first, then size, clues and goal). */
export function writeNon(puzzle: Puzzle): string {
  const { meta } = puzzle;
  const out: string[] = [];
  const quoted = (key: string, value: string | undefined) => {
    if (value !== undefined) out.push(`${key} "${encodeNonString(value)}"`);
  };
  quoted('catalogue', meta.catalogue);
  quoted('title', meta.title);
  quoted('by', meta.author);
  quoted('copyright', meta.copyright);
  if (meta.license !== undefined) out.push(`license ${licenseValue(meta.license)}`);
  out.push(`width ${puzzle.width}`, `height ${puzzle.height}`, '', 'rows', ...puzzle.rows.map(clueLine));
  out.push('', 'columns', ...puzzle.columns.map(clueLine));
  if (puzzle.goal) {
    const picture = gridToRows(puzzle.goal, puzzle.width).join('').replace(/#/g, '1').replace(/\./g, '0');
    out.push('', `goal "${picture}"`);
  }
  return `${out.join('\n')}\n`;
}

/** Writes several puzzles as one `====`-separated bundle (a single puzzle is plain `.non`). */
export function writeNonBundle(puzzles: Puzzle[]): string {
  return puzzles.map(writeNon).join('====\n');
}
