import { rowsOf } from '../compare/pairs.js';
import { geometricMean, TIME_FLOOR_MS } from '../compare/stats.js';
import { ROW_STATUSES } from '../results/row.js';
import { figure, ScoreSheet, type Scores } from '../results/scores.js';
import { describeStatuses, SOLVED, statusCounts, WRONG, type ReportData, type RunData, type Series } from './data.js';
import { htmlGroupedTable, htmlTable, paragraph, scrolling } from './html.js';

/** Longest per-puzzle and guessing tables written in full. */
export const MAX_TABLE_ROWS = 1000;

/** "cpu ms" or "wall ms". */
export const unitOf = (data: ReportData, unit: 'ms' | 's') => `${data.basis} ${unit}`;

/** A series' scores over the puzzles `keep` accepts (all it ran by default): solved, median and total, PAR-2. */
export function seriesScores(s: Series, keep: (puzzle: number) => boolean = () => true): Scores {
  const sheet = new ScoreSheet();
  const { verdict, timeMs, limitS } = s.run;
  for (let k = 0; k < s.pairOf.length; k++) {
    const p = s.pairOf[k]!;
    if (p >= 0 && keep(k)) sheet.add(verdict[p] === SOLVED, timeMs[p]!, limitS[p]!);
  }
  return sheet.scores();
}

/** One row per series: puzzles and tasks solved, tasks per status, median, total, PAR-2 and dead ends. */
export function configurationTable(data: ReportData): string {
  const counts = new Map<RunData, ReturnType<typeof statusCounts>>(data.runs.map((r) => [r, statusCounts(r)]));
  const countsOf = (s: Series) => counts.get(s.run)!.get(s.config) ?? {};
  const statuses = ROW_STATUSES.filter((st) => data.series.some((s) => countsOf(s)[st]));
  const header = ['configuration', 'puzzles', 'solved', 'tasks', ...statuses, `median ${unitOf(data, 'ms')}`, `total ${unitOf(data, 's')}`, 'PAR-2 s', 'dead ends'];
  const body = data.series.map((s) => {
    const scores = seriesScores(s);
    const c = countsOf(s);
    let deadEnds = NaN;
    s.pairOf.forEach((p) => {
      const d = p >= 0 && s.run.verdict[p] === SOLVED ? s.run.counters.dead_ends[p]! : NaN;
      if (!Number.isNaN(d)) deadEnds = (Number.isNaN(deadEnds) ? 0 : deadEnds) + d;
    });
    return [
      s.name,
      String(scores.count),
      String(scores.solved),
      String(Object.values(c).reduce((a, b) => a + b, 0)),
      ...statuses.map((st) => String(c[st] ?? 0)),
      figure(scores.medianMs),
      figure(scores.totalMs / 1000),
      figure(scores.par2S),
      Number.isNaN(deadEnds) ? '-' : String(deadEnds),
    ];
  });
  return scrolling(htmlTable(header, body));
}

/** Per configuration in both runs: what each solves of the puzzles both ran, the time ratio where both solved, PAR-2 and its ratio. */
export function overlayTable(data: ReportData): string {
  const [base, next] = data.runs;
  const rows: string[][] = [];
  for (const config of data.configs) {
    const b = data.series.find((s) => s.config === config && s.run === base);
    const n = data.series.find((s) => s.config === config && s.run === next);
    if (!b || !n) continue;
    const both = (k: number) => b.pairOf[k]! >= 0 && n.pairOf[k]! >= 0;
    const ratios: number[] = [];
    for (let k = 0; k < data.puzzles.length; k++) {
      if (!both(k)) continue;
      const [pb, pn] = [b.pairOf[k]!, n.pairOf[k]!];
      const [tb, tn] = [b.run.timeMs[pb]!, n.run.timeMs[pn]!];
      if (b.run.verdict[pb] === SOLVED && n.run.verdict[pn] === SOLVED && !Number.isNaN(tb) && !Number.isNaN(tn))
        ratios.push(Math.max(TIME_FLOOR_MS, tn) / Math.max(TIME_FLOOR_MS, tb));
    }
    const [sb, sn] = [seriesScores(b, both), seriesScores(n, both)];
    const par2Ratio = sb.par2S !== null && sn.par2S !== null && sb.par2S > 0 ? sn.par2S / sb.par2S : null;
    rows.push([
      config,
      String(sb.count),
      String(sb.solved),
      String(sn.solved),
      String(ratios.length),
      ratios.length ? `${geometricMean(ratios).toFixed(3)}` : '-',
      figure(sb.par2S),
      figure(sn.par2S),
      par2Ratio === null ? '-' : par2Ratio.toFixed(3),
    ]);
  }
  if (rows.length === 0) return paragraph('No configuration is in both runs, so there is nothing to set side by side.');
  const header = ['configuration', 'puzzles in both', 'solved base', 'solved new', 'both solved', 'time new/base', 'PAR-2 base s', 'PAR-2 new s', 'PAR-2 new/base'];
  return (
    scrolling(htmlTable(header, rows)) +
    paragraph(
      'Over the puzzles both runs have for the configuration. time new/base: the geometric mean of the per-puzzle ratios of median times, over the puzzles both runs solved (below 1: NEW is faster). ' +
        'PAR-2 new/base: the ratio of the two PAR-2 scores over the same puzzles, which also counts what one run solves and the other does not. ' +
        'For a judgement with confidence intervals, use nonobench compare.',
    )
  );
}

