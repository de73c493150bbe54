import type { RunRecord } from '../results/row.js';
import { geometricMean } from './stats.js';
import { benjaminiHochberg, familyShift, type FamilyShift } from './family.js';
import { beyondThreshold, counterChanges, isSolvedStatus, judgeStatus, judgeTime, RERUN_WITH_MORE_REPS, statusRank, summariseRows, type CounterChange, type SideSummary, type StatusComparison, type TimeComparison, type TimeVerdict } from './judge.js';
import { calibrationOf, calibrations, distinctValues, groupPairs, heldRows, pairKey, rowsOf, withoutRepeats, type PairGroups } from './pairs.js';
import { asTable, loadRunTable, RunTable, type RunCsv } from './table.js';
import { othersCentres, pairRoundLogs, roundShift, roundVerdict } from './rounds.js';
import { chooseTimeBasis, type TimeBasis, type TimeChoice } from './time-basis.js';
import { compareSettings, SettingsRefusal, type SettingsComparison } from './settings.js';

export { NEEDED_COLUMNS, loadRunCsv, loadRunTable, RunTable, type RunCsv } from './table.js';
export { MIN_CALIBRATIONS } from './pairs.js';
export { TIME_CHOICES, type TimeBasis, type TimeChoice } from './time-basis.js';
export { SettingsRefusal, settingsLines, type SettingDifference, type SettingsComparison } from './settings.js';
export {
  belowMinTime,
  beyondThreshold,
  COUNTERS,
  counterChanges,
  describeStatuses,
  INCONCLUSIVE_WHY,
  RERUN_WITH_MORE_REPS,
  isSolvedStatus,
  judgeStatus,
  judgeTime,
  MIN_REPS,
  statusRank,
  summariseRows,
  summariseSide,
  TRIM_FROM_REPS,
  withoutSlowest,
  type Counter,
  type CounterChange,
  type SideSummary,
  type StatusComparison,
  type StatusVerdict,
  type TimeComparison,
  type TimeVerdict,
} from './judge.js';

/**
 * Compares two run CSVs pair by pair — a pair is one (puzzle_id, puzzle_path, config) with all its
 * repetitions — for time, status and the deterministic counters (the rules: judge.ts), and lists
 * the pairs by severity (bySeverity).
 */

export interface PairKey {
  puzzleId: string;
  puzzlePath: string;
  /** The configuration (the strategy's name for a strategy run once with its defaults, and in older CSVs). */
  strategy: string;
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
  timeInconclusive: number;
  statusRegressions: number;
  /** The typical factor NEW/BASE over the strategy's timed pairs, with its interval (see family.ts). */
  shift: FamilyShift;
  /** Its verdict, as a pair's: null when the pairs are too few for an interval at the confidence asked. */
  verdict: TimeVerdict | null;
  /** Over rounds, which interval gave a regression or improvement: its own, or the one against the other strategies. */
  verdictBy?: 'own' | 'others';
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
  /** Fewest and most repetitions (rows) of a compared pair. */
  repsPerPair: { min: number; max: number };
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
  /** How the command gets enough repetitions for a time verdict, told after `time inconclusive …`. */
  moreReps: string;
  /** With pairedRounds: how the command gets more rounds, told when a strategy's rounds disagree. */
  moreRounds?: string;
  /**
   * Repetition r of both runs ran in the same round, the two sides one after the other (ab,
   * bench-check --ab): a strategy's typical ratio is then judged over the rounds (rounds.ts).
   */
  pairedRounds?: boolean;
}

export const DEFAULT_COMPARE_OPTIONS: CompareOptions = {
  threshold: 0.1,
  confidence: 0.95,
  strictCounters: false,
  minTimeMs: 1,
  normalize: true,
  time: 'auto',
  allowDifferent: false,
  moreReps: RERUN_WITH_MORE_REPS,
};

export interface CompareCounts {
  pairs: number;
  timeRegressions: number;
  timeImprovements: number;
  /** Pairs whose time was not judged: fewer than MIN_REPS timed repetitions on a side. */
  timeInconclusive: number;
  /** Time regressions that hold among all the pairs compared (TimeComparison.confirmed): these fail. */
  timeRegressionsConfirmed: number;
  /** Strategies (configurations) slower over their pairs as a whole (StrategyRatio.verdict): these fail. */
  strategyRegressions: number;
  strategyImprovements: number;
  /** Over rounds: strategies whose interval reaches beyond the threshold without a verdict (see roundVerdict). */
  strategyInconclusive: number;
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
  /** The compared pairs, most severe first (see bySeverity). */
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
  /**
   * Time verdicts are information only and do not fail (set by bench-check against a baseline
   * recorded at another time; compareRuns never sets it).
   */
  timeAdvisory?: boolean;
  /** A time (unless timeAdvisory) or status regression, a pair of BASE missing from NEW, or with strictCounters a counter change. */
  failed: boolean;
  exitCode: 0 | 1;
}

