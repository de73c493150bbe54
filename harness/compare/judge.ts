import { ROW_STATUSES, type RowStatus, type RunColumn, type RunRecord } from '../results/row.js';
import { medianOfSorted } from '../results/median.js';
import { estimateRatio, flooredTime, timesPValue, type RatioEstimate } from './stats.js';
import { RunTable } from './table.js';
import { FINISHED, TIME_COLUMN, type TimeBasis } from './time-basis.js';

/**
 * The rules that judge one pair — one (puzzle, configuration) with all its repetitions on each
 * side — for time, status and the deterministic counters.
 *
 * Time rule (on the repetitions that finished on both sides; from 5 on, the interval sets the
 * slowest aside, while the ratio and p-value take them all):
 * - fewer than MIN_REPS on either side: `inconclusive`, never a regression: with one or two
 *   repetitions there is no interval worth the name, and a single interrupted solve would fail
 *   the comparison;
 * - else a regression when the interval's lower bound exceeds 1 + threshold, an improvement when
 *   its upper bound is below 1 / (1 + threshold) (symmetric on the log scale); an interval
 *   entirely beyond the threshold also excludes 1, so the change is significant at that level;
 * - with too few repetitions for an interval at the confidence asked (3 + 3 or 3 + 4 at 95%), the
 *   same test on the widest interval, the range of pairwise ratios: every NEW repetition must be
 *   slower than every BASE one by the threshold; marked "(m+n reps: range, C% CI only)".
 * Pairs whose medians are both below --min-time are never flagged. Statuses: see judgeStatus.
 * Counters: any difference is reported.
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
  /**
   * The factor the times were multiplied by (NEW's calibration scaling; 1, or absent, when none):
   * --min-time is about the times measured, so it is judged on medianMs / scale.
   */
  scale?: number;
  /** Distinct values over the finished repetitions (several only if a counter is not deterministic). */
  counters: Record<Counter, string[]>;
}

export type TimeVerdict = 'regression' | 'improvement' | 'unchanged' | 'inconclusive';

export interface TimeComparison extends RatioEstimate {
  verdict: TimeVerdict;
  /** median(NEW) − median(BASE) in milliseconds: the medians shown, NEW's scaled as compared. */
  diffMs: number;
  /** Why the verdict is weaker than it looks (too few repetitions, an interval of lower confidence, below --min-time); '' otherwise. */
  note: string;
  /**
   * A regression or improvement that holds among all the pairs compared: its p-value is a discovery
   * at false-discovery rate 1 − confidence over them (see family.ts). Only these fail a comparison.
   */
  confirmed?: boolean;
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

/** What judgeTime needs of the comparison's options. */
export interface TimeRules {
  threshold: number;
  confidence: number;
  minTimeMs: number;
}

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
  return { reps: rows.length, statuses, status: chosen, verified, times: times.slice(), medianMs: times.length ? medianOfSorted(sorted) : null, scale: timeScale, counters };
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

/** Fewest timed repetitions a side needs (after the slowest is set aside) for a time verdict. */
export const MIN_REPS = 3;

/** Why a pair's time was not judged: shown in every format and counted in the summary, with the command's way to more repetitions (CompareOptions.moreReps). */
export const INCONCLUSIVE_WHY = `fewer than ${MIN_REPS} repetitions a side`;

/** compare's way to more repetitions: the runs' own option. */
export const RERUN_WITH_MORE_REPS = `rerun with --repeat ${MIN_REPS} or more`;

/**
 * A side's times without the slowest once it has TRIM_FROM_REPS or more: an interruption (other
 * work on the machine, a garbage collection) only ever adds time, and at 5 repetitions a single
 * such outlier would by itself set the end of the interval, hiding a slowdown of any size.
 */
export function withoutSlowest(times: readonly number[]): number[] {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted.length >= TRIM_FROM_REPS ? sorted.slice(0, -1) : sorted;
}

/** Rounding allowed in an interval's end, on the log scale, before it counts as beyond the threshold. */
const ROUNDING = 1e-9;

/**
 * Where an interval for NEW/BASE lies against the threshold: `regression` when wholly above
 * 1 + threshold, `improvement` when wholly below 1 / (1 + threshold), else `unchanged`. Compared on
 * the log scale with a margin for rounding, so that an end exactly on the threshold (110 ms against
 * 100 ms at 10%, common with CPU times in 10 ms steps) is on it both ways: the same pair with the
 * runs swapped has the interval's ends inverted, and exp(−x) need not round to 1 / exp(x).
 */
export function beyondThreshold(low: number | null, high: number | null, threshold: number): 'regression' | 'improvement' | 'unchanged' {
  const edge = Math.log1p(threshold) + ROUNDING;
  if (low !== null && Math.log(low) > edge) return 'regression';
  if (high !== null && Math.log(high) < -edge) return 'improvement';
  return 'unchanged';
}

/**
 * Both sides' medians below --min-time, as measured: a side's times scaled by calibration are taken
 * back to what was timed, so that the floor does not depend on which run is BASE (only NEW is scaled).
 */
export function belowMinTime(base: SideSummary, next: SideSummary, minTimeMs: number): boolean {
  const measured = (s: SideSummary) => s.medianMs! / (s.scale ?? 1);
  return measured(base) < minTimeMs && measured(next) < minTimeMs;
}

/** The time rule (see the top of this file); null when either side has no timed repetition. */
export function judgeTime(base: SideSummary, next: SideSummary, rules: TimeRules): TimeComparison | null {
  if (base.times.length === 0 || next.times.length === 0) return null;
  const baseTimes = withoutSlowest(base.times);
  const nextTimes = withoutSlowest(next.times);
  // The interval without each side's slowest (see withoutSlowest); the p-value (what holds among
  // all pairs, see timesPValue) and the ratio (that of the medians shown beside it, as diffMs is)
  // from every timed repetition.
  const estimate = {
    ...estimateRatio(baseTimes, nextTimes, rules.confidence),
    ratio: flooredTime(next.medianMs!) / flooredTime(base.medianMs!),
    pValue: timesPValue(base.times, next.times),
  };
  const diffMs = next.medianMs! - base.medianMs!;
  const reps = `${baseTimes.length}+${nextTimes.length} reps`;
  if (baseTimes.length < MIN_REPS || nextTimes.length < MIN_REPS) return { ...estimate, diffMs, verdict: 'inconclusive', note: `${reps}: fewer than ${MIN_REPS} a side` };
  let note = estimate.achievedConfidence < rules.confidence - 1e-9 ? `${reps}: range, ${Math.floor(estimate.achievedConfidence * 100)}% CI only` : '';
  // From MIN_REPS a side there is always an interval (at worst the range of ratios).
  let verdict: TimeVerdict = beyondThreshold(estimate.low, estimate.high, rules.threshold);
  if (verdict !== 'unchanged' && belowMinTime(base, next, rules.minTimeMs)) {
    verdict = 'unchanged';
    note = note ? `${note}; below --min-time` : 'below --min-time';
  }
  return { ...estimate, diffMs, verdict, note };
}

/** Counters whose distinct values differ between the sides (a side with no finished repetition is not compared). */
export function counterChanges(base: SideSummary, next: SideSummary): CounterChange[] {
  const changes: CounterChange[] = [];
  for (const counter of COUNTERS) {
    const b = base.counters[counter];
    const n = next.counters[counter];
    if (b.length === 0 || n.length === 0) continue;
    const same = b.length === n.length && b.every((v) => n.includes(v));
    if (!same) changes.push({ counter, base: b.join('|'), next: n.join('|') });
  }
  return changes;
}
