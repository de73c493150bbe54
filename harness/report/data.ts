import { groupPairs, rowsOf, withoutRepeats, type PairGroups } from '../compare/pairs.js';
import type { RunTable, TextColumn } from '../compare/table.js';
import { InputError } from '../../corpus/errors.js';
import { csvNumber, CsvValueError } from '../results/csv.js';
import { TIME_COLUMN, type TimeChoice } from '../compare/time-basis.js';
import { UsageError } from '../io/thrown.js';
import { medianOfSorted } from '../results/median.js';
import { ROW_STATUSES, type RowStatus, type RunColumn } from '../results/row.js';
import { BasisTally, isAnswer, type TimeBasis } from '../results/scores.js';

/**
 * What the report shows, computed once: per run, each pair's (puzzle × configuration) figures over
 * its repetitions — medians, never sums — held by column in typed arrays (no object per row, nor per
 * pair); the puzzles of both runs; and the series (one per configuration and run) the charts and
 * tables draw.
 */

/** How a pair ended over its repetitions. */
export const SOLVED = 0;
/** Some repetition without an answer (stuck, a limit, an error): scored as unsolved. */
export const UNSOLVED = 1;
/** Some repetition gave a wrong answer: unsolved, and shown apart. */
export const WRONG = 2;

/** Counters whose median over the repetitions a pair keeps. */
export const PAIR_COUNTERS = ['dead_ends', 'decisions', 'max_depth'] as const satisfies readonly RunColumn[];
export type PairCounter = (typeof PAIR_COUNTERS)[number];

/** One run CSV, its pairs' figures by column (index: the pair's number in `groups`). */
export interface RunData {
  table: RunTable;
  groups: PairGroups;
  /** `base` or `new` when two runs are overlaid, '' for one. */
  label: string;
  verdict: Uint8Array;
  /** Median time over the repetitions that answered, in the report's basis (NaN when none did). */
  timeMs: Float64Array;
  counters: Record<PairCounter, Float64Array>;
  /** The pair's time limit in seconds (the largest its repetitions record; NaN for none). */
  limitS: Float64Array;
  /** The puzzle (index into ReportData.puzzles) of each pair. */
  puzzle: Uint32Array;
}

export interface PuzzleInfo {
  label: string;
  title: string;
  size: string;
}

/** A line of the cactus plot and a row of the tables: one configuration in one run. */
export interface Series {
  name: string;
  config: string;
  run: RunData;
  /** Index of the configuration among all runs' configurations (its colour). */
  configIndex: number;
  /** The series' pair of each puzzle, -1 where it has none. */
  pairOf: Int32Array;
}

export interface ReportData {
  runs: RunData[];
  puzzles: PuzzleInfo[];
  configs: string[];
  series: Series[];
  basis: TimeBasis;
  /** Why the basis is not CPU time, or that it was asked ('' otherwise). */
  basisNote: string;
}

