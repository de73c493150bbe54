import {
  belowMinTime,
  beyondThreshold,
  describeStatuses,
  INCONCLUSIVE_WHY,
  MIN_CALIBRATIONS,
  MIN_REPS,
  settingsLines,
  TRIM_FROM_REPS,
  type CompareResult,
  type PairComparison,
  type PairKey,
  type RunInfo,
} from './compare.js';
import { oneLineText } from '../../corpus/errors.js';
import { formatTable } from '../io/table.js';
import { csvChunks, jsonChunks } from './format-data.js';
import type { FamilyShift } from './family.js';

export { COMPARE_CSV_COLUMNS, comparisonJson } from './format-data.js';

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

const ms = (x: number | null) => (x === null ? '-' : x >= 100 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));
/** A difference of times: `+3.41 ms`, `-0.052 ms`. */
export const signedMs = (x: number) => `${x < 0 ? '-' : '+'}${ms(Math.abs(x))} ms`;
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

/**
 * Text for markdown that shows as written: control characters escaped as on the terminal (a lone CR
 * would end a table row), `\` and `|` backslash-escaped (`|` splits cells), and so are `*`, `_`,
 * `` ` ``, `~` and `]` (a configuration `__proto__` would show as a bold "proto", `[x](url)` as
 * a link; with its `]` escaped a link or image cannot close), and `&`, `<`, `>` as entities, so
 * a value from a CSV cannot become live HTML where the markdown is rendered.
 */
