/** The Luby sequence 1 1 2 1 1 2 4 1 1 2 … (0-based index): restart lengths for searches with heavy tails. */
export function luby(i: number): number {
  let size = 1;
  let seq = 0;
  while (size < i + 1) {
    seq++;
    size = 2 * size + 1;
  }
  while (size - 1 !== i) {
    size = (size - 1) >> 1;
    seq--;
    i = i % size;
  }
  return 2 ** seq;
}
