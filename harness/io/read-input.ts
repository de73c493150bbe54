import { readText } from '../../corpus/load.js';

/**
 * A text input file (grid, model, benchmark definition), read and decoded as puzzle files are:
 * UTF-8, UTF-16 by its byte-order mark, else Windows-1252; a lone CR is a line break; binary data
 * (a NUL), a device or a socket is refused with the loader's one-line `FILE:LINE: message` error.
 */
export function readInput(path: string): string {
  return readText(path);
}
