/**
 * The run CSV's row: one typed record whose keys are the columns. Every reader and writer of run
 * CSVs names columns through RunColumn, so a misspelt column is a type error.
 */
import type { Puzzle } from '../../corpus/model.js';
import { SOLVE_STATUSES, type SolveStatus } from '../../solvers/api/types.js';
import type { ResourceUsage } from './outcome.js';

/** A row's status: a strategy's own, or what the harness found (`wrong`, `error`, `memory`). */
export type RowStatus = SolveStatus | 'wrong' | 'error' | 'memory';

export const ROW_STATUSES: readonly RowStatus[] = [...SOLVE_STATUSES, 'wrong', 'memory', 'error'];

/** What identifies a run and the machine and code it ran on; repeated on every row. */
export interface RunEnvironment {
  run_id: string;
  started_at: string;
  nonobench_version: string;
  git_commit: string;
  node_version: string;
  cpu_model: string;
}

/** One task's row; '' where a value is unknown (a solve that never returned has no counters). */
export interface RunRow extends RunEnvironment {
  task: number;
  puzzle_id: string;
  puzzle_path: string;
  title: string;
  width: number;
  height: number;
  strategy: string;
  /** The configuration's name, unique in a run (the strategy's name when it runs once with its defaults). */
  config: string;
  /** The plugin module or external program that ran, with a hash of the file (`PATH@HASH`); empty for a built-in. */
  strategy_file: string;
  rep: number;
  status: RowStatus;
  verified: 'true' | 'false' | '';
  time_ms: number | '';
  /** CPU time of the solve (user + system): the worker thread's, or an external solver's processes'. */
  cpu_ms: number | '';
  /** Peak resident memory of an external solver's largest process, KiB. */
  peak_rss_kb: number | '';
  calib_ms: number | '';
  cells_total: number;
  cells_resolved: number | '';
  resolved_pct: number | '';
  dead_ends: number | '';
  decisions: number | '';
  line_solves: number | '';
  solutions_found: number | '';
  max_depth: number | '';
  timeout_s: number | '';
  max_solutions: number;
  workers: number;
  warmup: number;
  memory_mb: number;
  params: string;
  /** The benchmark definition file the run came from, with a hash of its text (`FILE@HASH`); empty without one. */
  definition: string;
  extra: string;
  error: string;
}

export type RunColumn = keyof RunRow;

/** The columns in file order. Every one is documented in the README. */
export const RUN_COLUMNS = [
  'run_id',
  'started_at',
  'nonobench_version',
  'git_commit',
  'node_version',
  'cpu_model',
  'task',
  'puzzle_id',
  'puzzle_path',
  'title',
  'width',
  'height',
  'strategy',
  'config',
  'strategy_file',
  'rep',
  'status',
  'verified',
  'time_ms',
  'cpu_ms',
  'peak_rss_kb',
  'calib_ms',
  'cells_total',
  'cells_resolved',
  'resolved_pct',
  'dead_ends',
  'decisions',
  'line_solves',
  'solutions_found',
  'max_depth',
  'timeout_s',
  'max_solutions',
  'workers',
  'warmup',
  'memory_mb',
  'params',
  'definition',
  'extra',
  'error',
] as const satisfies readonly RunColumn[];

// A field of RunRow missing from RUN_COLUMNS fails here.
const everyColumnListed: Exclude<RunColumn, (typeof RUN_COLUMNS)[number]> extends never ? true : never = true;
void everyColumnListed;

/** A run CSV row as read back: every value text, any column possibly absent (older runs). */
export type RunRecord = Partial<Record<RunColumn, string>>;

/** The measured part of a row, from the task's outcome (see verify.ts). */
export type Judged = Pick<
  RunRow,
  'status' | 'verified' | 'time_ms' | 'cells_resolved' | 'dead_ends' | 'decisions' | 'line_solves' | 'solutions_found' | 'max_depth' | 'extra' | 'error'
>;

/** What every row of one run shares. */
export type RunFields = RunEnvironment & Pick<RunRow, 'timeout_s' | 'max_solutions' | 'workers' | 'warmup' | 'memory_mb' | 'definition'>;

/** What identifies a task's row. */
export interface RowTask {
  index: number;
  puzzle: Puzzle;
  strategy: string;
  config: string;
  /** The plugin module or external program, as recorded (see the `strategy_file` column). */
  strategyFile: string;
  rep: number;
  /** The parameters it ran with, as recorded (see the `params` column). */
  params: string;
}

const thousandths = (x: number) => Math.round(x * 1000) / 1000;

/** The row of a finished task. */
export function buildRow(run: RunFields, task: RowTask, judged: Judged, calibMs: number | '', usage?: ResourceUsage): RunRow {
  const { puzzle } = task;
  const cellsTotal = puzzle.width * puzzle.height;
  // Filled in place rather than spread from three objects: this runs once per task in the thread that feeds the workers.
  const row = Object.assign({}, run, judged) as RunRow;
  row.task = task.index;
  row.puzzle_id = puzzle.id;
  row.puzzle_path = puzzle.meta.source ?? '';
  row.title = puzzle.meta.title ?? '';
  row.width = puzzle.width;
  row.height = puzzle.height;
  row.strategy = task.strategy;
  row.config = task.config;
  row.strategy_file = task.strategyFile;
  row.rep = task.rep;
  row.cpu_ms = usage && usage.cpuMs !== '' ? thousandths(usage.cpuMs) : '';
  row.peak_rss_kb = usage?.peakRssKb ?? '';
  row.calib_ms = calibMs === '' ? '' : thousandths(calibMs);
  row.cells_total = cellsTotal;
  row.resolved_pct = judged.cells_resolved === '' ? '' : Math.round((1000 * judged.cells_resolved) / cellsTotal) / 10;
  row.params = task.params;
  return row;
}

/** The row's values in column order, as the CSV writer takes them. */
export const rowValues = (row: RunRow): (string | number)[] => RUN_COLUMNS.map((c) => row[c]);

/**
 * A run CSV's records with `config` filled in: files written before configurations existed have no
 * such column, and each of their strategies ran once, so its name is the configuration's.
 */
export function withConfig<R extends RunRecord>(records: R[]): R[] {
  for (const r of records) if (r.config === undefined || r.config === '') r.config = r.strategy ?? '';
  return records;
}

/** The `strategy` of every external solver's configuration. */
export const EXTERNAL_STRATEGY = 'external';
