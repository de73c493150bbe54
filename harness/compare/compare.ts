import { InputError } from '../../corpus/errors.js';
import { readCsvInput, requireColumns } from '../results/csv.js';
import { ROW_STATUSES, withConfig, type RowStatus, type RunColumn, type RunRecord } from '../results/row.js';
import { estimateRatio, geometricMean, type RatioEstimate } from './stats.js';
import { medianOfSorted } from '../results/median.js';

/**
 * Compares two run CSVs pair by pair — a pair is one (puzzle_id, puzzle_path, strategy) with all
 * its repetitions — for time, status and the deterministic counters.
 *
 * Time rule (per pair, on the repetitions that finished on both sides):
 * - with an interval: a regression when its lower bound exceeds 1 + threshold, an improvement
 *   when its upper bound is below 1 / (1 + threshold) (symmetric on the log scale); an interval
 *   entirely beyond the threshold also excludes 1, so the change is significant at that level;
 * - with too few repetitions for an interval at the confidence asked (2 or 3 a side at 95%), the
 *   same test on the widest interval, the range of pairwise ratios: every NEW repetition must be
 *   slower than every BASE one by the threshold; marked "(m+n reps: range, C% CI only)";
 * - without any interval (a single repetition on either side), the same test on the ratio of
 *   medians alone, marked "(1 rep, no CI)".
 * Statuses: see judgeStatus. Counters: any difference is reported; it fails only with strictCounters.
 */

/** Columns a CSV needs for compare and report. */
export const NEEDED_COLUMNS: readonly RunColumn[] = [
  'puzzle_id',
  'puzzle_path',
  'strategy',
  'status',
  'verified',
  'time_ms',
  'dead_ends',
  'decisions',
  'line_solves',
];

/** Counters that are the same for the same code and puzzle, so any change is algorithmic. */
export const COUNTERS = ['dead_ends', 'decisions', 'line_solves'] as const satisfies readonly RunColumn[];
export type Counter = (typeof COUNTERS)[number];

/** A run CSV checked for the columns and values compare and report rely on. */
export interface RunCsv {
  file: string;
  columns: string[];
  records: RunRecord[];
  /** File line of each record, for messages (absent for records built in memory). */
  lines?: number[];
}

/**
 * Reads a run CSV, throwing one line naming the file (and the line) when it is not one, in the
 * loader's style: `FILE:0: cannot read the file (…)`, `FILE:1: not a run CSV (no … columns)`.
 */
export function loadRunCsv(file: string, needed: readonly RunColumn[] = NEEDED_COLUMNS): RunCsv {
  const { columns, records, lines } = readCsvInput(file);
  if (columns.length === 0) throw new InputError(file, 0, 'not a run CSV (empty file)');
  requireColumns(file, columns, needed);
  records.forEach((r, i) => {
    const fail = (message: string) => new InputError(file, lines[i]!, message);
    if (!ROW_STATUSES.includes(r.status as RowStatus)) throw fail(`unknown status "${r.status}"`);
    for (const c of TIME_COLUMNS) if (r[c] !== undefined && r[c] !== '' && !DECIMAL.test(r[c])) throw fail(`${c} "${r[c]}" is not a valid time`);
    for (const c of COUNTERS) if (r[c] !== undefined && r[c] !== '' && !/^\d+$/.test(r[c])) throw fail(`${c} "${r[c]}" is not a valid count`);
  });
  return inTaskOrder({ file, columns, records: withConfig(records as RunRecord[]), lines });
}

/**
 * The rows by task number (puzzle by puzzle, strategies in the order the run named them), keeping
 * file order among equal numbers and putting rows without one last. Rows are written as tasks finish,
 * in rounds and on several workers, so file order would make pair and strategy order vary by run.
 */
function inTaskOrder(csv: RunCsv & { lines: number[] }): RunCsv & { lines: number[] } {
  const task = (i: number) => {
    const text = csv.records[i]!.task;
    return text !== undefined && /^\d+$/.test(text) ? Number(text) : Infinity;
  };
  const order = csv.records.map((_, i) => i).sort((a, b) => task(a) - task(b) || a - b);
  return { ...csv, records: order.map((i) => csv.records[i]!), lines: order.map((i) => csv.lines[i]!) };
}

/** Times as the harness writes them: plain non-negative decimals (no sign, hex, padding or Infinity). */
const DECIMAL = /^\d+(\.\d+)?(e[+-]?\d+)?$/i;
const TIME_COLUMNS = ['time_ms', 'calib_ms'] as const;

