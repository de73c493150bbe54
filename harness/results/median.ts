/** The median of numbers already in ascending order (NaN for none). */
export function medianOfSorted(sorted: ArrayLike<number>): number {
  const len = sorted.length;
  if (len === 0) return NaN;
  const mid = len >> 1;
  return len % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The median of numbers in any order (NaN for none); the input is not changed. A typed array sorts numerically without a comparator, fast for millions. */
export const median = (xs: readonly number[]): number => medianOfSorted(Float64Array.from(xs).sort());
