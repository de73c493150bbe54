import { ROW_STATUSES, type RowStatus, type RunColumn, type RunRecord } from '../results/row.js';
import { estimateRatio, geometricMean, type RatioEstimate } from './stats.js';
import { medianOfSorted } from '../results/median.js';
import { calibrationOf, calibrations, distinctValues, groupPairs, heldRows, pairKey, rowsOf, withoutRepeats, type PairGroups } from './pairs.js';
import { asTable, loadRunTable, RunTable, type RunCsv } from './table.js';
import { chooseTimeBasis, FINISHED, TIME_COLUMN, type TimeBasis, type TimeChoice } from './time-basis.js';
import { compareSettings, SettingsRefusal, type SettingsComparison } from './settings.js';

export { NEEDED_COLUMNS, loadRunCsv, loadRunTable, RunTable, type RunCsv } from './table.js';
export { MIN_CALIBRATIONS } from './pairs.js';
export { TIME_CHOICES, type TimeBasis, type TimeChoice } from './time-basis.js';
export { SettingsRefusal, settingsLines, type SettingDifference, type SettingsComparison } from './settings.js';

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

/** Counters that are the same for the same code and puzzle, so any change is algorithmic. */
export const COUNTERS = ['dead_ends', 'decisions', 'line_solves'] as const satisfies readonly RunColumn[];
export type Counter = (typeof COUNTERS)[number];

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
  /** Times of the finished repetitions (CPU or wall time, as the comparison's basis), in milliseconds. */
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
  /** Discount a whole-run change of machine speed, measured by both runs' calibration (calib_ms); wall time only. */
  normalize: boolean;
  /** Which time to judge: CPU time (cpu_ms), wall time (time_ms), or CPU time when both runs have it. */
  time: TimeChoice;
  /** Compare runs whose settings differ (see settings.ts) instead of refusing them. */
  allowDifferent: boolean;
}

export const DEFAULT_COMPARE_OPTIONS: CompareOptions = {
  threshold: 0.1,
  confidence: 0.95,
  strictCounters: false,
  minTimeMs: 1,
  normalize: true,
  time: 'auto',
  allowDifferent: false,
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
  /** The time judged: `cpu` (cpu_ms, never scaled by calibration) or `wall` (time_ms). */
  timeBasis: TimeBasis;
  /** Why that basis ('--time wall', or where a run lacks cpu_ms); '' when CPU time was there to take. */
  timeBasisNote: string;
  /** How the runs' settings differ (allowed by allowDifferent when a difference refuses). */
  settings: SettingsComparison;
  /** A time or status regression, a pair of BASE missing from NEW, or with strictCounters a counter change. */
  failed: boolean;
  exitCode: 0 | 1;
}

/** A run's machine speed from records in memory (see calibrationOf). */
export const runCalibration = (records: readonly RunRecord[]): number | null => calibrationOf(records.map((r) => Number(r.calib_ms || NaN)));

/** A side's statuses, times (multiplied by `timeScale`) and counters, from records in memory. */
export function summariseSide(rows: readonly RunRecord[], timeScale = 1, basis: TimeBasis = 'wall'): SideSummary {
  const t = RunTable.fromRecords('', [], rows);
  return summariseRows(t, Uint32Array.from({ length: t.size }, (_x, i) => i), timeScale, basis);
}

/** Counter values as text, each distinct one made once (most pairs repeat a few small counts). */
const countTexts = new Map<number, string>();
function countText(n: number): string {
  let text = countTexts.get(n);
  if (text === undefined) {
    if (countTexts.size >= 1 << 16) countTexts.clear();
    countTexts.set(n, (text = String(n)));
  }
  return text;
}

/** A side's statuses, times (of the basis, multiplied by `timeScale`) and counters: the given rows of a table. */
export function summariseRows(t: RunTable, rows: ArrayLike<number>, timeScale = 1, basis: TimeBasis = 'wall'): SideSummary {
  const status = t.text('status')!;
  const verifiedCol = t.text('verified');
  const time = t.num(TIME_COLUMN[basis]);
  const counterCols = COUNTERS.map((c) => t.num(c));
  const statuses: Partial<Record<RowStatus, number>> = {};
  const times: number[] = [];
  const counterValues = COUNTERS.map(() => new Set<number>());
  let anyTrue = false;
  let anyFalse = false;
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k]!;
    const s = status.get(i) as RowStatus;
    statuses[s] = (statuses[s] ?? 0) + 1;
    const v = verifiedCol?.get(i);
    if (v === 'true') anyTrue = true;
    else if (v === 'false') anyFalse = true;
    if (!FINISHED.has(s)) continue;
    if (time && !Number.isNaN(time[i]!)) times.push(time[i]! * timeScale);
    counterCols.forEach((col, c) => {
      if (col && !Number.isNaN(col[i]!)) counterValues[c]!.add(col[i]!);
    });
  }
  const present = ROW_STATUSES.filter((s) => statuses[s]);
  let worst = 0;
  for (const s of present) worst = Math.max(worst, statusRank(s));
  // Ties go to the status listed first in ROW_STATUSES, so the choice does not depend on row order.
  const chosen = present.filter((s) => statusRank(s) === worst).reduce((a, b) => (statuses[b]! > statuses[a]! ? b : a));
  const verified = anyFalse ? 'false' : anyTrue ? 'true' : '';
  // Built compactly: a comparison of a million rows holds two of these per pair.
  const [deadEnds, decisions, lineSolves] = counterValues.map((values) => Array.from(values, countText));
  const counters: Record<Counter, string[]> = { dead_ends: deadEnds!, decisions: decisions!, line_solves: lineSolves! };
  const sorted = Float64Array.from(times).sort();
  return { reps: rows.length, statuses, status: chosen, verified, times: times.slice(), medianMs: times.length ? medianOfSorted(sorted) : null, counters };
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

