/**
 * A buffer that grows by appending, grown: a copy of a[0 .. used) in a new array at least `need`
 * long, doubling a's length as often as that takes (so appends cost amortised O(1)).
 */
export function grownInt32(a: Int32Array, used: number, need: number): Int32Array {
  let size = Math.max(1, a.length * 2);
  while (size < need) size *= 2;
  const b = new Int32Array(size);
  b.set(a.subarray(0, used));
  return b;
}
