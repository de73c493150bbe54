import { extname } from 'node:path';
import { InputError } from '../errors.js';
import type { Puzzle } from '../model.js';
import { buildPuzzles, type LoadOptions, type RawPuzzle, type WantedPuzzles } from '../validate.js';
import { readJsonPuzzles, writeJson, writeJsonBundle } from './json.js';
import { readNon, writeNon, writeNonBundle } from './non.js';
import { looksLikeTournament, readTournament } from './tournament.js';
import { readWebpbnXml, writeWebpbnXml, writeWebpbnXmlBundle } from './xml.js';

/** The formats nonobench reads; `non`, `json` and `xml` are also written. */
export type PuzzleFormat = 'non' | 'xml' | 'json' | 'tournament';
export type WritableFormat = 'non' | 'json' | 'xml';

export const PUZZLE_EXTENSIONS = ['.non', '.nonpack', '.xml', '.json', '.txt'] as const;

export const UNKNOWN_FORMAT_MESSAGE =
  'unknown format: expected a .non, .nonpack, .xml (webpbn), .json or tournament .txt puzzle file';

/** The format a file's extension names, if any (`.txt` only when its text starts with `$`). */
export function formatOfExtension(file: string, text?: string): PuzzleFormat | undefined {
  switch (extname(file).toLowerCase()) {
    case '.non':
    case '.nonpack':
      return 'non';
    case '.xml':
      return 'xml';
    case '.json':
      return 'json';
    case '.txt':
      return text === undefined || looksLikeTournament(text) ? 'tournament' : undefined;
    default:
      return undefined;
  }
}

/** The format of a text judged by its content alone. */
export function formatOfContent(text: string): PuzzleFormat | undefined {
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (body.startsWith('<')) return 'xml';
  if (body.startsWith('{') || body.startsWith('[')) return 'json';
  if (body.startsWith('$')) return 'tournament';
  // A numeric size line or a bare section keyword: keywords such as "by" also begin lines of prose.
  if (/^(width|height)[ \t]+\d+[ \t]*$/m.test(body) || /^(rows|columns)[ \t]*$/m.test(body)) return 'non';
  return undefined;
}

/** Detects the format: by extension, else by content. */
export function detectFormat(file: string, text: string): PuzzleFormat | undefined {
  return formatOfExtension(file, text) ?? formatOfContent(text);
}

export interface ReadOptions {
  format?: PuzzleFormat;
  /** Tournament format: the companion solutions to attach. */
  solutions?: { text: string; file: string };
  /** The puzzles that will be built (those of `FILE#N` not loaded before): only their problems are kept (see problemBudgets). */
  wanted?: WantedPuzzles;
}

/** Reads a text into raw (unchecked) puzzles; throws InputError for an unknown format or a syntax error. */
export function readRawPuzzles(text: string, file: string, options: ReadOptions = {}): RawPuzzle[] {
  const format = options.format ?? detectFormat(file, text);
  switch (format) {
    case 'non':
      return readNon(text, file, options.wanted);
    case 'xml':
      return readWebpbnXml(text, file, options.wanted);
    case 'json':
      return readJsonPuzzles(text, file, options.wanted);
    case 'tournament':
      return readTournament(text, file, options.solutions, options.wanted);
    default:
      throw new InputError(file, 0, UNKNOWN_FORMAT_MESSAGE);
  }
}

/** Parses a text in any supported format into checked puzzles (throws InputError(s) naming file and line). */
export function parsePuzzles(text: string, file: string, options: ReadOptions & LoadOptions = {}): Puzzle[] {
  const raws = readRawPuzzles(text, file, options);
  if (raws.length === 0) throw new InputError(file, 0, 'no puzzle found');
  return buildPuzzles(raws, options);
}

/** The output format an output path's extension names. */
export function writableFormatOf(file: string): WritableFormat | undefined {
  const ext = extname(file).toLowerCase();
  if (ext === '.non' || ext === '.nonpack') return 'non';
  if (ext === '.json') return 'json';
  if (ext === '.xml') return 'xml';
  return undefined;
}

/** Writes puzzles in a format: one puzzle as a plain file, several as a bundle (`====`-separated / a JSON array / one `<puzzleset>`). */
export function writePuzzles(puzzles: Puzzle[], format: WritableFormat): string {
  if (format === 'xml') return puzzles.length === 1 ? writeWebpbnXml(puzzles[0]!) : writeWebpbnXmlBundle(puzzles);
  if (format === 'json') return puzzles.length === 1 ? writeJson(puzzles[0]!) : writeJsonBundle(puzzles);
  return puzzles.length === 1 ? writeNon(puzzles[0]!) : writeNonBundle(puzzles);
}

export { readNon, parseNon, writeNon, writeNonBundle } from './non.js';
export { readJsonPuzzles, parseJsonPuzzles, writeJson, writeJsonBundle } from './json.js';
export { readWebpbnXml, parseWebpbnXml, writeWebpbnXml, writeWebpbnXmlBundle } from './xml.js';
export { readTournament, parseTournament } from './tournament.js';
