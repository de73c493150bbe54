import { countKnown, describeViolation, verifyGrid } from '../../corpus/grid.js';
import { EMPTY, UNKNOWN, type Grid, type Puzzle } from '../../corpus/model.js';
import { SOLVE_STATUSES, type SolveResult } from '../../solvers/api/types.js';
import type { Judged } from './row.js';
import { isAnswer } from './scores.js';
import type { TaskOutcome } from './outcome.js';
import { oneLine, thrownMessage } from '../io/thrown.js';

const sameGrid = (a: Grid, b: Grid) => a.length === b.length && a.every((v, i) => v === b[i]);

/** A grid of the puzzle's size holding cell values only (0 unknown, 1 filled, 2 empty). */
const isGrid = (g: unknown, cells: number) => g instanceof Uint8Array && g.length === cells && g.every((v) => v <= EMPTY);

/** The longest metrics.extra a row holds, as JSON: room for any counters, not for a solver's dump. */
export const MAX_EXTRA_CHARS = 64 * 1024;

/** Counters a strategy reports itself: each absent, or a whole number ≥ 0 (what the CSV's readers accept). */
const STRATEGY_COUNTERS = ['deadEnds', 'decisions', 'lineSolves', 'maxDepth'] as const;

/**
 * Why a result's shape is unusable, or null. Plugins are outside code: nothing about them is assumed.
 * With `maxSolutions`, more solutions than asked for are refused too.
 */
export function malformed(puzzle: Puzzle, r: SolveResult, maxSolutions?: number): string | null {
  if (!r || typeof r !== 'object') return 'strategy returned no result object';
  if (!SOLVE_STATUSES.includes(r.status)) return `strategy returned unknown status "${String(r.status)}"`;
  const cells = puzzle.width * puzzle.height;
  if (!isGrid(r.grid, cells)) return 'strategy returned a grid of the wrong type, size or cell values';
  if (!Array.isArray(r.solutions)) return 'strategy returned solutions that are not an array';
  if (maxSolutions !== undefined && r.solutions.length > maxSolutions)
    return `strategy returned ${r.solutions.length} solutions, more than the ${maxSolutions} asked for`;
  // Indices, not some(): some() passes over the holes of a sparse array.
  for (let i = 0; i < r.solutions.length; i++)
    if (!isGrid(r.solutions[i], cells)) return 'strategy returned solutions of the wrong type, size or cell values';
  const m = r.metrics;
  if (!m || typeof m !== 'object') return 'strategy returned no metrics';
  for (const name of STRATEGY_COUNTERS) {
    const v: unknown = m[name];
    if (v !== undefined && !(Number.isSafeInteger(v) && (v as number) >= 0))
      return `strategy returned metrics.${name} = ${oneLine(typeof v === 'string' ? JSON.stringify(v) : String(v)).slice(0, 40)}, not a whole number ≥ 0`;
  }
  if (m.extra !== undefined) {
    if (m.extra === null || typeof m.extra !== 'object' || Array.isArray(m.extra)) return 'strategy returned metrics.extra that is not an object';
    let json: string | undefined;
    try {
      json = JSON.stringify(m.extra);
    } catch (err) {
      return `strategy returned metrics.extra that cannot be written as JSON (${oneLine(err instanceof Error ? err.message : String(err))})`;
    }
    // A String or Date object, or one whose toJSON gives no object, is written as something else.
    if (!json?.startsWith('{')) return 'strategy returned metrics.extra that is not an object';
    // Written into the row on the harness's one thread, where external solvers' clocks run too: tens
    // of MiB of it (an external program's JSON) held the run for a minute, and a solver running
    // meanwhile was recorded as a timeout.
    if (json.length > MAX_EXTRA_CHARS) return `strategy returned metrics.extra of ${json.length} characters as JSON, more than the ${MAX_EXTRA_CHARS} a row holds`;
  }
  return null;
}

/** A grid as a string key (one code unit per cell), for finding repeated solutions in linear time. */
const gridKey = (g: Grid) => Buffer.from(g.buffer, g.byteOffset, g.length).toString('latin1');

/**
 * Why a partial grid cannot be what a strategy deduced, or null: a known cell the goal refutes. A
 * deduced cell holds in every solution, so in the goal too. Without a goal nothing is checked: known
 * cells that leave some line no placement are not wrong when the puzzle has no solution (a
 * strategy stopped early may not have noticed that yet), and only solving tells the two cases apart.
 */
function partialGridProblem(puzzle: Puzzle, grid: Grid): string | null {
  const { width, goal } = puzzle;
  const i = goal ? grid.findIndex((v, k) => v !== UNKNOWN && v !== goal[k]) : -1;
  if (i < 0) return null;
  return `the final grid's cell at row ${Math.floor(i / width) + 1}, column ${(i % width) + 1} differs from the goal, which satisfies the clues`;
}

/**
 * Checks every answer against the clues before it is recorded, and the claim made about them:
 * a wrong solution, a false uniqueness or impossibility claim, or a miscounted status is `wrong`.
 * So is a final grid that is not the first solution when there is one, or, when there is none,
 * a partial grid whose known cells the goal refutes (after `contradiction` the grid is wherever
 * the strategy stopped, so it is not checked).
 */
