import { availableParallelism } from 'node:os';
import { clip, InputError } from '../../corpus/errors.js';
import type { Params } from '../../solvers/api/params.js';
import type { RunColumn } from '../results/row.js';
import { MAX_WARMUP } from '../config/limits.js';
import { MAX_TASKS } from '../run/tasks.js';
import { asTable, NEEDED_COLUMNS, taskOrder, type RunCsv, type RunTable } from './table.js';

/**
 * What a baseline CSV records about the run that made it, every value checked as the command-line
 * option it stands for is (harness/cli/options.ts, whose bounds are repeated here as this folder
 * cannot import the CLI's): a baseline is data, and a forged one must not ask bench-check for ten
 * thousand workers or a negative time limit. A bad value is `FILE:LINE: column …: …`.
 */

/** Columns a baseline needs beyond compare's, to rebuild the run that produced it. */
export const BASELINE_COLUMNS: readonly RunColumn[] = [...NEEDED_COLUMNS, 'rep', 'timeout_s', 'max_solutions'];

/** `--memory`'s least value (MiB): below about 8 a worker thread cannot even start. */
export const MIN_MEMORY_MB = 16;
/** `--workers`'s bound: this many threads per core. */
export const MAX_WORKERS_PER_CORE = 4;

/** What a baseline CSV records about the run that made it. */
export interface BaselineConfig {
  /** Every puzzle path, in the order first recorded (`FILE#N` for bundle members). */
  paths: string[];
  /** The file line of each path's first row (in task order), where a path that cannot be found is reported. */
  pathLines: number[];
  /** Strategy names as recorded. */
  strategies: string[];
  repeat: number;
  /** 0 when the baseline ran without a limit. */
  timeoutS: number;
  maxSolutions: number;
  /** Recorded by newer runs (columns workers, warmup, memory_mb, params); undefined when absent. */
  workers?: number;
  warmup?: number;
  memoryMb?: number;
  /** The configurations run, in order: name (column config), strategy name, parameters as recorded (column params). */
  configurations: RecordedConfiguration[];
  /** The largest width or height among the rows (columns width, height); undefined when absent. */
  largestSide?: number;
  /** The benchmark definition the baseline came from (column definition, `FILE@HASH`); undefined when absent or empty. */
  definition?: string;
  /** The nonobench commit that recorded every row (column git_commit, `-dirty` when it had changes); undefined unless one. */
  commit?: string;
}

/** A configuration as a baseline records it. */
export interface RecordedConfiguration {
  name: string;
  strategy: string;
  /** Absent when the CSV has no params column or leaves it empty (the defaults then). */
  params?: Params;
  /** The file line of its first row (in task order), where a problem with it is reported. */
  line: number;
}

/** A rule for a value: `min` to `max`, whole or not, and what to add to the message. */
interface Rule {
  whole: boolean;
  min: number;
  max?: number;
  why?: string;
}

const WHOLE = /^\d+$/;
const DECIMAL = /^\d+(\.\d+)?$/;

/** The value of a column at a row checked against a rule, or `FILE:LINE: column C: "V" must be …`. */
function checked(t: RunTable, column: RunColumn, row: number, rule: Rule): number {
  const text = t.str(column, row);
  const n = Number(text);
  const range = rule.max === undefined ? `≥ ${rule.min}` : `from ${rule.min} to ${rule.max}`;
  if (!(rule.whole ? WHOLE : DECIMAL).test(text) || !Number.isFinite(n) || n < rule.min || (rule.max !== undefined && n > rule.max))
    throw new InputError(t.file, t.lines[row]!, `column ${column}: "${clip(text)}" must be ${rule.whole ? 'a whole number' : 'a number'} ${range}${rule.why ?? ''}`);
  return n;
}

/** The rows in task order, and for each text value the first of them that has it. */
interface Ordered {
  t: RunTable;
  order: Uint32Array;
}

/** The distinct values of a column in task order, each with the first row that has it. */
function distinct({ t, order }: Ordered, column: RunColumn): { text: string; row: number }[] {
  const col = t.text(column);
  if (!col) return [];
  const met = new Uint8Array(col.values.length);
  const out: { text: string; row: number }[] = [];
  for (const i of order) {
    const code = col.codes[i]!;
    if (met[code]) continue;
    met[code] = 1;
    out.push({ text: col.values[code]!, row: i });
  }
  return out;
}

/** The one value a column takes over all rows (its first row), or an error at the first row that differs. */
function single(o: Ordered, column: RunColumn): { text: string; row: number } | undefined {
  const values = distinct(o, column);
  if (values.length > 1) {
    const shown = values.slice(0, 5).map((v) => v.text);
    const more = values.length > 5 ? `, … ${values.length - 5} more` : '';
    throw new InputError(o.t.file, o.t.lines[values[1]!.row]!, `column ${column} takes several values (${shown.join(', ')}${more}): not one run configuration`);
  }
  return values[0];
}