/** A run's machine speed from records in memory (see calibrationOf). */
export const runCalibration = (records: readonly RunRecord[]): number | null => calibrationOf(records.map((r) => Number(r.calib_ms || NaN)));

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
    repsPerPair: { min: 0, max: 0 }, // set once the compared pairs are known
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
  if (options.pairedRounds)
    for (const t of [baseT, nextT]) if (!t.has('rep')) throw new Error(`${t.file}: has no rep column, which --paired-rounds needs: the round each row ran in`);
  const settings = compareSettings(base.groups, next.groups);
  if (!options.allowDifferent && settings.differences.some((d) => d.refuses)) throw new SettingsRefusal(baseT.file, nextT.file, settings);
  // CPU time does not grow with other work on the machine: only wall time is scaled by calibration.
  const { basis, note: timeBasisNote } = chooseTimeBasis(base.groups, next.groups, matched, options.time ?? 'auto');
  const speedFactor = basis === 'wall' && options.normalize && base.info.calibMs && next.info.calibMs ? base.info.calibMs / next.info.calibMs : 1;
  const pairs: PairComparison[] = [];
  const roundLogs = options.pairedRounds ? new Map<PairComparison, Map<number, number>>() : undefined;
  for (const [p, q] of matched) {
    const baseRows = rowsOf(base.groups, p);
    const nextRows = rowsOf(next.groups, q);
    const b = summariseRows(baseT, baseRows, 1, basis);
    const n = summariseRows(nextT, nextRows, speedFactor, basis);
    const status = judgeStatus(b, n);
    // Times of a solve that now ends differently (say stuck instead of solved) measure different work.
    const time = status.verdict === 'regression' || status.verdict === 'improvement' ? null : judgeTime(b, n, options);
    const pair: PairComparison = { ...keyOf(baseT, baseRows[0]!), title: baseT.str('title', baseRows[0]!), base: b, next: n, time, status, counterChanges: counterChanges(b, n) };
    pairs.push(pair);
    roundLogs?.set(pair, pairRoundLogs(baseT, baseRows, nextT, nextRows, basis, speedFactor));
  }
  confirmAmongAll(pairs, options);
  const strategies = strategyRatios(pairs, options, roundLogs); // in the order the runs list them, before the pairs are sorted
  pairs.sort(bySeverity);
  const repsOf = (sideOf: (p: PairComparison) => SideSummary) => {
    let min = Infinity;
    let max = 0;
    for (const p of pairs) {
      min = Math.min(min, sideOf(p).reps);
      max = Math.max(max, sideOf(p).reps);
    }
    return { min, max };
  };
  base.info.repsPerPair = repsOf((p) => p.base);
  next.info.repsPerPair = repsOf((p) => p.next);
  const onlyInNew: PairKey[] = [];
  for (const [key, q] of next.byKey) if (!base.byKey.has(key)) onlyInNew.push(keyOf(nextT, rowsOf(next.groups, q)[0]!));

  const count = (test: (p: PairComparison) => boolean) => pairs.reduce((n, p) => n + (test(p) ? 1 : 0), 0);
  const counts: CompareCounts = {
    pairs: pairs.length,
    timeRegressions: count((p) => p.time?.verdict === 'regression'),
    timeImprovements: count((p) => p.time?.verdict === 'improvement'),
    timeInconclusive: count((p) => p.time?.verdict === 'inconclusive'),
    timeRegressionsConfirmed: count((p) => p.time?.verdict === 'regression' && !!p.time.confirmed),
    strategyRegressions: strategies.filter((s) => s.verdict === 'regression').length,
    strategyImprovements: strategies.filter((s) => s.verdict === 'improvement').length,
    strategyInconclusive: strategies.filter((s) => s.verdict === 'inconclusive').length,
    statusRegressions: count((p) => p.status.verdict === 'regression'),
    statusImprovements: count((p) => p.status.verdict === 'improvement'),
    statusChanges: count((p) => p.status.verdict === 'change'),
    counterChanges: count((p) => p.counterChanges.length > 0),
    onlyInBase: onlyInBase.length,
    onlyInNew: onlyInNew.length,
  };
  const failed =
    counts.timeRegressionsConfirmed > 0 ||
    counts.strategyRegressions > 0 ||
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
    strategies,
    counts,
    failed,
    exitCode: failed ? 1 : 0,
  };
}

/**
 * Marks the time verdicts that hold among all the pairs compared: hundreds of pairs tested at 95%
 * each let a few through by chance on every unchanged run, so a pair's regression fails the
 * comparison only when its p-value is a discovery at false-discovery rate 1 − confidence over
 * every pair whose time was judged (Benjamini–Hochberg).
 */
function confirmAmongAll(pairs: PairComparison[], options: CompareOptions): void {
  const judged = pairs.filter((p) => p.time && p.time.verdict !== 'inconclusive');
  const marks = benjaminiHochberg(
    judged.map((p) => p.time!.pValue),
    1 - options.confidence,
  );
  judged.forEach((p, i) => {
    if (p.time!.verdict === 'regression' || p.time!.verdict === 'improvement') p.time!.confirmed = marks[i]!;
  });
}

