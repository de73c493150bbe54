import { clip, InputError } from '../errors.js';
import type { Puzzle } from '../model.js';
import {
  buildPuzzles,
  problemReporter,
  newRawPuzzle,
  type LoadOptions,
  type RawBlock,
  type RawGoal,
  type RawPuzzle,
  type RawValue,
} from '../validate.js';
import { childElements, firstChild, readXml, textOf, type XmlElement } from './xml-reader.js';

/**
 * webpbn's XML export (`<puzzleset><puzzle type="grid">…`), black-and-white puzzles only.
 * Clues come as `<clues type="rows|columns"><line><count>3</count>…</line>…</clues>` (webpbn's
 * element; `<clue>` is read too); a `<solution type="goal"><image>|.X.|…</image>` becomes the goal.
 */

const BLACK_AND_WHITE = new Set(['black', 'white']);

/** Reads a webpbn XML text into raw puzzles. */
export function readWebpbnXml(text: string, file: string): RawPuzzle[] {
  const root = readXml(text, file);
  const puzzles = root.name === 'puzzle' ? [root] : childElements(root, 'puzzle');
  if (root.name !== 'puzzle' && root.name !== 'puzzleset')
    throw new InputError(file, root.line, `not a webpbn puzzle file: the root element is <${clip(root.name)}>`);
  if (puzzles.length === 0) throw new InputError(file, root.line, 'no <puzzle> element');
  return puzzles.map((el, k) =>
    readPuzzle(el, puzzles.length > 1 ? newRawPuzzle(file, el.line, `puzzle ${k + 1}`) : newRawPuzzle(file, 0)),
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

/** An `<image>`: one picture row per text line, between `|` marks. */
function readImage(image: XmlElement, blackChar: string, whiteChar: string): RawGoal {
  const rows: RawValue[] = [];
  for (const node of image.children) {
    if (node.kind !== 'text') continue;
    node.text.split('\n').forEach((part, offset) => {
      const s = part.trim();
      if (s === '') return;
      let mapped = '';
      for (const ch of s.replace(/^\|/, '').replace(/\|$/, '')) {
        if (ch === blackChar || ch === 'X' || ch === '#') mapped += '1';
        else if (ch === whiteChar || ch === '.') mapped += '0';
        else mapped += ch;
      }
      rows.push({ text: mapped, line: node.line + offset });
    });
  }
  return { line: image.line, rows, label: 'goal' };
}

/** Parses webpbn XML into checked puzzles (throws InputErrors naming file and line). */
export function parseWebpbnXml(text: string, file: string, options: LoadOptions = {}): Puzzle[] {
  return buildPuzzles(readWebpbnXml(text, file), options);
}
