import { isSolution } from '../../corpus/grid.js';
import { EMPTY, FILLED, UNKNOWN, type Clue, type Puzzle } from '../../corpus/model.js';
import {
  compactPlacements,
  enumeratePlacements,
  filterPlacements,
  lineMasks,
  placementCount,
  wordsFor,
  type PlacementSet,
} from '../line/enumerate.js';
import { resolveParams, type ParamSpec } from '../api/params.js';
import { emptyMetrics, statusOfSolutions, type SolveOptions, type SolveResult, type SolveStatus, type SyncStrategy } from '../api/types.js';
import { solveResult } from '../api/result.js';

/** Default cap on the placements stored at once (param `maxPlacements`). */
export const DEFAULT_MAX_PLACEMENTS = 4_000_000;

interface Line {
  start: number;
  stride: number;
  length: number;
  clue: Clue;
  /** C(length − sum + 1, blocks), exact. */
  count: bigint;
  /** Null until the line is enumerated. */
  placements: PlacementSet | null;
}

/** The parameters of `enumeration`. */
export const ENUMERATION_PARAMS: readonly ParamSpec[] = [
  { name: 'maxPlacements', type: 'integer', min: 0, default: DEFAULT_MAX_PLACEMENTS, meaning: 'most placements stored at once (then too-large)' },
];

/**
 * The textbook method. Every line gets the list of all placements of its blocks; cells that are
 * the same in every remaining placement become known; placements that contradict known cells are
 * dropped; rows and columns are re-filtered (only those whose cells changed) until nothing moves.
 *
 * The cap (`maxPlacements`, default 4,000,000) bounds the placements stored at once. Lines are
 * enumerated one at a time in ascending order of placement count (ties: rows before columns, then
 * by index), each followed by propagation to a fixpoint. A line is enumerated only when its full
 * count fits in the cap minus the placements stored at that moment; the first line that does not
 * fit ends enumeration (every later one is at least as large, and at a fixpoint the stored count
 * cannot shrink). The lines that were enumerated keep propagating, so:
 * - the grid completes: it is verified with isSolution (an unenumerated line is checked there) and
 *   reported `unique` (`solved` when maxSolutions = 1), or `contradiction` if it fails, since every
 *   step was forced;
 * - some line's placements all die: `contradiction`;
 * - unknown cells remain: `stuck` when every line was enumerated, else `too-large`.
 * It never guesses: deadEnds, decisions and maxDepth stay 0. lineSolves counts filter passes.
 * extra.placementsStored is the most placements held at once (a new line counts in full until its
 * first filter pass); extra.placementsDropped the placements removed by filtering, in total.
 */
export function solveByEnumeration(puzzle: Puzzle, options: SolveOptions): SolveResult {
  const maxPlacements = BigInt(resolveParams('enumeration', ENUMERATION_PARAMS, options.params).maxPlacements as number);
  const { width, height } = puzzle;
  const grid = new Uint8Array(width * height);
  const metrics = emptyMetrics();
  const lines: Line[] = [];
  for (let y = 0; y < height; y++) lines.push(makeLine(y * width, 1, width, puzzle.rows[y]!));
  for (let x = 0; x < width; x++) lines.push(makeLine(x, width, height, puzzle.columns[x]!));
  const order = lines.map((_, i) => i).sort((a, b) => compareBig(lines[a]!.count, lines[b]!.count) || a - b);

  const maxWords = wordsFor(Math.max(width, height));
  const knownFilled = new Uint32Array(maxWords);
  const knownEmpty = new Uint32Array(maxWords);
  const allFilled = new Uint32Array(maxWords);
  const anyFilled = new Uint32Array(maxWords);

  // FIFO of enumerated lines whose cells changed since their last filter pass.
  const queue = new Int32Array(lines.length);
  const queued = new Uint8Array(lines.length);
  let head = 0;
  let size = 0;
  const enqueue = (li: number) => {
    if (queued[li] || !lines[li]!.placements) return;
    queued[li] = 1;
    queue[(head + size) % lines.length] = li;
    size++;
  };

  let stored = 0n;
  let peak = 0n;
  let dropped = 0;
  let unknown = grid.length;

  /** One filter pass over line `li`: 'contradiction' when no placement survives, 'timeout' when the stop check fired meanwhile. */
  const refine = (li: number): 'ok' | 'contradiction' | 'timeout' => {
    const line = lines[li]!;
    const set = line.placements!;
    metrics.lineSolves++;
    lineMasks(grid, line.start, line.stride, line.length, knownFilled, knownEmpty);
    const gone = filterPlacements(set, knownFilled, knownEmpty, allFilled, anyFilled, options.shouldStop);
    if (gone < 0) return 'timeout';
    dropped += gone;
    stored -= BigInt(gone);
    compactPlacements(set);
    if (set.count === 0) return 'contradiction';
    const isRow = li < height;
    for (let i = 0, k = line.start; i < line.length; i++, k += line.stride) {
      if (grid[k] !== UNKNOWN) continue;
      const bit = 1 << (i & 31);
      const w = i >>> 5;
      let value: number = UNKNOWN;
      if (allFilled[w]! & bit) value = FILLED;
      else if (!(anyFilled[w]! & bit)) value = EMPTY;
      if (value === UNKNOWN) continue;
      grid[k] = value;
      unknown--;
      enqueue(isRow ? height + i : i);
    }
    return 'ok';
  };

  const finish = (status: SolveStatus): SolveResult => {
    metrics.extra = { placementsStored: Number(peak), placementsDropped: dropped };
    return solveResult(status, grid, status === 'unique' || status === 'solved' ? [grid.slice()] : [], metrics);
  };

  let next = 0;
  for (;;) {
    while (size > 0) {
      if (options.shouldStop()) return finish('timeout');
      const li = queue[head]!;
      head = (head + 1) % lines.length;
      size--;
      queued[li] = 0;
      const outcome = refine(li);
      if (outcome !== 'ok') return finish(outcome);
    }
    if (unknown === 0 || next === order.length) break;
    const li = order[next]!;
    const line = lines[li]!;
    if (line.count > maxPlacements - stored) break;
    if (options.shouldStop()) return finish('timeout');
    const set = enumeratePlacements(line.length, line.clue, options.shouldStop);
    if (!set) return finish('timeout');
    line.placements = set;
    stored += BigInt(set.count);
    if (stored > peak) peak = stored;
    next++;
    enqueue(li);
  }

  if (unknown === 0) return finish(isSolution(puzzle, grid) ? statusOfSolutions(1, options.maxSolutions) : 'contradiction');
  return finish(next === order.length ? 'stuck' : 'too-large');
}

function makeLine(start: number, stride: number, length: number, clue: Clue): Line {
  return { start, stride, length, clue, count: placementCount(length, clue), placements: null };
}

const compareBig = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

export const enumeration: SyncStrategy = {
  name: 'enumeration',
  description: 'Textbook line enumeration: list every placement of every line, keep what all agree on; never guesses',
  params: ENUMERATION_PARAMS,
  solve: solveByEnumeration,
};