/** The repetitions' statuses: `unique`, or `unique×4 timeout×1` when they differ. */
export function describeStatuses(t: RunTable, rows: ArrayLike<number>): string {
  const status = t.text('status')!;
  const counts = new Map<string, number>();
  for (let k = 0; k < rows.length; k++) {
    const s = status.get(rows[k]!);
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  const present = ROW_STATUSES.filter((s) => counts.has(s));
  return present.length === 1 ? present[0]! : present.map((s) => `${s}×${counts.get(s)}`).join(' ');
}

/** The rows' statuses counted, per configuration name. */
export function statusCounts(run: RunData): Map<string, Partial<Record<RowStatus, number>>> {
  const t = run.table;
  const status = t.text('status')!;
  const config = t.text('config')!;
  const out = new Map<string, Partial<Record<RowStatus, number>>>();
  for (const i of run.groups.rows) {
    const name = config.get(i);
    let counts = out.get(name);
    if (!counts) out.set(name, (counts = {}));
    const s = status.get(i) as RowStatus;
    counts[s] = (counts[s] ?? 0) + 1;
  }
  return out;
}

/** CPU time when every answered row of every run with a time has one (`auto`), or as asked. */
function chooseBasis(tables: RunTable[], groups: PairGroups[], choice: TimeChoice): { basis: TimeBasis; note: string } {
  if (choice === 'wall') return { basis: 'wall', note: '--time wall' };
  const tally = new BasisTally();
  let missing = '';
  groups.forEach((g, r) => {
    const t = tables[r]!;
    const status = t.text('status')!;
    const wall = t.num('time_ms');
    const cpu = t.num('cpu_ms');
    for (const i of g.rows) {
      if (tally.add(status.get(i), wall?.[i] ?? NaN, cpu?.[i] ?? NaN) && !missing)
        missing = cpu ? `${t.file}:${t.lines[i]}: a solved row has no cpu_ms` : `${t.file} has no cpu_ms column`;
    }
  });
  if (tally.basis === 'cpu' || (choice === 'cpu' && !missing)) return { basis: 'cpu', note: choice === 'cpu' ? '--time cpu' : '' };
  if (choice === 'cpu') throw new UsageError(`--time cpu: ${missing}; give --time wall or auto`);
  return { basis: 'wall', note: missing || 'no solved row has a time' };
}

/**
 * Each distinct timeout_s as a number (NaN for empty: no limit), checked as RunTable checks time_ms:
 * the column is kept as text for compare's settings, and a bare Number() would take `abc` or `-2` as
 * no limit and 400 digits as an infinite one (PAR-2 Infinity). A bad value is `FILE:LINE: column timeout_s: …`.
 */
function limitsOf(t: RunTable, limits: TextColumn): number[] {
  return limits.values.map((v, code) => {
    try {
      return csvNumber('timeout_s', v, false, 0);
    } catch (err) {
      if (err instanceof CsvValueError) throw new InputError(t.file, t.lines[limits.firstRow[code]!]!, err.message);
      throw err;
    }
  });
}

function pairFigures(t: RunTable, g: PairGroups, label: string, basis: TimeBasis, puzzleOf: (row: number) => number): RunData {
  const n = g.count;
  const status = t.text('status')!;
  const time = t.num(TIME_COLUMN[basis]);
  const limits = t.text('timeout_s');
  const limitOfCode = limits && limitsOf(t, limits);
  const run: RunData = {
    table: t,
    groups: g,
    label,
    verdict: new Uint8Array(n),
    timeMs: new Float64Array(n).fill(NaN),
    counters: Object.fromEntries(PAIR_COUNTERS.map((c) => [c, new Float64Array(n).fill(NaN)])) as Record<PairCounter, Float64Array>,
    limitS: new Float64Array(n).fill(NaN),
    puzzle: new Uint32Array(n),
  };
  const scratch: number[] = [];
  const medianOf = (rows: Uint32Array, values: Float64Array | undefined, only?: (i: number) => boolean) => {
    scratch.length = 0;
    if (values) for (const i of rows) if (!Number.isNaN(values[i]!) && (!only || only(i))) scratch.push(values[i]!);
    return scratch.length ? medianOfSorted(Float64Array.from(scratch).sort()) : NaN;
  };
  const answered = (i: number) => isAnswer(status.get(i));
  for (let p = 0; p < n; p++) {
    const rows = rowsOf(g, p);
    let verdict = SOLVED;
    let limit = NaN;
    for (const i of rows) {
      const s = status.get(i);
      if (s === 'wrong') verdict = WRONG;
      else if (!isAnswer(s) && verdict === SOLVED) verdict = UNSOLVED;
      const l = limitOfCode?.[limits!.codes[i]!] ?? NaN;
      if (l > 0 && !(l <= limit)) limit = l;
    }
    run.verdict[p] = verdict;
    run.limitS[p] = limit;
    run.timeMs[p] = medianOf(rows, time, answered);
    for (const c of PAIR_COUNTERS) run.counters[c][p] = medianOf(rows, t.num(c));
    run.puzzle[p] = puzzleOf(rows[0]!);
  }
  return run;
}

/** The report's figures for one run, or two (BASE and NEW) overlaid. */
export function reportData(tables: RunTable[], choice: TimeChoice = 'auto'): ReportData {
  const groups = tables.map((t) => withoutRepeats(groupPairs(t)));
  const { basis, note } = chooseBasis(tables, groups, choice);
  const puzzles: PuzzleInfo[] = [];
  const puzzleIndex = new Map<string, number>();
  const runs = tables.map((t, r) => {
    const puzzleOf = (row: number) => {
      const id = t.str('puzzle_id', row);
      const path = t.str('puzzle_path', row);
      const key = `${id}\u0000${path}`;
      let k = puzzleIndex.get(key);
      if (k === undefined) {
        puzzleIndex.set(key, (k = puzzles.length));
        const [w, h] = [t.str('width', row), t.str('height', row)];
        puzzles.push({ label: path || t.str('title', row) || id, title: t.str('title', row), size: w && h ? `${w}×${h}` : '-' });
      }
      return k;
    };
    return pairFigures(t, groups[r]!, tables.length > 1 ? (r === 0 ? 'base' : 'new') : '', basis, puzzleOf);
  });
  const configs: string[] = [];
  const series: Series[] = [];
  for (const run of runs) {
    const config = run.table.text('config')!;
    for (let p = 0; p < run.groups.count; p++) {
      const name = config.get(run.groups.rows[run.groups.starts[p]!]!);
      if (!configs.includes(name)) configs.push(name);
    }
  }
  for (const [configIndex, config] of configs.entries())
    for (const run of runs) {
      const pairOf = new Int32Array(puzzles.length).fill(-1);
      const names = run.table.text('config')!;
      let any = false;
      for (let p = 0; p < run.groups.count; p++)
        if (names.get(run.groups.rows[run.groups.starts[p]!]!) === config) {
          pairOf[run.puzzle[p]!] = p;
          any = true;
        }
      if (any) series.push({ name: run.label ? `${config} (${run.label})` : config, config, run, configIndex, pairOf });
    }
  return { runs, puzzles, configs, series, basis, basisNote: note };
}
