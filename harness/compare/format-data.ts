import { csvRecord } from '../results/csv.js';
import { COUNTERS, describeStatuses, type CompareResult, type PairComparison, type PairKey, type RunInfo, type SideSummary } from './compare.js';

/** The machine-readable formats of a comparison, csv and json, written in pieces (see comparisonChunks). */

const fixed = (x: number | null, digits: number) => (x === null || !Number.isFinite(x) ? '' : x.toFixed(digits));
/** median(NEW) − median(BASE), when both sides have one. */
const diffMs = (p: PairComparison) => (p.base.medianMs === null || p.next.medianMs === null ? null : p.next.medianMs - p.base.medianMs);

// ---------- csv ----------

/** One row per pair (matched or on one side only); the columns are documented in the README. */
export const COMPARE_CSV_COLUMNS = [
  'puzzle_id',
  'puzzle_path',
  'strategy',
  'presence',
  'base_reps',
  'new_reps',
  'base_status',
  'new_status',
  'status_verdict',
  'status_reason',
  'base_verified',
  'new_verified',
  'base_median_ms',
  'new_median_ms',
  'diff_ms',
  'ratio',
  'ci_low',
  'ci_high',
  'p_value',
  'time_verdict',
  'time_holds',
  'time_note',
  'time_basis',
  ...COUNTERS.flatMap((c) => [`base_${c}`, `new_${c}`]),
  'counters_changed',
] as const;

function csvRow(p: PairComparison, basis: string): Record<string, unknown> {
  return {
    puzzle_id: p.puzzleId,
    puzzle_path: p.puzzlePath,
    strategy: p.strategy,
    presence: 'both',
    base_reps: p.base.reps,
    new_reps: p.next.reps,
    base_status: describeStatuses(p.base),
    new_status: describeStatuses(p.next),
    status_verdict: p.status.verdict,
    status_reason: p.status.reason,
    base_verified: p.base.verified,
    new_verified: p.next.verified,
    base_median_ms: p.base.medianMs ?? '',
    new_median_ms: p.next.medianMs ?? '',
    diff_ms: fixed(diffMs(p), 6),
    ratio: p.time ? fixed(p.time.ratio, 6) : '',
    ci_low: p.time ? fixed(p.time.low, 6) : '',
    ci_high: p.time ? fixed(p.time.high, 6) : '',
    p_value: p.time ? fixed(p.time.pValue, 6) : '',
    time_verdict: p.time ? p.time.verdict : 'not-compared',
    time_holds: p.time?.confirmed === undefined ? '' : String(p.time.confirmed),
    time_note: p.time?.note ?? '',
    time_basis: basis,
    ...Object.fromEntries(COUNTERS.flatMap((c) => [[`base_${c}`, p.base.counters[c].join('|')], [`new_${c}`, p.next.counters[c].join('|')]])),
    counters_changed: p.counterChanges.map((c) => c.counter).join(' '),
  };
}

/** The csv format (fields quoted as RFC 4180 asks), a thousand rows a piece. */
export function* csvChunks(result: CompareResult): Generator<string> {
  const line = (r: Record<string, unknown>) => csvRecord(COMPARE_CSV_COLUMNS.map((c) => r[c]));
  const oneSide = (k: PairKey, presence: string) => ({
    puzzle_id: k.puzzleId,
    puzzle_path: k.puzzlePath,
    strategy: k.strategy,
    presence,
    time_verdict: 'not-compared',
    time_basis: result.timeBasis,
  });
  let piece = csvRecord(COMPARE_CSV_COLUMNS);
  let lines = 0;
  const rows = function* () {
    for (const p of result.pairs) yield csvRow(p, result.timeBasis);
    for (const k of result.onlyInBase) yield oneSide(k, 'base-only');
    for (const k of result.onlyInNew) yield oneSide(k, 'new-only');
  };
  for (const r of rows()) {
    piece += line(r);
    if (++lines % 1000 === 0) {
      yield piece;
      piece = '';
    }
  }
  yield piece;
}

// ---------- json ----------

