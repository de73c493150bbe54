/**
 * Appends every item of `items` to `list`. `list.push(...items)` passes each item as an argument,
 * and past about 100,000 of them (a file of that many problems, a bundle of that many puzzles) it
 * overflows the stack.
 */
export function appendAll<T>(list: T[], items: readonly T[]): void {
  for (const item of items) list.push(item);
}