const SOLVED_STATUSES: ReadonlySet<RowStatus> = new Set(['unique', 'multiple', 'solved']);
export const isSolvedStatus = (s: string) => SOLVED_STATUSES.has(s as RowStatus);

/**
 * How bad a status is: 0 an answer (solutions or a proof there are none), 1 a partial grid (a
 * strategy without search giving up), 2 a resource limit, 3 a failure.
 */
export function statusRank(s: RowStatus): number {
  switch (s) {
    case 'unique':
    case 'multiple':
    case 'solved':
    case 'contradiction':
      return 0;
    case 'stuck':
      return 1;
    case 'too-large':
    case 'timeout':
    case 'memory':
      return 2;
    case 'error':
    case 'wrong':
      return 3;
  }
}

/** Statuses whose times and counters are those of a completed solve (not cut short by a limit or failure). */
const FINISHED: ReadonlySet<RowStatus> = new Set(['unique', 'multiple', 'solved', 'contradiction', 'stuck', 'too-large']);

/** What a status says about the number of solutions: `1+` for `solved` (uniqueness was not asked). */
function solutionCount(s: RowStatus): '0' | '1' | '2+' | '1+' | null {
  return s === 'contradiction' ? '0' : s === 'unique' ? '1' : s === 'multiple' ? '2+' : s === 'solved' ? '1+' : null;
}

const countsAgree = (a: string, b: string) => a === b || (a === '1+' && b !== '0') || (b === '1+' && a !== '0');

export interface PairKey {
  puzzleId: string;
  puzzlePath: string;
  /** The configuration (the strategy's name for a strategy run once with its defaults, and in older CSVs). */
  strategy: string;
}

/** One side of a pair: its repetitions summarised. */
export interface SideSummary {
  reps: number;
  statuses: Partial<Record<RowStatus, number>>;
  /** The status the comparison uses: the most frequent among the worst repetitions. */
  status: RowStatus;
  /** 'false' when any repetition's answer failed the check, else 'true' when any was verified. */
  verified: 'true' | 'false' | '';
  /** Times of the finished repetitions, in milliseconds. */
  times: number[];
  medianMs: number | null;
  /** Distinct values over the finished repetitions (several only if a counter is not deterministic). */
  counters: Record<Counter, string[]>;
}

export type TimeVerdict = 'regression' | 'improvement' | 'unchanged';

export interface TimeComparison extends RatioEstimate {
  verdict: TimeVerdict;
  /** Why there is no interval ("1 rep, no CI"), or that both times are below --min-time; '' otherwise. */
  note: string;
}

export type StatusVerdict = 'same' | 'change' | 'regression' | 'improvement';

export interface StatusComparison {
  verdict: StatusVerdict;
  /** A readable reason for anything but `same`. */
  reason: string;
}

export interface CounterChange {
  counter: Counter;
  base: string;
  next: string;
}

export interface PairComparison extends PairKey {
  title: string;
  base: SideSummary;
  next: SideSummary;
  /** Null when either side has no finished repetition, or the status regressed or improved. */
  time: TimeComparison | null;
  status: StatusComparison;
  counterChanges: CounterChange[];
}

export interface StrategyRatio {
  strategy: string;
  pairs: number;
  /** Pairs solved (unique/multiple/solved) on both sides, over which the geometric mean is taken. */
  bothSolved: number;
  geomeanRatio: number | null;
  timeRegressions: number;
  timeImprovements: number;
  statusRegressions: number;
}

export interface RunInfo {
  file: string;
  rows: number;
  runIds: string[];
  gitCommits: string[];
  versions: string[];
  /** Median calibration time of the run (ms), or null when its CSV has too few (see runCalibration). */
  calibMs: number | null;
  /** Rows dropped as repeats of an earlier row (same task), which would weigh twice. */
  duplicates: number;
}

export interface CompareOptions {
  /** Relative noise threshold: 0.1 flags a slowdown only when NEW/BASE is surely above 1.1. */
  threshold: number;
  confidence: number;
  /** Counter changes fail the comparison too. */
  strictCounters: boolean;
  /** Pairs whose median times are both below this (ms) are never flagged for time. */
  minTimeMs: number;
  /** Discount a whole-run change of machine speed, measured by both runs' calibration (calib_ms). */
  normalize: boolean;
}

export const DEFAULT_COMPARE_OPTIONS: CompareOptions = {
  threshold: 0.1,
  confidence: 0.95,
  strictCounters: false,
  minTimeMs: 1,
  normalize: true,
};

