import { clip, InputError } from '../errors.js';
import { FILLED, type Clue, type Puzzle } from '../model.js';
import { dropNonXmlChars, escapeXml } from '../render.js';
import {
  buildPuzzles,
  problemBudgets,
  problemReporter,
  newRawPuzzle,
  type LoadOptions,
  type RawBlock,
  type RawGoal,
  type RawPuzzle,
  type WantedPuzzles,
  type RawValue,
} from '../validate.js';
import { childElements, firstChild, readXml, textOf, type XmlElement } from './xml-reader.js';

/**
 * webpbn's XML export (`<puzzleset><puzzle type="grid">…`), black-and-white puzzles only.
 * Clues come as `<clues type="rows|columns"><line><count>3</count>…</line>…</clues>` (webpbn's
 * element; `<clue>` is read too); a `<solution type="goal"><image>|.X.|…</image>` becomes the goal.
 */

const BLACK_AND_WHITE = new Set(['black', 'white']);

/** Reads a webpbn XML text into raw puzzles; `wanted` as for readNon. */
export function readWebpbnXml(text: string, file: string, wanted?: WantedPuzzles): RawPuzzle[] {
  const root = readXml(text, file);
  const puzzles = root.name === 'puzzle' ? [root] : childElements(root, 'puzzle');
  if (root.name !== 'puzzle' && root.name !== 'puzzleset')
    throw new InputError(file, root.line, `not a webpbn puzzle file: the root element is <${clip(root.name)}>`);
  if (puzzles.length === 0) throw new InputError(file, root.line, 'no <puzzle> element');
  const budget = problemBudgets(wanted);
  return puzzles.map((el, k) =>
    readPuzzle(el, puzzles.length > 1 ? newRawPuzzle(file, el.line, `puzzle ${k + 1}`, budget(k)) : newRawPuzzle(file, 0, undefined, budget(k))),
  );
}

function readPuzzle(el: XmlElement, raw: RawPuzzle): RawPuzzle {
  raw.implicitSize = true;
  const { problem, colour } = problemReporter(raw);

  const type = el.attrs.type;
  if (type !== undefined && type !== 'grid') {
    problem(el.line, `only grid puzzles are supported, not type "${clip(type)}"`);
    raw.fatal = true;
  }

  // The characters the picture uses for black and white (webpbn's defaults: X and .).
  let blackChar = 'X';
  let whiteChar = '.';
  for (const c of childElements(el, 'color')) {
    const name = (c.attrs.name ?? '').toLowerCase();
    if (!BLACK_AND_WHITE.has(name)) colour(c.line);
    else if (c.attrs.char) {
      if (name === 'black') blackChar = c.attrs.char;
      else whiteChar = c.attrs.char;
    }
  }
  const defaultColour = (el.attrs.defaultcolor ?? 'white').toLowerCase();
  if (!BLACK_AND_WHITE.has(defaultColour)) colour(el.line);

  const text = (name: string) => {
    const child = firstChild(el, name);
    const value = child ? textOf(child).trim() : '';
    return value === '' ? undefined : value;
  };
  const meta = raw.meta;
  const title = text('title');
  const author = text('author');
  const copyright = text('copyright');
  const license = text('license');
  if (title !== undefined) meta.title = title;
  if (author !== undefined) meta.author = author;
  if (copyright !== undefined) meta.copyright = copyright;
  if (license !== undefined) meta.license = license;
  const catalogue = [text('source'), text('id')].filter((s) => s !== undefined).join(' ');
  if (catalogue) meta.catalogue = catalogue;

  for (const clue of childElements(el).filter((c) => c.name === 'clues' || c.name === 'clue')) {
    const kind = clue.attrs.type;
    if (kind !== 'rows' && kind !== 'columns') {
      problem(clue.line, `<${clue.name}> type must be "rows" or "columns", got "${clip(kind ?? '')}"`);
      continue;
    }
    if (raw[kind]) {
      // Which of the two is meant is unknown: checks of the clues would only add noise.
      problem(clue.line, `duplicate <${clue.name} type="${kind}">`);
      raw.fatal = true;
      continue;
    }
    const block: RawBlock = { line: clue.line, lines: [] };
    for (const line of childElements(clue, 'line')) {
      // A number written straight into <line> would silently count as nothing.
      for (const child of line.children) {
        if (child.kind === 'text' ? child.text.trim() === '' : child.name === 'count') continue;
        problem(
          child.line,
          child.kind === 'text'
            ? `text "${clip(child.text.trim())}" directly inside <line>: write each number as <count>N</count>`
            : `<${clip(child.name)}> inside <line>: expected only <count> elements`,
        );
        raw.fatal = true;
      }
      const items = childElements(line, 'count').map((count) => {
        const c = count.attrs.color;
        if (c !== undefined && c.toLowerCase() !== 'black') colour(count.line);
        return { text: textOf(count).trim(), line: count.line };
      });
      block.lines.push({ line: line.line, items });
    }
    raw[kind] = block;
  }

  const solutions = childElements(el, 'solution').filter((s) => s.attrs.type !== 'saved');
  const solution = solutions.find((s) => s.attrs.type === 'goal') ?? solutions[0];
  const image = solution && firstChild(solution, 'image');
  if (image) raw.goal = readImage(image, blackChar, whiteChar);
  return raw;
}

/** The code point of a one-character string; -1 (matching none) for any other. */
const onlyCodePoint = (s: string) => (s !== '' && String.fromCodePoint(s.codePointAt(0)!) === s ? s.codePointAt(0)! : -1);

