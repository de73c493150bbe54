import { csvRecord } from '../results/csv.js';
import { COUNTERS, describeStatuses, MIN_CALIBRATIONS, settingsLines, type CompareResult, type PairComparison, type PairKey, type RunInfo, type SideSummary } from './compare.js';
import { formatTable } from '../io/table.js';

export const COMPARE_FORMATS = ['table', 'md', 'csv', 'json'] as const;
export type CompareFormat = (typeof COMPARE_FORMATS)[number];

/** The output as one string (see comparisonChunks for output of any size). */
export function formatComparison(result: CompareResult, format: CompareFormat): string {
  return Array.from(comparisonChunks(result, format)).join('');
}

/**
 * The output in pieces, to be written one after the other: a comparison of a million rows can have
 * more pairs than one string may hold as csv or json (the table and md formats list at most
 * MAX_LISTED rows per section).
 */
export function* comparisonChunks(result: CompareResult, format: CompareFormat): Generator<string> {
  switch (format) {
    case 'table':
      yield formatText(result, textTable);
      return;
    case 'md':
      yield formatText(result, markdownTable);
      return;
    case 'csv':
      yield* csvChunks(result);
      return;
    case 'json':
      yield* jsonChunks(result);
      return;
  }
}

/** Most rows a section of the table and md formats lists; csv and json list every pair. */
export const MAX_LISTED = 1000;

// ---------- numbers ----------

const fixed = (x: number | null, digits: number) => (x === null || !Number.isFinite(x) ? '' : x.toFixed(digits));
const ms = (x: number | null) => (x === null ? '-' : x >= 100 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));
const ratio = (x: number | null) => (x === null || !Number.isFinite(x) ? '-' : `${x.toFixed(3)}×`);
const pValue = (p: number) => (p < 0.001 ? '<0.001' : p.toFixed(3));
const puzzleLabel = (k: PairKey) => k.puzzlePath || k.puzzleId;
/** A confidence level as a percentage, unrounded: 0.999 is 99.9%, not 100%. */
export const percentLabel = (x: number) => `${Number((x * 100).toPrecision(10))}%`;

function interval(p: PairComparison): string {
  const t = p.time!;
  if (t.low === null || t.high === null) return `(${t.note})`;
  const ci = `[${t.low.toFixed(3)}, ${t.high.toFixed(3)}]`;
  return t.note ? `${ci} (${t.note})` : ci;
}

// ---------- terminal and markdown ----------

type TableFn = (header: string[], body: string[][]) => string;

const textTable: TableFn = (header, body) => formatTable(header, body);

const mdCell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const markdownTable: TableFn = (header, body) =>
  [header, header.map(() => '---'), ...body].map((row) => `| ${row.map(mdCell).join(' | ')} |`).join('\n');

function runLine(name: string, info: RunInfo): string {
  const list = (xs: string[]) => (xs.length ? xs.join(', ') : '-');
  const calib = info.calibMs === null ? 'no calibration' : `calibration ${info.calibMs.toFixed(2)} ms`;
  const dups = info.duplicates ? ` (${info.duplicates} duplicate row${info.duplicates === 1 ? '' : 's'} dropped)` : '';
  return `${name} ${info.file}: ${info.rows} rows${dups}, run ${list(info.runIds)}, commit ${list(info.gitCommits)}, ${calib}`;
}

/** Which time is judged, and why when it is not CPU time taken as a matter of course. */
export function timeBasisLine(result: CompareResult): string {
  const why = result.timeBasisNote ? ` (${result.timeBasisNote})` : '';
  if (result.timeBasis === 'cpu') return `time: CPU time (cpu_ms)${why}, not scaled by calibration: other work on the machine does not add to it`;
  return `time: wall time (time_ms)${why}`;
}

/** The differences of the runs' settings, one line each, or that there are none; and what is unknown. */
export function settingsTextLines(result: CompareResult): string[] {
  const { settings } = result;
  const lines = settingsLines('settings', result.base.file, result.next.file, settings, true).map((l) => l.replace(/^settings: note: /, 'note: '));
  if (lines.length === 0) lines.push('settings: the same in both runs');
  if (settings.unknown.length) lines.push(`settings not recorded by a run (not compared): ${settings.unknown.join(', ')}`);
  return lines;
}

