/**
 * A binary max-heap of variables ordered by activity: the branching order of the CDCL engine (EVSIDS).
 * It reads the activity array it is given, so bumping a variable only needs `increased(v)` afterwards;
 * scaling every activity by the same factor keeps the heap valid.
 */
export class VarHeap {
  private readonly heap: Int32Array;
  /** Position of each variable in `heap`, or -1 when it is not in the heap. */
  private readonly position: Int32Array;
  private count = 0;

  constructor(
    numVars: number,
    private readonly activity: Float64Array,
  ) {
    this.heap = new Int32Array(numVars);
    this.position = new Int32Array(numVars).fill(-1);
  }

  get size(): number {
    return this.count;
  }

  contains(v: number): boolean {
    return this.position[v]! >= 0;
  }

  /**
   * Inserts every variable into an empty heap, in order: what inserting 0, 1, … one at a time does
   * while the activities are all equal, as they are before the first bump (each stays where it
   * lands), without a sift per variable.
   */
  insertAllInOrder(): void {
    if (this.count !== 0) throw new Error('insertAllInOrder: the heap is not empty');
    const { heap, position } = this;
    for (let v = 0; v < heap.length; v++) {
      heap[v] = v;
      position[v] = v;
    }
    this.count = heap.length;
  }

  insert(v: number): void {
    if (this.position[v]! >= 0) return;
    const i = this.count++;
    this.heap[i] = v;
    this.position[v] = i;
    this.siftUp(i);
  }

  /** Restores the order after the variable's activity went up. */
  increased(v: number): void {
    const i = this.position[v]!;
    if (i >= 0) this.siftUp(i);
  }

  /** Removes and returns the most active variable (the heap must not be empty). */
  removeMax(): number {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap[--this.count]!;
    this.position[top] = -1;
    if (this.count > 0) {
      heap[0] = last;
      this.position[last] = 0;
      this.siftDown(0);
    }
    return top;
  }

  private siftUp(i: number): void {
    const { heap, position, activity } = this;
    const v = heap[i]!;
    const a = activity[v]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pv = heap[parent]!;
      if (activity[pv]! >= a) break;
      heap[i] = pv;
      position[pv] = i;
      i = parent;
    }
    heap[i] = v;
    position[v] = i;
  }

  private siftDown(i: number): void {
    const { heap, position, activity } = this;
    const n = this.count;
    const v = heap[i]!;
    const a = activity[v]!;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && activity[heap[child + 1]!]! > activity[heap[child]!]!) child++;
      const cv = heap[child]!;
      if (activity[cv]! <= a) break;
      heap[i] = cv;
      position[cv] = i;
      i = child;
    }
    heap[i] = v;
    position[v] = i;
  }
}
