import { readFileSync } from 'node:fs';
import { cannotRead } from '../../corpus/errors.js';

/** A text input file (grid, model, run CSV), or the loader's `FILE:0: cannot read the file (…)` error. */
export function readInput(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw cannotRead(path, err);
  }
}