/** A run ready to compare: its pairs without repeated rows, its facts, and where each pair is by key. */
interface Side {
  groups: PairGroups;
  info: RunInfo;
  byKey: Map<string, number>;
}

function side(t: RunTable): Side {
  const groups = withoutRepeats(groupPairs(t));
  const held = heldRows(groups);
  const info: RunInfo = {
    duplicates: groups.duplicates,
    file: t.file,
    rows: groups.rows.length,
    runIds: distinctValues(groups, 'run_id', held),
    gitCommits: distinctValues(groups, 'git_commit', held),
    versions: distinctValues(groups, 'nonobench_version', held),
    calibMs: calibrationOf(calibrations(groups)),
  };
  const byKey = new Map<string, number>();
  for (let p = 0; p < groups.count; p++) byKey.set(pairKey(t, groups.rows[groups.starts[p]!]!), p);
  return { groups, info, byKey };
}

const keyOf = (t: RunTable, row: number): PairKey => ({ puzzleId: t.str('puzzle_id', row), puzzlePath: t.str('puzzle_path', row), strategy: t.str('config', row) });

/**
 * Compares two runs (tables, or records in memory). Throws a one-line Error when they share no pair:
 * with nothing compared, "no regression" would be meaningless. Pairs of BASE missing from NEW fail,
 * since a NEW run that lost puzzles (a crash, a narrower corpus) must not pass as clean.
 */
export function compareRuns(baseIn: RunCsv | RunTable, nextIn: RunCsv | RunTable, options: CompareOptions = DEFAULT_COMPARE_OPTIONS): CompareResult {
  const baseT = asTable(baseIn);
  const nextT = asTable(nextIn);
  const base = side(baseT);
  const next = side(nextT);
  const matched: [number, number][] = [];
  const onlyInBase: PairKey[] = [];
  for (const [key, p] of base.byKey) {
    const q = next.byKey.get(key);
    if (q === undefined) onlyInBase.push(keyOf(baseT, rowsOf(base.groups, p)[0]!));
    else matched.push([p, q]);
  }
  if (matched.length === 0) throw new Error(`${nextT.file}: shares no (puzzle, strategy) pair with ${baseT.file}: nothing to compare`);
  const settings = compareSettings(base.groups, next.groups);
  if (!options.allowDifferent && settings.differences.some((d) => d.refuses)) throw new SettingsRefusal(baseT.file, nextT.file, settings);
  // CPU time does not grow with other work on the machine: only wall time is scaled by calibration.
  const { basis, note: timeBasisNote } = chooseTimeBasis(base.groups, next.groups, matched, options.time ?? 'auto');
  const speedFactor = basis === 'wall' && options.normalize && base.info.calibMs && next.info.calibMs ? base.info.calibMs / next.info.calibMs : 1;
  const pairs: PairComparison[] = [];
  for (const [p, q] of matched) {
    const baseRows = rowsOf(base.groups, p);
    const b = summariseRows(baseT, baseRows, 1, basis);
    const n = summariseRows(nextT, rowsOf(next.groups, q), speedFactor, basis);
    const status = judgeStatus(b, n);
    // Times of a solve that now ends differently (say stuck instead of solved) measure different work.
    const time = status.verdict === 'regression' || status.verdict === 'improvement' ? null : judgeTime(b, n, options);
    pairs.push({ ...keyOf(baseT, baseRows[0]!), title: baseT.str('title', baseRows[0]!), base: b, next: n, time, status, counterChanges: counterChanges(b, n) });
  }
  const onlyInNew: PairKey[] = [];
  for (const [key, q] of next.byKey) if (!base.byKey.has(key)) onlyInNew.push(keyOf(nextT, rowsOf(next.groups, q)[0]!));

  const count = (test: (p: PairComparison) => boolean) => pairs.reduce((n, p) => n + (test(p) ? 1 : 0), 0);
  const counts: CompareCounts = {
    pairs: pairs.length,
    timeRegressions: count((p) => p.time?.verdict === 'regression'),
    timeImprovements: count((p) => p.time?.verdict === 'improvement'),
    statusRegressions: count((p) => p.status.verdict === 'regression'),
    statusImprovements: count((p) => p.status.verdict === 'improvement'),
    statusChanges: count((p) => p.status.verdict === 'change'),
    counterChanges: count((p) => p.counterChanges.length > 0),
    onlyInBase: onlyInBase.length,
    onlyInNew: onlyInNew.length,
  };
  const failed =
    counts.timeRegressions > 0 ||
    counts.statusRegressions > 0 ||
    counts.onlyInBase > 0 ||
    (options.strictCounters && counts.counterChanges > 0);
  return {
    base: base.info,
    next: next.info,
    speedFactor,
    timeBasis: basis,
    timeBasisNote,
    settings,
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

/** Compares two run CSV files, each read in chunks into a table (see loadRunTable). */
export function compareFiles(basePath: string, nextPath: string, options: CompareOptions = DEFAULT_COMPARE_OPTIONS): CompareResult {
  return compareRuns(loadRunTable(basePath), loadRunTable(nextPath), options);
}