/**
 * Per strategy: the geometric mean of NEW/BASE over the puzzles solved on both sides, and the
 * typical factor over every pair whose time was judged, with its interval and verdict by the
 * pairs' rule (see family.ts): what a change of code does to a strategy, it mostly does on many
 * puzzles, where each pair alone carries too little evidence. With `roundLogs` (runs that took
 * turns in rounds) the interval is over the rounds instead (see rounds.ts).
 */
function strategyRatios(pairs: PairComparison[], options: CompareOptions, roundLogs?: Map<PairComparison, Map<number, number>>): StrategyRatio[] {
  const byStrategy = new Map<string, PairComparison[]>();
  for (const p of pairs) {
    const list = byStrategy.get(p.strategy);
    if (list) list.push(p);
    else byStrategy.set(p.strategy, [p]);
  }
  const isTimed = (p: PairComparison) => !!p.time && p.time.verdict !== 'inconclusive';
  const timedRounds = roundLogs && new Map([...byStrategy].map(([strategy, mine]) => [strategy, byRound(mine.filter(isTimed), roundLogs)]));
  // Each round's median over the other strategies' centres: what the turns' load did to the rest of the run.
  const others = timedRounds && othersCentres(timedRounds);
  return [...byStrategy].map(([strategy, mine]) => {
    const solved = mine.filter((p) => isSolvedStatus(p.base.status) && isSolvedStatus(p.next.status) && p.time);
    const timed = mine.filter(isTimed);
    const shift = roundLogs
      ? roundShift(timedRounds!.get(strategy)!, timed.length, options.confidence, others!.get(strategy))
      : familyShift(
          timed.map((p) => p.time!.ratio),
          options.confidence,
        );
    const verdict: TimeVerdict | null = roundLogs ? roundVerdict(shift, options.threshold) : shift.low === null ? null : beyondThreshold(shift.low, shift.high, options.threshold);
    return {
      strategy,
      pairs: mine.length,
      bothSolved: solved.length,
      geomeanRatio: solved.length ? geometricMean(solved.map((p) => p.time!.ratio)) : null,
      timeRegressions: mine.filter((p) => p.time?.verdict === 'regression').length,
      timeImprovements: mine.filter((p) => p.time?.verdict === 'improvement').length,
      timeInconclusive: mine.filter((p) => p.time?.verdict === 'inconclusive').length,
      statusRegressions: mine.filter((p) => p.status.verdict === 'regression').length,
      shift,
      verdict,
      ...(roundLogs && (verdict === 'regression' || verdict === 'improvement') ? { verdictBy: beyondThreshold(shift.low, shift.high, options.threshold) === verdict ? ('own' as const) : ('others' as const) } : {}),
    };
  });
}

/** The log ratios of the given pairs, gathered by round. */
function byRound(pairs: PairComparison[], roundLogs: Map<PairComparison, Map<number, number>>): Map<number, number[]> {
  const rounds = new Map<number, number[]>();
  for (const p of pairs)
    for (const [r, log] of roundLogs.get(p)!) {
      const list = rounds.get(r);
      if (list) list.push(log);
      else rounds.set(r, [log]);
    }
  return rounds;
}

/**
 * Severity classes, in listing order: a status regression, a time regression, another status
 * change (neither better nor worse), a status improvement, a time improvement, the rest.
 */
export function severityClass(p: PairComparison): number {
  if (p.status.verdict === 'regression') return 0;
  if (p.time?.verdict === 'regression') return 1;
  if (p.status.verdict === 'change') return 2;
  if (p.status.verdict === 'improvement') return 3;
  if (p.time?.verdict === 'improvement') return 4;
  return 5;
}

/** Text order by UTF-16 code units, the same in every locale. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The listing order: by severityClass; status regressions by NEW's statusRank, worst first; time
 * regressions by the time lost, median(NEW) − median(BASE), most first, since a 30% slowdown of a
 * 2 s solve costs more than a 40% one of a 1 ms solve (both are already significant beyond the
 * threshold); time improvements by the time saved, most first; the rest by the size of the
 * difference. Ties by puzzle path, configuration and puzzle id.
 */
export function bySeverity(a: PairComparison, b: PairComparison): number {
  const ca = severityClass(a);
  const order =
    ca - severityClass(b) ||
    (ca === 0 ? statusRank(b.next.status) - statusRank(a.next.status) : 0) ||
    (ca === 1 ? diffOf(b) - diffOf(a) : ca === 4 ? diffOf(a) - diffOf(b) : ca === 5 ? Math.abs(diffOf(b)) - Math.abs(diffOf(a)) : 0);
  return order || byText(a.puzzlePath, b.puzzlePath) || byText(a.strategy, b.strategy) || byText(a.puzzleId, b.puzzleId);
}

/** The time difference a pair is ordered by; pairs without a time comparison count as none. */
const diffOf = (p: PairComparison) => p.time?.diffMs ?? 0;

/** Compares two run CSV files, each read in chunks into a table (see loadRunTable). */
export function compareFiles(basePath: string, nextPath: string, options: CompareOptions = DEFAULT_COMPARE_OPTIONS): CompareResult {
  return compareRuns(loadRunTable(basePath), loadRunTable(nextPath), options);
}