export function checkAnswer(puzzle: Puzzle, r: SolveResult, maxSolutions?: number): string | null {
  const seen = new Set<string>();
  for (const [i, solution] of r.solutions.entries()) {
    const violations = verifyGrid(puzzle, solution);
    if (violations.length > 0) return `solution ${i + 1} fails: ${describeViolation(violations[0]!)}`;
    const key = gridKey(solution);
    if (seen.has(key)) return `solution ${i + 1} repeats an earlier one`;
    seen.add(key);
  }
  const n = r.solutions.length;
  if ((r.status === 'unique' || r.status === 'solved') && n !== 1) return `status ${r.status} with ${n} solutions`;
  if (r.status === 'multiple' && n < 2) return `status multiple with ${n} solutions`;
  // `solved` leaves uniqueness open: no answer when a second solution was asked for.
  if (r.status === 'solved' && maxSolutions !== undefined && maxSolutions >= 2)
    return `status solved when uniqueness was asked (max solutions ${maxSolutions}): unique or multiple expected`;
  if (r.status === 'contradiction' && n > 0) return `status contradiction with ${n} solutions`;
  if (r.status === 'unique' && puzzle.goal && !sameGrid(r.solutions[0]!, puzzle.goal))
    return 'claims a unique solution that differs from the goal, which also satisfies the clues';
  if (r.status === 'contradiction' && puzzle.goal) return 'claims no solution, but the goal satisfies the clues';
  if (n > 0) return sameGrid(r.grid, r.solutions[0]!) ? null : 'the final grid differs from solution 1';
  return r.status === 'contradiction' ? null : partialGridProblem(puzzle, r.grid);
}

function num(v: unknown): number | '' {
  return typeof v === 'number' && Number.isFinite(v) ? v : '';
}

const blankCounters = {
  cells_resolved: '',
  dead_ends: '',
  decisions: '',
  line_solves: '',
  solutions_found: '',
  max_depth: '',
  extra: '',
} as const;

/**
 * Turns a task's outcome into the measured fields of its row (`maxSolutions`: what the task asked
 * for; `timeoutMs`: its time limit).
 */
export function judge(puzzle: Puzzle, outcome: TaskOutcome, maxSolutions?: number, timeoutMs = Infinity): Judged {
  switch (outcome.kind) {
    case 'killed':
      return { status: 'timeout', verified: '', time_ms: round3(outcome.elapsedMs), ...blankCounters, error: outcome.message ?? 'stopped at the hard time limit' };
    case 'memory':
      return { status: 'memory', verified: '', time_ms: '', ...blankCounters, error: oneLine(outcome.message) };
    case 'error':
      return { status: 'error', verified: '', time_ms: outcome.elapsedMs === undefined ? '' : round3(outcome.elapsedMs), ...blankCounters, error: oneLine(outcome.message) };
  }
  const { result, timeMs } = outcome.reply;
  const failed = (problem: string): Judged => ({ status: 'error', verified: '', time_ms: round3(timeMs), ...blankCounters, error: problem });
  try {
    const shapeProblem = malformed(puzzle, result, maxSolutions);
    return shapeProblem ? failed(shapeProblem) : overTime(judgeResult(puzzle, result, timeMs, maxSolutions), timeMs, timeoutMs);
  } catch (err) {
    // A plugin's result is outside code (a getter may throw): one error row, never a stopped run.
    return failed(`its result cannot be recorded: ${oneLine(thrownMessage(err))}`);
  }
}

/**
 * An answer that came after the time limit, from a strategy that does not poll it or a program that
 * ended past it, is no answer: over the limit is unsolved, as in the SAT competitions, so that a
 * strategy gains nothing from the grace before the hard limit. It is checked all the same (a wrong
 * one stays wrong), and its counters are kept.
 */
export function overTime<T extends Pick<Judged, 'status' | 'error'>>(judged: T, timeMs: number, timeoutMs: number): T {
  if (!(timeMs > timeoutMs) || !isAnswer(judged.status)) return judged;
  return { ...judged, status: 'timeout', error: `answered ${judged.status} after the time limit (${(timeMs / 1000).toFixed(3)} s, the limit ${timeoutMs / 1000} s)` };
}

function judgeResult(puzzle: Puzzle, result: SolveResult, timeMs: number, maxSolutions?: number): Judged {
  const m = result.metrics;
  const wrong = checkAnswer(puzzle, result, maxSolutions);
  return {
    status: wrong ? 'wrong' : result.status,
    verified: wrong ? 'false' : result.solutions.length > 0 ? 'true' : '',
    time_ms: round3(timeMs),
    // Counted here, not trusted from the strategy, so that the column means the same for every strategy.
    cells_resolved: countKnown(result.grid),
    dead_ends: num(m.deadEnds),
    decisions: num(m.decisions),
    line_solves: num(m.lineSolves),
    solutions_found: result.solutions.length,
    max_depth: num(m.maxDepth),
    extra: m.extra && Object.keys(m.extra).length > 0 ? JSON.stringify(m.extra) : '',
    error: wrong ?? '',
  };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
