import { readFileSync } from 'node:fs';
import { cannotRead } from '../../corpus/errors.js';
import { decodeBytes } from '../../corpus/formats/text.js';

/**
 * A text input file (grid, model, run CSV, benchmark definition), decoded as puzzle files are (UTF-8, UTF-16
 * by its byte-order mark, else Windows-1252), or the loader's `FILE:0: cannot read the file (…)` error.
 */
export function readInput(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw cannotRead(path, err);
  }
  return decodeBytes(bytes);
}