/**
 * A picture row in `1`/`0` (other characters kept, for the checks to name). Built in chunks, not a
 * character at a time: a string grown by `+=` is a rope of a node per character, and a row of
 * millions of cells would fill a small heap.
 */
function goalCells(row: string, blackChar: string, whiteChar: string): string {
  const black = onlyCodePoint(blackChar);
  const white = onlyCodePoint(whiteChar);
  const chunks: string[] = [];
  const units: number[] = [];
  for (let i = 0; i < row.length; ) {
    const cp = row.codePointAt(i)!;
    const size = cp > 0xffff ? 2 : 1;
    if (cp === black || (cp !== white && (cp === 0x58 || cp === 0x23))) units.push(0x31); // X, #
    else if (cp === white || cp === 0x2e) units.push(0x30); // .
    else for (let k = i; k < i + size; k++) units.push(row.charCodeAt(k));
    i += size;
    if (units.length >= 8192) chunks.push(String.fromCharCode(...units.splice(0)));
  }
  chunks.push(String.fromCharCode(...units));
  return chunks.join('');
}

/**
 * An `<image>`: one picture row per text line, between `|` marks. The characters the puzzle declares
 * come first; webpbn's `X` and `.`, and `#` for black, are read only when not declared otherwise.
 */
function readImage(image: XmlElement, blackChar: string, whiteChar: string): RawGoal {
  const rows: RawValue[] = [];
  for (const node of image.children) {
    if (node.kind !== 'text') continue;
    node.text.split('\n').forEach((part, offset) => {
      const s = part.trim();
      if (s === '') return;
      const mapped = goalCells(s.replace(/^\|/, '').replace(/\|$/, ''), blackChar, whiteChar);
      rows.push({ text: mapped, line: node.line + offset });
    });
  }
  return { line: image.line, rows, label: 'goal' };
}

/** Parses webpbn XML into checked puzzles (throws InputErrors naming file and line). */
export function parseWebpbnXml(text: string, file: string, options: LoadOptions = {}): Puzzle[] {
  return buildPuzzles(readWebpbnXml(text, file), options);
}

/** Text made safe as element content: forbidden characters dropped, XML's five escaped, CR kept as `&#13;` (a parser turns a raw one into LF). */
const xmlText = (text: string) => escapeXml(text).replace(/\r/g, '&#13;');

/**
 * The `<source>` and `<id>` that read back as the catalogue (the reader joins them with a space):
 * `webpbn.com #1` splits at its first space; a catalogue that would not survive the split goes whole into `<id>`.
 */
function catalogueParts(catalogue: string): { source?: string; id: string } {
  const space = catalogue.indexOf(' ');
  if (space > 0) {
    const source = catalogue.slice(0, space);
    const id = catalogue.slice(space + 1);
    if (id !== '' && source.trim() === source && id.trim() === id) return { source, id };
  }
  return { id: catalogue };
}

const clueLines = (clues: Clue[]) => clues.map((clue) => `<line>${clue.map((n) => `<count>${n}</count>`).join('')}</line>`);

/** One `<puzzle>` element, as lines. */
function puzzleLines(puzzle: Puzzle): string[] {
  const { meta } = puzzle;
  const out = ['<puzzle type="grid" defaultcolor="white">'];
  const element = (name: string, value: string | undefined) => {
    if (value !== undefined) out.push(`<${name}>${xmlText(value)}</${name}>`);
  };
  if (meta.catalogue !== undefined) {
    const { source, id } = catalogueParts(dropNonXmlChars(meta.catalogue));
    element('source', source);
    element('id', id);
  }
  element('title', meta.title);
  element('author', meta.author);
  element('copyright', meta.copyright);
  element('license', meta.license);
  out.push('<color name="white" char=".">fff</color>', '<color name="black" char="X">000</color>');
  out.push('<clues type="columns">', ...clueLines(puzzle.columns), '</clues>');
  out.push('<clues type="rows">', ...clueLines(puzzle.rows), '</clues>');
  const { goal, width, height } = puzzle;
  if (goal) {
    out.push('<solution type="goal">', '<image>');
    for (let y = 0; y < height; y++) {
      let row = '';
      for (let x = 0; x < width; x++) row += goal[y * width + x] === FILLED ? 'X' : '.';
      out.push(`|${row}|`);
    }
    out.push('</image>', '</solution>');
  }
  out.push('</puzzle>');
  return out;
}

/**
 * Writes puzzles as webpbn's XML export (what pbnsolve reads): a `<puzzleset>` of `<puzzle type="grid">`
 * elements with the metadata (`<source>`/`<id>` from the catalogue, `<title>`, `<author>`, `<copyright>`,
 * `<license>`), black and white `<color>`s, the column then the row `<clues>`, and the goal as a
 * `<solution type="goal"><image>` of `X`/`.` rows between `|` marks when there is one.
 */
export function writeWebpbnXmlBundle(puzzles: Puzzle[]): string {
  const out = ['<?xml version="1.0"?>', '<puzzleset>', ...puzzles.flatMap(puzzleLines), '</puzzleset>'];
  return `${out.join('\n')}\n`;
}

/** Writes one puzzle as webpbn XML (a `<puzzleset>` holding one `<puzzle>`). */
export function writeWebpbnXml(puzzle: Puzzle): string {
  return writeWebpbnXmlBundle([puzzle]);
}