function speedLine(result: CompareResult): string {
  if (result.timeBasis === 'cpu') return '';
  if (!result.options.normalize) return 'machine speed: not normalized (--raw-times)';
  if (result.base.calibMs === null || result.next.calibMs === null) return `machine speed: not normalized (a run has fewer than ${MIN_CALIBRATIONS} calibrations)`;
  return `machine speed: NEW times scaled by ${result.speedFactor.toFixed(3)} (BASE/NEW calibration) to discount a change of machine load`;
}

function formatText(result: CompareResult, table: TableFn): string {
  const md = table === markdownTable;
  const out: string[] = [];
  const section = (title: string, header: string[], body: string[][]) => {
    if (body.length === 0) {
      out.push('', md ? `## ${title}: none` : `${title}: none`);
      return;
    }
    const shown = body.length > MAX_LISTED ? body.slice(0, MAX_LISTED) : body;
    out.push('', md ? `## ${title} (${body.length})\n` : `${title} (${body.length})`, table(header, shown));
    if (shown.length < body.length) out.push('', `… and ${body.length - shown.length} more, not listed here: --format csv or json lists every pair`);
  };
  const o = result.options;
  const slow = 1 + o.threshold;
  const item = md ? '- ' : '';
  out.push(md ? '# nonobench compare\n' : 'nonobench compare');
  out.push(
    item + runLine('BASE', result.base),
    item + runLine('NEW ', result.next),
    ...settingsTextLines(result).map((l) => item + l),
    item + timeBasisLine(result),
    ...(speedLine(result) ? [item + speedLine(result)] : []),
    item +
      `time: regression when the ${percentLabel(o.confidence)} CI of NEW/BASE lies above ${slow.toFixed(3)}, ` +
      `improvement when below ${(1 / slow).toFixed(3)} (too few repetitions: the range of ratios; one: the ratio alone)` +
      (o.minTimeMs > 0 ? `; times under ${o.minTimeMs} ms not flagged` : ''),
  );

  const timeHeader = ['puzzle', 'strategy', 'base ms', 'new ms', 'ratio', `${percentLabel(o.confidence)} CI`, 'p', 'reps'];
  const timeRow = (p: PairComparison) => [
    puzzleLabel(p),
    p.strategy,
    ms(p.base.medianMs),
    ms(p.next.medianMs),
    ratio(p.time!.ratio),
    interval(p),
    p.time!.low === null ? '-' : pValue(p.time!.pValue),
    `${p.base.times.length}+${p.next.times.length}`,
  ];
  section('Time regressions', timeHeader, result.pairs.filter((p) => p.time?.verdict === 'regression').map(timeRow));
  section('Time improvements', timeHeader, result.pairs.filter((p) => p.time?.verdict === 'improvement').map(timeRow));
  section(
    'Status changes',
    ['puzzle', 'strategy', 'base', 'new', 'verdict', 'reason'],
    result.pairs
      .filter((p) => p.status.verdict !== 'same')
      .map((p) => [puzzleLabel(p), p.strategy, describeStatuses(p.base), describeStatuses(p.next), p.status.verdict, p.status.reason]),
  );
  section(
    'Counter changes',
    ['puzzle', 'strategy', 'counter', 'base', 'new'],
    result.pairs.flatMap((p) => p.counterChanges.map((c) => [puzzleLabel(p), p.strategy, c.counter, c.base, c.next])),
  );
  const keyRows = (keys: PairKey[]) => keys.map((k) => [puzzleLabel(k), k.strategy, k.puzzleId]);
  section('Only in BASE', ['puzzle', 'strategy', 'puzzle id'], keyRows(result.onlyInBase));
  section('Only in NEW', ['puzzle', 'strategy', 'puzzle id'], keyRows(result.onlyInNew));
  section(
    'Per strategy',
    ['strategy', 'pairs', 'both solved', 'geomean ratio', 'time regr.', 'time impr.', 'status regr.'],
    result.strategies.map((s) => [
      s.strategy,
      String(s.pairs),
      String(s.bothSolved),
      ratio(s.geomeanRatio),
      String(s.timeRegressions),
      String(s.timeImprovements),
      String(s.statusRegressions),
    ]),
  );
  out.push('', item + coverageLine(result), '', (md ? '**' : '') + verdictLine(result) + (md ? '**' : ''));
  return `${out.join('\n')}\n`;
}