export const mdText = (s: string) =>
  oneLineText(s)
    .replace(/[\\|*_`~\]]/g, '\\$&')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
const markdownTable: TableFn = (header, body) =>
  [header, header.map(() => '---'), ...body].map((row) => `| ${row.map(mdText).join(' | ')} |`).join('\n');

/** Run ids and commits a header line names before it counts the rest. */
const LISTED_IDS = 3;

function runLine(name: string, info: RunInfo): string {
  // A merge of many shards has a run id each: the first few, and how many more (json lists them all).
  const list = (xs: string[]) => (xs.length === 0 ? '-' : xs.length <= LISTED_IDS ? xs.join(', ') : `${xs.slice(0, LISTED_IDS).join(', ')} and ${xs.length - LISTED_IDS} more`);
  const calib = info.calibMs === null ? 'no calibration' : `calibration ${info.calibMs.toFixed(2)} ms`;
  const dups = info.duplicates ? ` (${info.duplicates} duplicate row${info.duplicates === 1 ? '' : 's'} dropped)` : '';
  return `${name} ${info.file}: ${info.rows} rows${dups}, run ${list(info.runIds)}, commit ${list(info.gitCommits)}, ${calib}`;
}

/** Which time is judged, and why when it is not CPU time taken as a matter of course. */
export function timeBasisLine(result: CompareResult): string {
  const why = result.timeBasisNote ? ` (${oneLineText(result.timeBasisNote)})` : ''; // it may name a file
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

/** How many repetitions each side has per compared pair, and which count toward a time verdict. */
export function repsLine(result: CompareResult): string {
  const range = (r: RunInfo['repsPerPair']) => (r.min === r.max ? String(r.min) : `${r.min}–${r.max}`);
  return (
    `repetitions per pair: BASE ${range(result.base.repsPerPair)}, NEW ${range(result.next.repsPerPair)} ` +
    `(from ${TRIM_FROM_REPS} on, the interval sets the slowest aside; time is judged with ${MIN_REPS} or more timed a side)`
  );
}

/** How many pairs' time was not judged and why; '' when there are none. */
export function inconclusiveLine(result: CompareResult): string {
  const c = result.counts;
  return c.timeInconclusive ? `time inconclusive for ${c.timeInconclusive} of ${c.pairs} pairs: ${INCONCLUSIVE_WHY}: ${result.options.moreReps}` : '';
}

/** Over rounds: the strategies whose rounds disagree too much for a verdict, and how to get more rounds; '' when none. */
export function roundsInconclusiveLine(result: CompareResult): string {
  const names = result.strategies.filter((s) => s.verdict === 'inconclusive').map((s) => s.strategy);
  if (names.length === 0) return '';
  const more = result.options.moreRounds ?? 'rerun with more rounds';
  return `time inconclusive over the rounds for ${names.join(', ')}: the interval reaches beyond the threshold, as the rounds disagree (the machine's load changed between turns): ${more}`;
}

function speedLine(result: CompareResult): string {
  if (result.timeBasis === 'cpu') return '';
  if (!result.options.normalize) return 'machine speed: not normalized (--raw-times)';
  if (result.base.calibMs === null || result.next.calibMs === null) return `machine speed: not normalized (a run has fewer than ${MIN_CALIBRATIONS} calibrations)`;
  return `machine speed: NEW times scaled by ${result.speedFactor.toFixed(3)} (BASE/NEW calibration) to discount a change of machine load`;
}

function formatText(result: CompareResult, table: TableFn): string {
  const md = table === markdownTable;
  // Lines carry CSV text (run ids, commits, settings, configuration names): escaped, so they cannot
  // drive the terminal or forge a line (escaping twice changes nothing: escapes are printable).
  // Table cells are escaped by formatTable and mdText.
  const line = (text: string) => (md ? `- ${mdText(text)}` : oneLineText(text));
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
  out.push(md ? '# nonobench compare\n' : 'nonobench compare');
  out.push(
    line(runLine('BASE', result.base)),
    line(runLine('NEW ', result.next)),
    ...settingsTextLines(result).map(line),
    line(timeBasisLine(result)),
    line(repsLine(result)),
    ...(speedLine(result) ? [line(speedLine(result))] : []),
    line(
      `time: regression when the ${percentLabel(o.confidence)} CI of NEW/BASE lies above ${slow.toFixed(3)}, ` +
        `improvement when below ${(1 / slow).toFixed(3)} (too few repetitions for that confidence: the range of ratios)` +
        (o.minTimeMs > 0 ? `; times under ${o.minTimeMs} ms not flagged` : '') +
        (result.timeAdvisory ? '; advisory only: time regressions do not fail' : ''),
    ),
    line(
      result.timeAdvisory
        ? 'time never fails here: its verdicts are advice (a baseline measured under another load; bench-check --ab judges time A/B)'
        : `time fails for a strategy whose typical ratio ${o.pairedRounds ? "over its pairs, judged over the rounds (each round's median ratio; Student's t)," : 'over its pairs'} has its ${percentLabel(o.confidence)} CI above ${slow.toFixed(3)}, ` +
          (o.pairedRounds ? `or whose CI against the other strategies' rounds is above ${slow.toFixed(3)} with its typical ratio above it too, ` : '') +
          `or a pair's regression that holds among all ${result.counts.pairs} pairs (false-discovery rate ${percentLabel(1 - o.confidence)})`,
    ),
    line('order: status regressions (worst status first), time regressions (most ms lost first), other status changes, improvements (most ms saved first)'),
  );

  // Pairs come most severe first (see bySeverity): each section keeps that order.
  section(
    'Status changes',
    ['puzzle', 'strategy', 'base', 'new', 'verdict', 'reason'],
    result.pairs
      .filter((p) => p.status.verdict !== 'same')
      .map((p) => [puzzleLabel(p), p.strategy, describeStatuses(p.base), describeStatuses(p.next), p.status.verdict, p.status.reason]),
  );
  const timeHeader = ['puzzle', 'strategy', 'base ms', 'new ms', 'difference', 'ratio', `${percentLabel(o.confidence)} CI`, 'p', 'reps', 'holds'];
  const timeRow = (p: PairComparison) => [
    puzzleLabel(p),
    p.strategy,
    ms(p.base.medianMs),
    ms(p.next.medianMs),
    signedMs(p.time!.diffMs),
    ratio(p.time!.ratio),
    interval(p),
    p.time!.low === null ? '-' : pValue(p.time!.pValue),
    `${p.base.times.length}+${p.next.times.length}`,
    p.time!.confirmed ? 'yes' : p.time!.confirmed === false ? 'no' : '-',
  ];
  section('Time regressions', timeHeader, result.pairs.filter((p) => p.time?.verdict === 'regression').map(timeRow));
  section('Time improvements', timeHeader, result.pairs.filter((p) => p.time?.verdict === 'improvement').map(timeRow));
  // Too few repetitions to judge, but the medians differ by more than the threshold: worth a rerun.
  const unconfirmed = (p: PairComparison) =>
    p.time?.verdict === 'inconclusive' &&
    // Judged as the verdicts are (log scale, rounding margin): a ratio exactly on the threshold is on it whichever run is BASE.
    beyondThreshold(p.time.ratio, p.time.ratio, o.threshold) !== 'unchanged' &&
    !belowMinTime(p.base, p.next, o.minTimeMs);
  if (result.counts.timeInconclusive) section(`Unconfirmed time changes, fewer than ${MIN_REPS} repetitions a side`, timeHeader, result.pairs.filter(unconfirmed).map(timeRow));
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
    [
      'strategy',
      'pairs',
      'both solved',
      'geomean ratio',
      'typical ratio',
      `${percentLabel(o.confidence)} CI`,
      ...(o.pairedRounds ? ['against the others (CI)'] : []),
      'verdict',
      'time regr.',
      'time impr.',
      'time inconcl.',
      'status regr.',
    ],
    result.strategies.map((s) => [
      s.strategy,
      String(s.pairs),
      String(s.bothSolved),
      ratio(s.geomeanRatio),
      ratio(s.shift.pairs ? s.shift.factor : null),
      s.shift.low !== null
        ? `[${s.shift.low.toFixed(3)}, ${s.shift.high!.toFixed(3)}]`
        : s.shift.rounds === undefined || s.shift.pairs === 0
          ? `(${s.shift.pairs} timed: too few)`
          : `(${s.shift.rounds} rounds: too few)`,
      ...(o.pairedRounds ? [s.shift.relative?.low != null ? `${ratio(s.shift.relative.factor)} [${s.shift.relative.low.toFixed(3)}, ${s.shift.relative.high!.toFixed(3)}]` : '-'] : []),
      s.verdict ?? '-',
      String(s.timeRegressions),
      String(s.timeImprovements),
      String(s.timeInconclusive),
      String(s.statusRegressions),
    ]),
  );
  const verdict = verdictLine(result);
  out.push(
    '',
    line(coverageLine(result)),
    ...[inconclusiveLine(result), roundsInconclusiveLine(result)].filter(Boolean).map(line),
    '',
    md ? `**${mdText(verdict)}**` : oneLineText(verdict),
  );
  return `${out.join('\n')}\n`;
}

/** Over rounds: the factor against each round's other strategies, with its interval ('' without one). */
function relativeText(shift: FamilyShift): string {
  const r = shift.relative;
  return r && r.low !== null ? `; ${r.factor.toFixed(3)}× against the other strategies' rounds, [${r.low.toFixed(3)}, ${r.high!.toFixed(3)}]` : '';
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
  if (!result.timeAdvisory) {
    for (const s of result.strategies.filter((s) => s.verdict === 'regression'))
      parts.push(
        `${s.strategy} ${s.shift.factor.toFixed(3)}× slower over ${plural(s.shift.pairs, 'pair')}${s.shift.rounds === undefined ? '' : ` in ${plural(s.shift.rounds, 'round')}`} ` +
          `(${percentLabel(result.options.confidence)} CI [${s.shift.low!.toFixed(3)}, ${s.shift.high!.toFixed(3)}]${relativeText(s.shift)})`,
      );
    if (c.timeRegressionsConfirmed) parts.push(plural(c.timeRegressionsConfirmed, 'time regression'));
  }
  if (c.statusRegressions) parts.push(plural(c.statusRegressions, 'status regression'));
  if (result.options.strictCounters && c.counterChanges) parts.push(plural(c.counterChanges, 'counter change'));
  if (c.onlyInBase) parts.push(`${plural(c.onlyInBase, 'pair')} of BASE missing from NEW`);
  // Time regressions that do not fail are advisory (bench-check without --ab) or do not hold among all the pairs: said, never hidden.
  const unconfirmed = result.timeAdvisory ? c.timeRegressions : c.timeRegressions - c.timeRegressionsConfirmed;
  const strategiesSlower = result.timeAdvisory ? c.strategyRegressions : 0;
  const aside = [
    strategiesSlower ? `${strategiesSlower} ${strategiesSlower === 1 ? 'strategy' : 'strategies'} slower` : '',
    unconfirmed ? plural(unconfirmed, 'time regression') : '',
  ].filter(Boolean);
  const asideNote = aside.length ? `${aside.join(', ')}, ${result.timeAdvisory ? 'advisory' : 'not holding among all pairs'}` : '';
  if (result.failed) return `FAIL: ${parts.join(', ')} in ${plural(c.pairs, 'pair')}${asideNote ? ` (${asideNote})` : ''}`;
  const notes = [
    asideNote,
    c.timeImprovements ? plural(c.timeImprovements, 'time improvement') : '',
    c.timeInconclusive ? `${c.timeInconclusive} inconclusive on time` : '',
    c.strategyInconclusive ? `${c.strategyInconclusive} ${c.strategyInconclusive === 1 ? 'strategy' : 'strategies'} inconclusive over the rounds` : '',
    c.counterChanges ? plural(c.counterChanges, 'counter change') : '',
    c.onlyInNew ? `${plural(c.onlyInNew, 'pair')} only in NEW` : '',
  ].filter(Boolean);
  return `OK: no ${asideNote ? 'failing ' : ''}regression in ${plural(c.pairs, 'pair')}${notes.length ? ` (${notes.join(', ')})` : ''}`;
}