/**
 * The `--format json` document (format_version 1). Keys are snake_case; absent values are null.
 * {
 *   format: "nonobench-compare", format_version: 1,
 *   base | new: { file, rows, run_ids[], git_commits[], versions[], calib_ms|null, duplicates, reps_per_pair: { min, max } },
 *   settings: { threshold, confidence, strict_counters, min_time_ms, normalize, time: auto|cpu|wall, allow_different, paired_rounds },
 *   time_basis: cpu|wall (the times judged: cpu_ms or time_ms), time_basis_note: why ('' when CPU time was there),
 *   time_advisory: true when time regressions do not fail (bench-check against a recorded baseline),
 *   speed_factor: the factor applied to NEW's times (1 when not normalized, always 1 for CPU time),
 *   setting_differences: [{ setting, configuration (params only, else ''), base, new, refuses }],
 *   settings_unknown: [settings a run's CSV does not record],
 *   summary: { pairs, time_regressions, time_improvements, time_inconclusive, time_regressions_holding, strategy_regressions,
 *              strategy_improvements, strategy_inconclusive (over rounds), status_regressions, status_improvements,
 *              status_changes, counter_changes, only_in_base, only_in_new, failed, exit_code },
 *   strategies: [{ strategy, pairs, both_solved, geomean_ratio|null, time_regressions, time_improvements, time_inconclusive, status_regressions,
 *                  typical_ratio|null, typical_ci_low|null, typical_ci_high|null, typical_pairs,
 *                  typical_rounds|null (the rounds the interval is over, with paired_rounds; null: over pairs),
 *                  relative_ratio|null, relative_ci_low|null, relative_ci_high|null (over rounds: against each round's median over the other strategies' centres),
 *                  verdict: regression|improvement|unchanged|inconclusive (over rounds)|null,
 *                  verdict_by: own|others|null (over rounds: which interval gave a regression or improvement) }],
 *   pairs (most severe first): [{ puzzle_id, puzzle_path, strategy, title,
 *             base | new: { reps, status, statuses{status: count}, verified, median_ms|null, times_ms[],
 *                           counters{dead_ends[], decisions[], line_solves[]} },
 *             time: null | { verdict: regression|improvement|unchanged|inconclusive, ratio, ci_low|null, ci_high|null,
 *                            achieved_confidence, hodges_lehmann, p_value, diff_ms (new median_ms − base median_ms),
 *                            holds: true|false|null (a regression or improvement that holds among all pairs), note },
 *             status: { verdict: same|change|regression|improvement, reason },
 *             counter_changes: [{ counter, base, new }] }],
 *   only_in_base | only_in_new: [{ puzzle_id, puzzle_path, strategy }]
 * }
 */
export function comparisonJson(result: CompareResult) {
  return { ...jsonHead(result), pairs: result.pairs.map(pairJson), only_in_base: result.onlyInBase.map(keyJson), only_in_new: result.onlyInNew.map(keyJson) };
}

const keyJson = (k: PairKey) => ({ puzzle_id: k.puzzleId, puzzle_path: k.puzzlePath, strategy: k.strategy });
const asNumber = (v: string) => (Number.isFinite(Number(v)) ? Number(v) : v);

function sideJson(s: SideSummary) {
  return {
    reps: s.reps,
    status: s.status,
    statuses: s.statuses,
    verified: s.verified,
    median_ms: s.medianMs,
    times_ms: s.times,
    counters: Object.fromEntries(COUNTERS.map((c) => [c, s.counters[c].map(asNumber)])),
  };
}

function pairJson(p: PairComparison) {
  return {
    ...keyJson(p),
    title: p.title,
    base: sideJson(p.base),
    new: sideJson(p.next),
    time: p.time && {
      verdict: p.time.verdict,
      ratio: p.time.ratio,
      ci_low: p.time.low,
      ci_high: p.time.high,
      achieved_confidence: p.time.achievedConfidence,
      hodges_lehmann: p.time.hodgesLehmann,
      p_value: p.time.pValue,
      diff_ms: p.time.diffMs,
      holds: p.time.confirmed ?? null,
      note: p.time.note,
    },
    status: p.status,
    counter_changes: p.counterChanges.map((x) => ({ counter: x.counter, base: x.base, new: x.next })),
  };
}