const cellTime = (s: Series, p: number) => (p < 0 ? '' : figure(s.run.timeMs[p]!));
const cellCount = (x: number) => (Number.isNaN(x) ? '-' : String(x));

/** One row per puzzle (the first MAX_TABLE_ROWS): its size and, per configuration, each run's status, median time and dead ends. */
export function puzzleTable(data: ReportData): string {
  const groups: [string, number][] = [];
  const header = ['puzzle', 'size'];
  const numeric: boolean[] = [false, false];
  const cells: ((k: number) => string)[] = [];
  const col = (h: string, isNumber: boolean, cell: (k: number) => string) => {
    header.push(h);
    numeric.push(isNumber);
    cells.push(cell);
  };
  for (const config of data.configs) {
    const mine = data.series.filter((s) => s.config === config);
    const suffix = (s: Series) => (s.run.label ? ` ${s.run.label}` : '');
    const before = header.length;
    for (const s of mine) col(`status${suffix(s)}`, false, (k) => (s.pairOf[k]! < 0 ? '' : describeStatuses(s.run.table, rowsOf(s.run.groups, s.pairOf[k]!))));
    for (const s of mine) col(`${unitOf(data, 'ms')}${suffix(s)}`, true, (k) => cellTime(s, s.pairOf[k]!));
    if (mine.length === 2) {
      const [b, n] = mine as [Series, Series];
      col('new/base', true, (k) => {
        const [pb, pn] = [b.pairOf[k]!, n.pairOf[k]!];
        if (pb < 0 || pn < 0 || b.run.verdict[pb] !== SOLVED || n.run.verdict[pn] !== SOLVED) return '';
        const ratio = Math.max(TIME_FLOOR_MS, n.run.timeMs[pn]!) / Math.max(TIME_FLOOR_MS, b.run.timeMs[pb]!);
        return Number.isNaN(ratio) ? '' : ratio.toFixed(2);
      });
    }
    for (const s of mine) col(`dead ends${suffix(s)}`, true, (k) => (s.pairOf[k]! < 0 ? '' : cellCount(s.run.counters.dead_ends[s.pairOf[k]!]!)));
    groups.push([config, header.length - before]);
  }
  const shown = Math.min(data.puzzles.length, MAX_TABLE_ROWS);
  const body: string[][] = [];
  for (let k = 0; k < shown; k++) body.push([data.puzzles[k]!.label, data.puzzles[k]!.size, ...cells.map((c) => c(k))]);
  const more = data.puzzles.length > shown ? paragraph(`… and ${data.puzzles.length - shown} more puzzles (the CSV has every row).`) : '';
  return (
    paragraph(
      `Puzzles in the order they were run. Per configuration: the repetitions' statuses (unique×4 timeout×1 when they differ), the median ${data.basis} time of the repetitions that answered, and the median dead ends over the repetitions` +
        (data.runs.length > 1 ? '; new/base is the ratio of the median times where both runs solved the puzzle.' : '.'),
    ) +
    scrolling(htmlGroupedTable(2, groups, header, body, (i) => numeric[i]!)) +
    more
  );
}

/** Search strategies whose decisions tell which puzzles need guessing, the preferred first. */
export const GUESSING_STRATEGIES = ['probe', 'backtrack'];

/** The strategy a series ran (its rows' `strategy`; a configuration's name says nothing of it). */
function strategyOf(s: Series): string {
  for (const p of s.pairOf) if (p >= 0) return s.run.table.str('strategy', rowsOf(s.run.groups, p)[0]!);
  return '';
}