export interface CompareCounts {
  pairs: number;
  timeRegressions: number;
  timeImprovements: number;
  statusRegressions: number;
  statusImprovements: number;
  statusChanges: number;
  counterChanges: number;
  onlyInBase: number;
  onlyInNew: number;
}

export interface CompareResult {
  base: RunInfo;
  next: RunInfo;
  options: CompareOptions;
  pairs: PairComparison[];
  onlyInBase: PairKey[];
  onlyInNew: PairKey[];
  strategies: StrategyRatio[];
  counts: CompareCounts;
  /**
   * Factor applied to NEW's times before comparing: BASE's median calibration time over NEW's, so a
   * run made while the machine was busier (a larger calib_ms) is scaled back; 1 when not applied.
   */
  speedFactor: number;
  /** A time or status regression, a pair of BASE missing from NEW, or with strictCounters a counter change. */
  failed: boolean;
  exitCode: 0 | 1;
}

const pairKey = (r: RunRecord) => `${r.puzzle_id}\u0000${r.puzzle_path}\u0000${r.config}`;
const distinct = (xs: string[]) => [...new Set(xs.filter((x) => x !== ''))];

/** Rows grouped by (puzzle_id, puzzle_path, config), in the order pairs first appear. */
export function groupPairs(records: RunRecord[]): Map<string, RunRecord[]> {
  const groups = new Map<string, RunRecord[]>();
  for (const r of records) {
    const key = pairKey(r);
    const group = groups.get(key);
    if (group) group.push(r);
    else groups.set(key, [r]);
  }
  return groups;
}

/** Fewest distinct calibrations a run needs before its speed is trusted for normalizing. */
export const MIN_CALIBRATIONS = 10;

/**
 * A run's machine speed: the median of its distinct calib_ms values (each worker re-measures about
 * once a second and stamps the latest value on its rows; the median ignores a stray slow one), or
 * null when it has too few of them to say — a short run's few samples would add more noise than
 * they remove.
 */
export function runCalibration(records: RunRecord[]): number | null {
  const values = [...new Set(records.map((r) => Number(r.calib_ms)).filter((v) => Number.isFinite(v) && v > 0))];
  return values.length >= MIN_CALIBRATIONS ? medianOfSorted(values.sort((a, b) => a - b)) : null;
}

/** A side's statuses, times (multiplied by `timeScale`) and counters. */
export function summariseSide(rows: RunRecord[], timeScale = 1): SideSummary {
  const statuses: Partial<Record<RowStatus, number>> = {};
  for (const r of rows) statuses[r.status as RowStatus] = (statuses[r.status as RowStatus] ?? 0) + 1;
  const present = ROW_STATUSES.filter((s) => statuses[s]);
  const worst = Math.max(...present.map(statusRank));
  // Ties go to the status listed first in ROW_STATUSES, so the choice does not depend on row order.
  const status = present.filter((s) => statusRank(s) === worst).reduce((a, b) => (statuses[b]! > statuses[a]! ? b : a));
  const finished = rows.filter((r) => FINISHED.has(r.status as RowStatus));
  const times = finished.filter((r) => r.time_ms !== '').map((r) => Number(r.time_ms) * timeScale);
  const verified = rows.some((r) => r.verified === 'false') ? 'false' : rows.some((r) => r.verified === 'true') ? 'true' : '';
  const counters = Object.fromEntries(COUNTERS.map((c) => [c, distinct(finished.map((r) => (r[c] ?? '').trim()))])) as Record<Counter, string[]>;
  const sorted = [...times].sort((a, b) => a - b);
  return { reps: rows.length, statuses, status, verified, times, medianMs: times.length ? medianOfSorted(sorted) : null, counters };
}

/**
 * Status rules: a regression when a solved status (unique/multiple/solved) becomes anything else,
 * when a verified answer becomes a wrong one, when both sides answered but disagree on the number
 * of solutions (unique ↔ multiple, solutions ↔ contradiction; `solved` agrees with any positive
 * count), or when the status gets worse by statusRank (e.g. timeout → error). Better by statusRank
 * is an improvement; any other difference (solved ↔ unique, timeout ↔ memory) is a change.
 */