/** A one-valued column checked against its rule, or undefined when the CSV lacks it or leaves it empty. */
function optional(o: Ordered, column: RunColumn, rule: Rule): number | undefined {
  const value = single(o, column);
  return value === undefined || value.text === '' ? undefined : checked(o.t, column, value.row, rule);
}

/** The configurations of a run CSV, each with its strategy and recorded parameters (all its rows alike). */
function recordedConfigurations(o: Ordered): RecordedConfiguration[] {
  const { t } = o;
  const byName = new Map<string, RecordedConfiguration & { text: string }>();
  for (const i of o.order) {
    const name = t.str('config', i);
    const strategy = t.str('strategy', i);
    const text = t.str('params', i);
    const before = byName.get(name);
    if (before) {
      if (before.text !== text || before.strategy !== strategy)
        throw new InputError(t.file, t.lines[i]!, `configuration ${name} has rows with different strategies or params: not one run configuration`);
      continue;
    }
    const config: RecordedConfiguration & { text: string } = { name, strategy, text, line: t.lines[i]! };
    if (text !== '') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new InputError(t.file, t.lines[i]!, 'column params: not a JSON object');
      config.params = parsed as Params;
    }
    byName.set(name, config);
  }
  return [...byName.values()].map(({ text: _text, ...config }) => config);
}

/** The run a baseline records, every value checked (see the top of this file). */
export function baselineConfig(csv: RunCsv | RunTable, cores = availableParallelism()): BaselineConfig {
  const t = asTable(csv);
  if (t.size === 0) throw new InputError(t.file, 0, 'no rows, nothing to rerun');
  const o: Ordered = { t, order: taskOrder(t) };
  const paths = distinct(o, 'puzzle_path');
  const empty = paths.find((p) => p.text === '' || p.text.includes('\u0000'));
  if (empty) throw new InputError(t.file, t.lines[empty.row]!, 'column puzzle_path: empty or not a path, so its puzzle cannot be found again');
  const rep = t.num('rep');
  let repeat = 0;
  let repeatRow = 0;
  for (let i = 0; i < t.size; i++) {
    if (!rep || Number.isNaN(rep[i]!)) throw new InputError(t.file, t.lines[i]!, 'column rep: empty, but a baseline says which repetition each row is');
    if (rep[i]! > repeat) [repeat, repeatRow] = [rep[i]!, i];
  }
  const timeout = single(o, 'timeout_s');
  const maxSolutions = single(o, 'max_solutions');
  if (!maxSolutions) throw new InputError(t.file, 1, 'not a run CSV (no max_solutions column)');
  const configurations = recordedConfigurations(o);
  // The rerun's task list is built whole: a forged repetition number must not ask for billions of tasks.
  const tasks = paths.length * configurations.length * repeat;
  if (tasks > MAX_TASKS)
    throw new InputError(
      t.file,
      t.lines[repeatRow]!,
      `column rep: ${repeat} repetitions of ${paths.length} puzzles × ${configurations.length} configurations would be ${tasks.toLocaleString('en-US')} tasks to rerun, more than the limit of ${MAX_TASKS.toLocaleString('en-US')}`,
    );
  const config: BaselineConfig = {
    paths: paths.map((p) => p.text),
    pathLines: paths.map((p) => t.lines[p.row]!),
    strategies: distinct(o, 'strategy').map((s) => s.text),
    configurations,
    repeat,
    timeoutS: timeout === undefined || timeout.text === '' ? 0 : checked(t, 'timeout_s', timeout.row, { whole: false, min: 0 }),
    maxSolutions: checked(t, 'max_solutions', maxSolutions.row, { whole: true, min: 1 }),
  };
  const bound = MAX_WORKERS_PER_CORE * cores;
  const workers = optional(o, 'workers', { whole: true, min: 1, max: bound, why: ` (${MAX_WORKERS_PER_CORE} × the ${cores} core${cores === 1 ? '' : 's'})` });
  const warmup = optional(o, 'warmup', { whole: true, min: 0, max: MAX_WARMUP, why: ' (as --warmup)' });
  const memoryMb = optional(o, 'memory_mb', { whole: true, min: MIN_MEMORY_MB, why: ' (MiB; a worker thread needs about 8 to start)' });
  if (workers !== undefined) config.workers = workers;
  if (warmup !== undefined) config.warmup = warmup;
  if (memoryMb !== undefined) config.memoryMb = memoryMb;
  let largest = 0;
  for (const column of ['width', 'height'] as const)
    for (const v of distinct(o, column)) if (v.text !== '') largest = Math.max(largest, checked(t, column, v.row, { whole: true, min: 1 }));
  if (largest > 0) config.largestSide = largest;
  const definition = single(o, 'definition')?.text;
  if (definition) config.definition = definition;
  const commits = distinct(o, 'git_commit');
  if (commits.length === 1 && commits[0]!.text !== '') config.commit = commits[0]!.text;
  return config;
}