/** Whether a series ran with probing turned off (its rows' `params`): its guesses then say nothing of what probing finishes. */
function probingOff(s: Series): boolean {
  for (const p of s.pairOf) {
    if (p < 0) continue;
    try {
      const params: unknown = JSON.parse(s.run.table.str('params', rowsOf(s.run.groups, p)[0]!) || '{}');
      return typeof params === 'object' && params !== null && (params as Record<string, unknown>).probing === false;
    } catch {
      return false;
    }
  }
  return false;
}

/**
 * The puzzles a search strategy had to guess on (median decisions > 0; dead ends alone may be
 * contradictions found by probing), from the last run. probe's rows are preferred: it guesses only
 * where line logic and probing stop, so its list is classify's needs-guessing; backtrack's also
 * holds puzzles that probing would finish. The strategy is told by the rows' `strategy`, not by the
 * configuration's name (`probe:branch=first` runs probe; a configuration named `probe` may run
 * another); among several configurations of it, the one named as the strategy (its defaults) first.
 * A puzzle it did not solve without guessing (a limit, an error) is not known to need no guess.
 */
export function guessingSection(data: ReportData): string {
  const run = data.runs[data.runs.length - 1];
  const mine = data.series.filter((s) => s.run === run);
  let s: Series | undefined;
  let used: string | undefined;
  for (const name of GUESSING_STRATEGIES) {
    // probe with probing off guesses where line logic alone stops, as backtrack does: not classify's needs-guessing.
    const kind = (x: Series) => (strategyOf(x) === 'probe' && probingOff(x) ? 'backtrack' : strategyOf(x));
    const runs = mine.filter((x) => kind(x) === name);
    s = runs.find((x) => x.config === name) ?? runs[0];
    if (s) {
      used = name;
      break;
    }
  }
  if (run === undefined || s === undefined || used === undefined)
    return paragraph('Neither the backtrack nor the probe strategy is in this run, so it does not show which puzzles need guessing.');
  const { counters } = run;
  const guessing: number[] = [];
  let unknown = 0;
  let ran = 0;
  for (let k = 0; k < s.pairOf.length; k++) {
    const p = s.pairOf[k]!;
    if (p < 0) continue;
    ran++;
    if (counters.decisions[p]! > 0) guessing.push(k);
    else if (run.verdict[p] !== SOLVED) unknown++;
  }
  const de = (k: number) => counters.dead_ends[s.pairOf[k]!]!;
  const dec = (k: number) => counters.decisions[s.pairOf[k]!]!;
  guessing.sort((a, b) => (de(b) || 0) - (de(a) || 0) || dec(b) - dec(a) || data.puzzles[a]!.label.localeCompare(data.puzzles[b]!.label));
  const strategy = strategyOf(s);
  const named = s.config === strategy ? strategy : `${strategy} (configuration ${s.config})`;
  const intro = paragraph(
    (used === 'probe'
      ? `Puzzles on which ${named} made decisions (guesses): line logic and contradiction probing did not finish them. `
      : `Puzzles on which ${named} made decisions (guesses): line logic alone did not finish them (probing may finish some; run probe or classify to tell). `) +
      `Most dead ends first; counters and times are medians over the repetitions${data.runs.length > 1 ? ', from the NEW run' : ''}.`,
  );
  const untold = unknown
    ? paragraph(`${s.config} left ${unknown} of its ${ran} puzzles unsolved with no guess recorded (a limit, an error): whether those need guessing is not known.`)
    : '';
  if (guessing.length === 0)
    return intro + (unknown ? untold : paragraph('No puzzle needed guessing: every one was solved by deduction alone.'));
  const shown = guessing.slice(0, MAX_TABLE_ROWS);
  const table = htmlTable(
    ['puzzle', 'title', 'size', 'strategy', 'status', 'dead ends', 'decisions', 'max depth', `median ${unitOf(data, 'ms')}`],
    shown.map((k) => {
      const p = s.pairOf[k]!;
      const info = data.puzzles[k]!;
      const status = describeStatuses(run.table, rowsOf(run.groups, p));
      return [info.label, info.title, info.size, s.config, status, cellCount(de(k)), cellCount(dec(k)), cellCount(counters.max_depth[p]!), cellTime(s, p)];
    }),
    (i) => i >= 5,
  );
  const more = guessing.length > shown.length ? paragraph(`… and ${guessing.length - shown.length} more.`) : '';
  return intro + scrolling(table) + more + untold;
}

/** Whether a series gave a wrong answer on puzzle k. */
export const wrongOn = (s: Series, k: number) => s.pairOf[k]! >= 0 && s.run.verdict[s.pairOf[k]!] === WRONG;