export function judgeStatus(base: SideSummary, next: SideSummary): StatusComparison {
  const b = base.status;
  const n = next.status;
  const label = (s: SideSummary) => describeStatuses(s);
  const reasons: string[] = [];
  if (base.verified === 'true' && next.verified === 'false') reasons.push('verified true → false');
  const bCount = solutionCount(b);
  const nCount = solutionCount(n);
  if (isSolvedStatus(b) && !isSolvedStatus(n)) reasons.push(`${label(base)} → ${label(next)}`);
  else if (bCount && nCount && !countsAgree(bCount, nCount)) reasons.push(`solution count differs: ${label(base)} → ${label(next)}`);
  else if (statusRank(n) > statusRank(b)) reasons.push(`${label(base)} → ${label(next)}`);
  if (reasons.length > 0) return { verdict: 'regression', reason: reasons.join('; ') };
  if (statusRank(n) < statusRank(b)) return { verdict: 'improvement', reason: `${label(base)} → ${label(next)}` };
  if (b !== n) return { verdict: 'change', reason: `${label(base)} → ${label(next)}` };
  return { verdict: 'same', reason: '' };
}

/** `unique`, or `unique×4 timeout×1` when the repetitions disagree. */
export function describeStatuses(side: SideSummary): string {
  const entries = ROW_STATUSES.filter((s) => side.statuses[s]);
  return entries.length === 1 ? entries[0]! : entries.map((s) => `${s}×${side.statuses[s]}`).join(' ');
}

/** Repetitions on a side from which its slowest is set aside (see withoutSlowest). */
export const TRIM_FROM_REPS = 5;

/**
 * A side's times without the slowest once it has TRIM_FROM_REPS or more: an interruption (other
 * work on the machine, a garbage collection) only ever adds time, and at 5 repetitions a single
 * such outlier would by itself set the end of the interval, hiding a slowdown of any size.
 */
export function withoutSlowest(times: readonly number[]): number[] {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted.length >= TRIM_FROM_REPS ? sorted.slice(0, -1) : sorted;
}

export function judgeTime(base: SideSummary, next: SideSummary, options: CompareOptions): TimeComparison | null {
  if (base.times.length === 0 || next.times.length === 0) return null;
  const baseTimes = withoutSlowest(base.times);
  const nextTimes = withoutSlowest(next.times);
  const estimate = estimateRatio(baseTimes, nextTimes, options.confidence);
  const slow = 1 + options.threshold;
  const fast = 1 / slow;
  const hasCi = estimate.low !== null && estimate.high !== null;
  let note = '';
  if (!hasCi) note = '1 rep, no CI';
  else if (estimate.achievedConfidence < options.confidence - 1e-9)
    note = `${baseTimes.length}+${nextTimes.length} reps: range, ${Math.floor(estimate.achievedConfidence * 100)}% CI only`;
  const lowEnd = hasCi ? estimate.low! : estimate.ratio;
  const highEnd = hasCi ? estimate.high! : estimate.ratio;
  let verdict: TimeVerdict = lowEnd > slow ? 'regression' : highEnd < fast ? 'improvement' : 'unchanged';
  if (verdict !== 'unchanged' && base.medianMs! < options.minTimeMs && next.medianMs! < options.minTimeMs) {
    verdict = 'unchanged';
    note = note ? `${note}; below --min-time` : 'below --min-time';
  }
  return { ...estimate, verdict, note };
}

function counterChanges(base: SideSummary, next: SideSummary): CounterChange[] {
  const changes: CounterChange[] = [];
  for (const counter of COUNTERS) {
    const b = base.counters[counter];
    const n = next.counters[counter];
    if (b.length === 0 || n.length === 0) continue; // nothing finished on one side: nothing to compare
    const same = b.length === n.length && b.every((v) => n.includes(v));
    if (!same) changes.push({ counter, base: b.join('|'), next: n.join('|') });
  }
  return changes;
}

/**
 * The records without repeats of an earlier one: the same repetition of a pair (or, without a rep
 * column, the same task of the same run), as left by concatenated files or a resume run twice.
 */