/** How many pairs were compared and how many are on one side only. */
export function coverageLine(result: CompareResult): string {
  const c = result.counts;
  return `pairs: ${c.pairs} compared, ${c.onlyInBase} of BASE missing from NEW, ${c.onlyInNew} only in NEW`;
}

/** One line: FAIL with what failed, or OK. */
export function verdictLine(result: CompareResult): string {
  const c = result.counts;
  const parts: string[] = [];
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  if (c.timeRegressions) parts.push(plural(c.timeRegressions, 'time regression'));
  if (c.statusRegressions) parts.push(plural(c.statusRegressions, 'status regression'));
  if (result.options.strictCounters && c.counterChanges) parts.push(plural(c.counterChanges, 'counter change'));
  if (c.onlyInBase) parts.push(`${plural(c.onlyInBase, 'pair')} of BASE missing from NEW`);
  if (result.failed) return `FAIL: ${parts.join(', ')} in ${plural(c.pairs, 'pair')}`;
  const notes = [
    c.timeImprovements ? plural(c.timeImprovements, 'time improvement') : '',
    c.counterChanges ? plural(c.counterChanges, 'counter change') : '',
    c.onlyInNew ? `${plural(c.onlyInNew, 'pair')} only in NEW` : '',
  ].filter(Boolean);
  return `OK: no regression in ${plural(c.pairs, 'pair')}${notes.length ? ` (${notes.join(', ')})` : ''}`;
}

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
  'ratio',
  'ci_low',
  'ci_high',
  'p_value',
  'time_verdict',
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
    ratio: p.time ? fixed(p.time.ratio, 6) : '',
    ci_low: p.time ? fixed(p.time.low, 6) : '',
    ci_high: p.time ? fixed(p.time.high, 6) : '',
    p_value: p.time ? fixed(p.time.pValue, 6) : '',
    time_verdict: p.time ? p.time.verdict : 'not-compared',
    time_note: p.time?.note ?? '',
    time_basis: basis,
    ...Object.fromEntries(COUNTERS.flatMap((c) => [[`base_${c}`, p.base.counters[c].join('|')], [`new_${c}`, p.next.counters[c].join('|')]])),
    counters_changed: p.counterChanges.map((c) => c.counter).join(' '),
  };
}

/** The csv format (fields quoted as RFC 4180 asks), a thousand rows a piece. */
function* csvChunks(result: CompareResult): Generator<string> {
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
 *   base | new: { file, rows, run_ids[], git_commits[], versions[], calib_ms|null, duplicates },
 *   settings: { threshold, confidence, strict_counters, min_time_ms, normalize, time: auto|cpu|wall, allow_different },
 *   time_basis: cpu|wall (the times judged: cpu_ms or time_ms), time_basis_note: why ('' when CPU time was there),
 *   speed_factor: the factor applied to NEW's times (1 when not normalized, always 1 for CPU time),
 *   setting_differences: [{ setting, configuration (params only, else ''), base, new, refuses }],
 *   settings_unknown: [settings a run's CSV does not record],
 *   summary: { pairs, time_regressions, time_improvements, status_regressions, status_improvements,
 *              status_changes, counter_changes, only_in_base, only_in_new, failed, exit_code },
 *   strategies: [{ strategy, pairs, both_solved, geomean_ratio|null, time_regressions, time_improvements, status_regressions }],
 *   pairs: [{ puzzle_id, puzzle_path, strategy, title,
 *             base | new: { reps, status, statuses{status: count}, verified, median_ms|null, times_ms[],
 *                           counters{dead_ends[], decisions[], line_solves[]} },
 *             time: null | { verdict: regression|improvement|unchanged, ratio, ci_low|null, ci_high|null,
 *                            achieved_confidence, hodges_lehmann, p_value, note },
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
    },
    time_basis: result.timeBasis,
    time_basis_note: result.timeBasisNote,
    speed_factor: result.speedFactor,
    setting_differences: result.settings.differences.map((d) => ({ setting: d.setting, configuration: d.configuration, base: d.base, new: d.next, refuses: d.refuses })),
    settings_unknown: result.settings.unknown,
    summary: {
      pairs: c.pairs,
      time_regressions: c.timeRegressions,
      time_improvements: c.timeImprovements,
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
      status_regressions: s.statusRegressions,
    })),
  };
}

/**
 * The json format a pair at a time: the same text as JSON.stringify(comparisonJson(result), null, 2),
 * without ever holding it whole.
 */
function* jsonChunks(result: CompareResult): Generator<string> {
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