/** The document up to its lists of pairs. */
function jsonHead(result: CompareResult) {
  const run = (info: RunInfo) => ({
    file: info.file,
    rows: info.rows,
    run_ids: info.runIds,
    git_commits: info.gitCommits,
    versions: info.versions,
    calib_ms: info.calibMs,
    duplicates: info.duplicates,
    reps_per_pair: info.repsPerPair,
  });
  const c = result.counts;
  return {
    format: 'nonobench-compare',
    format_version: 1,
    base: run(result.base),
    new: run(result.next),
    settings: {
      threshold: result.options.threshold,
      confidence: result.options.confidence,
      strict_counters: result.options.strictCounters,
      min_time_ms: result.options.minTimeMs,
      normalize: result.options.normalize,
      time: result.options.time ?? 'auto',
      allow_different: !!result.options.allowDifferent,
      paired_rounds: !!result.options.pairedRounds,
    },
    time_basis: result.timeBasis,
    time_basis_note: result.timeBasisNote,
    time_advisory: !!result.timeAdvisory,
    speed_factor: result.speedFactor,
    setting_differences: result.settings.differences.map((d) => ({ setting: d.setting, configuration: d.configuration, base: d.base, new: d.next, refuses: d.refuses })),
    settings_unknown: result.settings.unknown,
    summary: {
      pairs: c.pairs,
      time_regressions: c.timeRegressions,
      time_improvements: c.timeImprovements,
      time_inconclusive: c.timeInconclusive,
      time_regressions_holding: c.timeRegressionsConfirmed,
      strategy_regressions: c.strategyRegressions,
      strategy_improvements: c.strategyImprovements,
      strategy_inconclusive: c.strategyInconclusive,
      status_regressions: c.statusRegressions,
      status_improvements: c.statusImprovements,
      status_changes: c.statusChanges,
      counter_changes: c.counterChanges,
      only_in_base: c.onlyInBase,
      only_in_new: c.onlyInNew,
      failed: result.failed,
      exit_code: result.exitCode,
    },
    strategies: result.strategies.map((s) => ({
      strategy: s.strategy,
      pairs: s.pairs,
      both_solved: s.bothSolved,
      geomean_ratio: s.geomeanRatio,
      time_regressions: s.timeRegressions,
      time_improvements: s.timeImprovements,
      time_inconclusive: s.timeInconclusive,
      status_regressions: s.statusRegressions,
      typical_ratio: s.shift.pairs ? s.shift.factor : null,
      typical_ci_low: s.shift.low,
      typical_ci_high: s.shift.high,
      typical_pairs: s.shift.pairs,
      typical_rounds: s.shift.rounds ?? null,
      relative_ratio: s.shift.relative?.factor ?? null,
      relative_ci_low: s.shift.relative?.low ?? null,
      relative_ci_high: s.shift.relative?.high ?? null,
      verdict: s.verdict,
      verdict_by: s.verdictBy ?? null,
    })),
  };
}

/**
 * The json format a pair at a time: the same text as JSON.stringify(comparisonJson(result), null, 2),
 * without ever holding it whole.
 */
export function* jsonChunks(result: CompareResult): Generator<string> {
  const head = JSON.stringify(jsonHead(result), null, 2);
  yield head.slice(0, head.lastIndexOf('\n}'));
  const list = function* <T>(name: string, items: readonly T[], json: (item: T) => object): Generator<string> {
    if (items.length === 0) {
      yield `,\n  "${name}": []`;
      return;
    }
    yield `,\n  "${name}": [`;
    let piece = '';
    for (let i = 0; i < items.length; i++) {
      piece += `${i ? ',' : ''}\n    ${JSON.stringify(json(items[i]!), null, 2).replace(/\n/g, '\n    ')}`;
      if (piece.length > 1 << 20) {
        yield piece;
        piece = '';
      }
    }
    yield `${piece}\n  ]`;
  };
  yield* list('pairs', result.pairs, pairJson);
  yield* list('only_in_base', result.onlyInBase, keyJson);
  yield* list('only_in_new', result.onlyInNew, keyJson);
  yield '\n}\n';
}