export function dropDuplicates(records: RunRecord[]): RunRecord[] {
  const seen = new Set<string>();
  return records.filter((r) => {
    const key = r.rep !== undefined ? `${pairKey(r)}\u0000${r.rep}` : r.run_id !== undefined && r.task !== undefined ? `${r.run_id}\u0000${r.task}` : null;
    if (key === null) return true;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function runInfo(csv: RunCsv, duplicates: number): RunInfo {
  const col = (c: RunColumn) => distinct(csv.records.map((r) => r[c] ?? ''));
  return {
    duplicates,
    file: csv.file,
    rows: csv.records.length,
    runIds: col('run_id'),
    gitCommits: col('git_commit'),
    versions: col('nonobench_version'),
    calibMs: runCalibration(csv.records),
  };
}

const keyOf = (r: RunRecord): PairKey => ({ puzzleId: r.puzzle_id!, puzzlePath: r.puzzle_path!, strategy: r.config! });

/**
 * Compares two runs. Throws a one-line Error when they share no pair: with nothing compared, "no
 * regression" would be meaningless. Pairs of BASE missing from NEW fail, since a NEW run that lost
 * puzzles (a crash, a narrower corpus) must not pass as clean.
 */
export function compareRuns(baseIn: RunCsv, nextIn: RunCsv, options: CompareOptions = DEFAULT_COMPARE_OPTIONS): CompareResult {
  const baseCsv = { ...baseIn, records: dropDuplicates(baseIn.records) };
  const nextCsv = { ...nextIn, records: dropDuplicates(nextIn.records) };
  const baseInfo = runInfo(baseCsv, baseIn.records.length - baseCsv.records.length);
  const nextInfo = runInfo(nextCsv, nextIn.records.length - nextCsv.records.length);
  const speedFactor = options.normalize && baseInfo.calibMs && nextInfo.calibMs ? baseInfo.calibMs / nextInfo.calibMs : 1;
  const baseGroups = groupPairs(baseCsv.records);
  const nextGroups = groupPairs(nextCsv.records);
  const pairs: PairComparison[] = [];
  const onlyInBase: PairKey[] = [];
  for (const [key, baseRows] of baseGroups) {
    const nextRows = nextGroups.get(key);
    if (!nextRows) {
      onlyInBase.push(keyOf(baseRows[0]!));
      continue;
    }
    const base = summariseSide(baseRows);
    const next = summariseSide(nextRows, speedFactor);
    const status = judgeStatus(base, next);
    // Times of a solve that now ends differently (say stuck instead of solved) measure different work.
    const time = status.verdict === 'regression' || status.verdict === 'improvement' ? null : judgeTime(base, next, options);
    pairs.push({ ...keyOf(baseRows[0]!), title: baseRows[0]!.title ?? '', base, next, time, status, counterChanges: counterChanges(base, next) });
  }
  const onlyInNew = [...nextGroups].filter(([key]) => !baseGroups.has(key)).map(([, rows]) => keyOf(rows[0]!));
  if (pairs.length === 0) throw new Error(`${nextCsv.file}: shares no (puzzle, strategy) pair with ${baseCsv.file}: nothing to compare`);

  const counts: CompareCounts = {
    pairs: pairs.length,
    timeRegressions: pairs.filter((p) => p.time?.verdict === 'regression').length,
    timeImprovements: pairs.filter((p) => p.time?.verdict === 'improvement').length,
    statusRegressions: pairs.filter((p) => p.status.verdict === 'regression').length,
    statusImprovements: pairs.filter((p) => p.status.verdict === 'improvement').length,
    statusChanges: pairs.filter((p) => p.status.verdict === 'change').length,
    counterChanges: pairs.filter((p) => p.counterChanges.length > 0).length,
    onlyInBase: onlyInBase.length,
    onlyInNew: onlyInNew.length,
  };
  const failed =
    counts.timeRegressions > 0 ||
    counts.statusRegressions > 0 ||
    counts.onlyInBase > 0 ||
    (options.strictCounters && counts.counterChanges > 0);
  return {
    base: baseInfo,
    next: nextInfo,
    speedFactor,
    options,
    pairs,
    onlyInBase,
    onlyInNew,
    strategies: strategyRatios(pairs),
    counts,
    failed,
    exitCode: failed ? 1 : 0,
  };
}

/** Per strategy, the geometric mean of NEW/BASE over the puzzles solved on both sides. */
function strategyRatios(pairs: PairComparison[]): StrategyRatio[] {
  const names = [...new Set(pairs.map((p) => p.strategy))];
  return names.map((strategy) => {
    const mine = pairs.filter((p) => p.strategy === strategy);
    const solved = mine.filter((p) => isSolvedStatus(p.base.status) && isSolvedStatus(p.next.status) && p.time);
    return {
      strategy,
      pairs: mine.length,
      bothSolved: solved.length,
      geomeanRatio: solved.length ? geometricMean(solved.map((p) => p.time!.ratio)) : null,
      timeRegressions: mine.filter((p) => p.time?.verdict === 'regression').length,
      timeImprovements: mine.filter((p) => p.time?.verdict === 'improvement').length,
      statusRegressions: mine.filter((p) => p.status.verdict === 'regression').length,
    };
  });
}

export function compareFiles(basePath: string, nextPath: string, options: CompareOptions = DEFAULT_COMPARE_OPTIONS): CompareResult {
  return compareRuns(loadRunCsv(basePath), loadRunCsv(nextPath), options);
}
