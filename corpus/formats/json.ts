import { InputError } from '../errors.js';
import { gridToRows } from '../grid.js';
import type { Puzzle, PuzzleMeta } from '../model.js';
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
import { readJson, type JsonNode } from './json-reader.js';

/**
 * JSON puzzles: `{"rows": [[…]], "columns": [[…]], "goal": "0110…", "title": …}`; an array of such
 * objects is a bundle. `width`/`height` are optional (checked against the clues when present); `goal`
 * may also be an array of row strings, with `#`/`.` as well as `1`/`0`.
 */

const META_KEYS: Record<string, keyof PuzzleMeta> = {
  title: 'title',
  author: 'author',
  by: 'author',
  copyright: 'copyright',
  license: 'license',
  licence: 'license',
  catalogue: 'catalogue',
  catalog: 'catalogue',
};
const COLOUR_KEYS = new Set(['color', 'colour', 'colors', 'colours']);
/** The keys whose value is read (others are ignored, duplicates too). */
const READ_KEYS = new Set(['rows', 'columns', 'width', 'height', 'goal', ...Object.keys(META_KEYS)]);

/** Reads a JSON text (one puzzle object or an array of them) into raw puzzles; `wanted` as for readNon. */
export function readJsonPuzzles(text: string, file: string, wanted?: WantedPuzzles): RawPuzzle[] {
  const root = readJson(text, file);
  const budget = problemBudgets(wanted);
  if (root.kind === 'object') return [readObject(root, newRawPuzzle(file, 0, undefined, budget(0)))];
  if (root.kind !== 'array') throw new InputError(file, root.line, 'expected a puzzle object or an array of puzzle objects');
  if (root.items.length === 0) throw new InputError(file, root.line, 'the array holds no puzzles');
  return root.items.map((item, k) => {
    const raw = newRawPuzzle(file, item.line, root.items.length > 1 ? `puzzle ${k + 1}` : undefined, budget(k));
    if (item.kind === 'object') return readObject(item, raw);
    addProblem(raw, item.line, `puzzle ${k + 1}: expected a puzzle object`);
    raw.fatal = true;
    return raw;
  });
}

/** The written text of a scalar, as a clue item (so messages quote what the file says). */
function itemText(node: JsonNode): string {
  switch (node.kind) {
    case 'number':
      return node.text;
    case 'string':
      return node.value;
    case 'literal':
      return String(node.value);
    default:
      return node.kind === 'array' ? '[…]' : '{…}';
  }
}

function clueLine(node: JsonNode): RawClueLine {
  // A number node already has the text and line of an item: reused, not copied (a clue may hold millions).
  if (node.kind === 'array') return { line: node.line, items: node.items.map((it) => (it.kind === 'number' ? it : { text: itemText(it), line: it.line })) };
  if (node.kind === 'string') return splitClueText(node.value, node.line);
  return { line: node.line, items: [{ text: itemText(node), line: node.line }] };
}

const goalChar = (ch: string) => (ch === '#' || ch === 'X' ? '1' : ch === '.' ? '0' : ch);
const normaliseGoal = (s: string) => Array.from(s, goalChar).join('');

function readObject(obj: Extract<JsonNode, { kind: 'object' }>, raw: RawPuzzle): RawPuzzle {
  raw.implicitSize = true;
  const { problem, colour } = problemReporter(raw);
  const seen = new Map<string, number>();
  for (const { key, keyLine, value } of obj.entries) {
    // JSON.parse would keep the last of two values silently; which one is meant is unknown.
    const before = seen.get(key);
    if (before !== undefined && READ_KEYS.has(key)) {
      problem(keyLine, `duplicate "${key}" key (first on line ${before})`);
      continue;
    }
    seen.set(key, keyLine);
    if (key === 'rows' || key === 'columns') {
      if (value.kind !== 'array') problem(keyLine, `${key} must be an array of clue lines`);
      else {
        const block: RawBlock = { line: keyLine, lines: value.items.map(clueLine) };
        raw[key] = block;
        // Colour clues (`"1a"`) make every later message noise: report the puzzle once, as `.non` does.
        const coloured = block.lines.find(hasColourItems);
        if (coloured) colour(coloured.line);
      }
    } else if (key === 'width' || key === 'height') {
      raw[key] = { text: itemText(value), line: value.line };
    } else if (key === 'goal') {
      if (value.kind === 'string') raw.goal = { line: value.line, text: normaliseGoal(value.value), label: 'goal' };
      else if (value.kind === 'array' && value.items.every((it) => it.kind === 'string'))
        raw.goal = {
          line: value.line,
          rows: value.items.map((it) => ({ text: normaliseGoal(itemText(it)), line: it.line })),
          label: 'goal',
        };
      else if (value.kind !== 'literal' || value.value !== null)
        problem(value.line, 'goal must be a string of 0/1 or an array of row strings');
    } else if (COLOUR_KEYS.has(key)) {
      colour(keyLine);
    } else {
      if (!Object.hasOwn(META_KEYS, key)) continue;
      const metaKey = META_KEYS[key]!;
      if (value.kind === 'string') raw.meta[metaKey] = value.value;
      else if (value.kind !== 'literal' || value.value !== null) problem(value.line, `${key} must be a string`);
    }
  }
  return raw;
}

/** Parses JSON puzzles into checked puzzles (throws InputErrors naming file and line). */
export function parseJsonPuzzles(text: string, file: string, options: LoadOptions = {}): Puzzle[] {
  return buildPuzzles(readJsonPuzzles(text, file), options);
}

/** One puzzle as a JSON object, one clue line per text line (easy to read and to diff). */
function objectText(p: Puzzle, indent: string): string {
  const i1 = `${indent}  `;
  const i2 = `${indent}    `;
  const fields: string[] = [];
  const meta: [string, string | undefined][] = [
    ['title', p.meta.title],
    ['author', p.meta.author],
    ['copyright', p.meta.copyright],
    ['license', p.meta.license],
    ['catalogue', p.meta.catalogue],
  ];
  for (const [key, value] of meta) if (value !== undefined) fields.push(`${i1}"${key}": ${JSON.stringify(value)}`);
  fields.push(`${i1}"width": ${p.width}`, `${i1}"height": ${p.height}`);
  const clues = (list: number[][]) => `[\n${list.map((c) => `${i2}[${c.join(', ')}]`).join(',\n')}\n${i1}]`;
  fields.push(`${i1}"rows": ${clues(p.rows)}`, `${i1}"columns": ${clues(p.columns)}`);
  if (p.goal) {
    const picture = gridToRows(p.goal, p.width).join('').replace(/#/g, '1').replace(/\./g, '0');
    fields.push(`${i1}"goal": "${picture}"`);
  }
  return `${indent}{\n${fields.join(',\n')}\n${indent}}`;
}

/** Writes one puzzle as a JSON object. */
export function writeJson(puzzle: Puzzle): string {
  return `${objectText(puzzle, '')}\n`;
}

/** Writes several puzzles as a JSON array (a bundle). */
export function writeJsonBundle(puzzles: Puzzle[]): string {
  return `[\n${puzzles.map((p) => objectText(p, '  ')).join(',\n')}\n]\n`;
}
