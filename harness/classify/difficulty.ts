import type { Classification, PuzzleClass } from './classify.js';

/**
 * The classes a difficulty is given to, easiest first: the puzzles with one solution, by the
 * logic they need. A puzzle with several solutions or none, or not settled within the limit, has
 * no difficulty: it needs mending, or more time.
 */
export const RANKED_CLASSES: readonly PuzzleClass[] = ['overlap-solvable', 'line-solvable', 'probe-solvable', 'needs-guessing'];

/**
 * What a puzzle's difficulty is made of, compared in this order, each deciding only between
 * puzzles equal on those before it: the class (the kind of logic needed), then the search's dead
 * ends and its depth (how much guessing), then the decisive probes (how many cells need a
 * contradiction to decide), then the rounds of line logic (how long the chain of line deductions is).
 */
export function difficultyKey(c: Classification): number[] | null {
  const rank = RANKED_CLASSES.indexOf(c.class);
  if (rank < 0) return null;
  return [rank, c.search?.deadEnds ?? 0, c.search?.maxDepth ?? 0, c.probesDecisive, c.linePasses ?? 0];
}

/** Negative when `a` is easier than `b`, 0 when they are equal. */
export function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/**
 * Each classification's difficulty rank, 1 for the hardest; equal profiles share a rank (1, 2, 2, 4);
 * null for a puzzle with no difficulty (see RANKED_CLASSES) or no classification.
 */
export function difficultyRanks(classifications: readonly (Classification | null)[]): (number | null)[] {
  const keys = classifications.map((c) => (c ? difficultyKey(c) : null));
  const order = keys.flatMap((k, i) => (k ? [i] : [])).sort((i, j) => compareKeys(keys[j]!, keys[i]!));
  const ranks: (number | null)[] = keys.map(() => null);
  order.forEach((i, position) => {
    const previous = order[position - 1];
    ranks[i] = previous !== undefined && compareKeys(keys[previous]!, keys[i]!) === 0 ? ranks[previous]! : position + 1;
  });
  return ranks;
}
