import { medianOfSorted } from '../results/median.js';
import type { RunColumn } from '../results/row.js';
import { taskOrder, type RunTable, type TextColumn } from './table.js';

/**
 * A run's rows grouped by pair — one (puzzle_id, puzzle_path, config) with all its repetitions —
 * as index arrays into its table: pair p's rows are `rows.subarray(starts[p], starts[p + 1])`, in
 * task order, pairs in the order they first appear. Linear in the rows, no object per row.
 */
export interface PairGroups {
  table: RunTable;
  /** Rows in task order. */
  order: Uint32Array;
  count: number;
  rows: Uint32Array;
  starts: Uint32Array;
  /** Rows left out as repeats of an earlier one (see withoutRepeats). */
  duplicates: number;
}

/** The rows of pair `p`. */
export const rowsOf = (g: PairGroups, p: number): Uint32Array => g.rows.subarray(g.starts[p]!, g.starts[p + 1]!);

/** The text identifying a pair across runs. */
export function pairKey(t: RunTable, row: number): string {
  return `${t.str('puzzle_id', row)}\u0000${t.str('puzzle_path', row)}\u0000${t.str('config', row)}`;
}

/** Codes of a text column (zeros when absent). */
const codesOf = (t: RunTable, c: RunColumn) => t.text(c)?.codes ?? new Uint8Array(t.size);
const sizeOf = (t: RunTable, c: RunColumn) => Math.max(1, t.text(c)?.values.length ?? 1);

/** The table's rows grouped by pair, in task order. */
export function groupPairs(t: RunTable): PairGroups {
  const n = t.size;
  const order = taskOrder(t);
  const ids = codesOf(t, 'puzzle_id');
  const paths = codesOf(t, 'puzzle_path');
  const configs = codesOf(t, 'config');
  const pathCount = sizeOf(t, 'puzzle_path');
  const configCount = sizeOf(t, 'config');
  // Puzzles, then pairs, numbered as they first appear in task order.
  const puzzles = new Map<number, number>();
  const pairIds = new Map<number, number>();
  const pairOf = new Uint32Array(n);
  for (const i of order) {
    const pk = ids[i]! * pathCount + paths[i]!;
    let puzzle = puzzles.get(pk);
    if (puzzle === undefined) puzzles.set(pk, (puzzle = puzzles.size));
    const key = puzzle * configCount + configs[i]!;
    let pair = pairIds.get(key);
    if (pair === undefined) pairIds.set(key, (pair = pairIds.size));
    pairOf[i] = pair;
  }
  const count = pairIds.size;
  // A stable counting sort of the task order by pair.
  const starts = new Uint32Array(count + 1);
  for (let i = 0; i < n; i++) starts[pairOf[i]! + 1]!++;
  for (let p = 0; p < count; p++) starts[p + 1]! += starts[p]!;
  const fill = starts.slice(0, count);
  const rows = new Uint32Array(n);
  for (const i of order) rows[fill[pairOf[i]!]!++] = i;
  return { table: t, order, count, rows, starts, duplicates: 0 };
}

/**
 * The groups without rows repeating an earlier one: the same repetition of a pair (or, for a row
 * without a rep, the same task of the same run), as left by concatenated files or a resume run twice.
 * A row with neither is kept: nothing says it repeats another.
 */
export function withoutRepeats(g: PairGroups): PairGroups {
  const t = g.table;
  const rep = t.num('rep');
  const task = t.num('task');
  const runs = t.text('run_id');
  if (!rep && !(task && runs)) return g;
  const rows = new Uint32Array(g.rows.length);
  const starts = new Uint32Array(g.count + 1);
  const seen = new Set<number | string>();
  let k = 0;
  for (let p = 0; p < g.count; p++) {
    seen.clear();
    starts[p] = k;
    for (const i of rowsOf(g, p)) {
      const key = repeatKey(rep, task, runs, i);
      if (key !== undefined && seen.has(key)) continue;
      if (key !== undefined) seen.add(key);
      rows[k++] = i;
    }
  }
  starts[g.count] = k;
  return { ...g, rows: rows.subarray(0, k), starts, duplicates: g.rows.length - k };
}

/**
 * What makes row i of a pair the same as another: its rep, else its run and task; undefined when it
 * has neither. An empty value means no value (README, "CSV files"): two empty reps are two unknown
 * repetitions, not one repetition twice.
 */
function repeatKey(rep: Float64Array | undefined, task: Float64Array | undefined, runs: TextColumn | undefined, i: number): number | string | undefined {
  if (rep && !Number.isNaN(rep[i]!)) return rep[i]!;
  const run = runs?.get(i) ?? '';
  if (!task || Number.isNaN(task[i]!) || run === '') return undefined;
  return `${run}\u0000${task[i]!}`;
}

/** A mark per row: 1 for the rows the groups hold. */
export function heldRows(g: PairGroups): Uint8Array {
  const held = new Uint8Array(g.table.size);
  for (const i of g.rows) held[i] = 1;
  return held;
}

/** The distinct non-empty values of a column over the held rows, in task order. */
export function distinctValues(g: PairGroups, column: RunColumn, held = heldRows(g)): string[] {
  const t = g.table;
  const col = t.text(column);
  if (!col) {
    const seen = new Set<string>();
    for (const i of g.order) if (held[i]) seen.add(t.str(column, i));
    seen.delete('');
    return [...seen];
  }
  const met = new Uint8Array(col.values.length);
  const out: string[] = [];
  for (const i of g.order) {
    const code = col.codes[i]!;
    if (!held[i] || met[code]) continue;
    met[code] = 1;
    if (col.values[code] !== '') out.push(col.values[code]!);
  }
  return out;
}

/** Fewest distinct calibrations a run needs before its speed is trusted for normalizing. */
export const MIN_CALIBRATIONS = 10;

/**
 * A run's machine speed: the median of its distinct calib_ms values (each worker re-measures about
 * once a second and stamps the latest value on its rows; the median ignores a stray slow one), or
 * null when it has too few of them to say — a short run's few samples would add more noise than
 * they remove.
 */
export function calibrationOf(values: Iterable<number>): number | null {
  const distinct = new Set<number>();
  for (const v of values) if (Number.isFinite(v) && v > 0) distinct.add(v);
  return distinct.size >= MIN_CALIBRATIONS ? medianOfSorted(Float64Array.from(distinct).sort()) : null;
}

/** The calib_ms values of the held rows. */
export function* calibrations(g: PairGroups): Iterable<number> {
  const calib = g.table.num('calib_ms');
  if (calib) for (const i of g.rows) yield calib[i]!;
}
