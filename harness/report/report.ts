import { basename } from 'node:path';
import { writeOutputFile } from '../io/output-path.js';
import { describeStatuses, isSolvedStatus, summariseRows, type SideSummary } from '../compare/compare.js';
import { distinctValues, groupPairs, heldRows, rowsOf, type PairGroups } from '../compare/pairs.js';
import { asTable, loadRunTable, type RunCsv, type RunTable } from '../compare/table.js';
import { ROW_STATUSES, type RowStatus, type RunColumn } from '../results/row.js';
import { cactusSpec, renderSvg, scatterOutcome, scatterSpec, type PairPoint, type SolvedPoint } from './charts.js';
import { escapeHtml, htmlFacts, htmlTable, paragraph, REPORT_CSS } from './html.js';
import { medianOfSorted } from '../results/median.js';
import { RunSummary } from '../results/summary.js';
import { UsageError } from '../io/thrown.js';

/** Columns the report reads; the metadata columns are shown when present. */
export const REPORT_COLUMNS: readonly RunColumn[] = ['puzzle_id', 'puzzle_path', 'strategy', 'status', 'time_ms', 'dead_ends', 'decisions'];

/** Search strategies whose decisions tell which puzzles need guessing, the preferred first. */
export const GUESSING_STRATEGIES = ['probe', 'backtrack'];

/** Longest guessing table written in full. */
const GUESSING_ROWS = 1000;

export interface ReportOptions {
  /** Strategies on the scatter plot's axes (default: the first two in the CSV). */
  x?: string;
  y?: string;
}

/** One (puzzle, strategy) pair with its repetitions (rows of the table). */
interface Pair {
  puzzleKey: string;
  label: string;
  strategy: string;
  rows: Uint32Array;
  side: SideSummary;
}

const ms = (x: number) => (Number.isNaN(x) ? '-' : x >= 100 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));

function pairsOf(g: PairGroups): Pair[] {
  const t = g.table;
  const pairs: Pair[] = [];
  for (let p = 0; p < g.count; p++) {
    const rows = rowsOf(g, p);
    const r = rows[0]!;
    const id = t.str('puzzle_id', r);
    const path = t.str('puzzle_path', r);
    pairs.push({ puzzleKey: `${id}\u0000${path}`, label: path || t.str('title', r) || id, strategy: t.str('config', r), rows, side: summariseRows(t, rows) });
  }
  return pairs;
}

/** Median over every repetition with a time, cut-short ones included (a timeout's time is the limit). */
function anyTimeMedian(t: RunTable, rows: Uint32Array): number | null {
  const time = t.num('time_ms');
  const times: number[] = [];
  if (time) for (const i of rows) if (!Number.isNaN(time[i]!)) times.push(time[i]!);
  return times.length ? medianOfSorted(Float64Array.from(times).sort()) : null;
}

/** The largest value of a number column over some rows (0 when none has one). */
function largest(t: RunTable, rows: ArrayLike<number>, column: RunColumn): number {
  const values = t.num(column);
  let max = 0;
  if (values) for (let k = 0; k < rows.length; k++) if (values[rows[k]!]! > max) max = values[rows[k]!]!;
  return max;
}

function metadata(g: PairGroups, pairs: Pair[], strategies: string[]): string {
  const t = g.table;
  const held = heldRows(g);
  const col = (c: RunColumn) => distinctValues(g, c, held).join(', ') || '-';
  const reps = largest(t, g.order, 'rep');
  return htmlFacts([
    ['file', basename(t.file)],
    ['run_id', col('run_id')],
    ['started_at', col('started_at')],
    ['version', col('nonobench_version')],
    ['git commit', col('git_commit')],
    ['node', col('node_version')],
    ['cpu', col('cpu_model')],
    ['rows', String(t.size)],
    ['puzzles', String(new Set(pairs.map((p) => p.puzzleKey)).size)],
    ['configurations', strategies.join(', ') || '-'],
    ['repetitions', t.num('rep') && reps > 0 ? String(reps) : '-'],
    ['time limit (s)', col('timeout_s')],
    ['max solutions', col('max_solutions')],
  ]);
}

function strategyTable(g: PairGroups, pairs: Pair[], strategies: string[]): string {
  const t = g.table;
  const summary = new RunSummary();
  const status = t.text('status')!;
  const config = t.text('config')!;
  const time = t.num('time_ms');
  const deadEnds = t.num('dead_ends');
  for (const i of g.order) {
    const tm = time?.[i] ?? NaN;
    const de = deadEnds?.[i] ?? NaN;
    summary.add(config.get(i), status.get(i) as RowStatus, Number.isNaN(tm) ? '' : tm, Number.isNaN(de) ? '' : de);
  }
  const rows = summary.strategies();
  const statuses = ROW_STATUSES.filter((s) => rows.some((r) => r.statuses[s]));
  const header = ['strategy', 'puzzles solved', 'tasks', ...statuses, 'median ms', 'total s', 'dead ends'];
  const solvedBy = new Map<string, number>();
  for (const p of pairs) if (isSolvedStatus(p.side.status)) solvedBy.set(p.strategy, (solvedBy.get(p.strategy) ?? 0) + 1);
  const body = strategies.map((name) => {
    const r = rows.find((x) => x.strategy === name)!;
    return [
      name,
      String(solvedBy.get(name) ?? 0),
      String(r.tasks),
      ...statuses.map((s) => String(r.statuses[s] ?? 0)),
      ms(r.medianMs),
      (r.totalMs / 1000).toFixed(2),
      r.deadEnds === null ? '-' : String(r.deadEnds),
    ];
  });
  const note = paragraph(
    'Status columns count tasks (one per puzzle and repetition); puzzles solved counts the puzzles solved in every repetition. ' +
      'Median and total are over the tasks with a time; dead ends are summed over all tasks.',
  );
  return htmlTable(header, body) + note;
}

/**
 * The puzzles a search strategy had to guess on (decisions > 0; dead ends alone may be contradictions
 * found by probing). probe's rows are preferred: it guesses only where line logic and probing stop,
 * so its list is classify's needs-guessing; backtrack's also holds puzzles that probing would finish.
 */
function guessingSection(t: RunTable, pairs: Pair[], strategies: string[]): string {
  const used = GUESSING_STRATEGIES.find((s) => strategies.includes(s));
  if (used === undefined)
    return paragraph('Neither the backtrack nor the probe strategy is in this run, so it does not show which puzzles need guessing.');
  const guessing = pairs
    .filter((p) => p.strategy === used)
    .map((p) => ({ p, deadEnds: largest(t, p.rows, 'dead_ends'), decisions: largest(t, p.rows, 'decisions'), depth: largest(t, p.rows, 'max_depth') }))
    .filter((g) => g.decisions > 0)
    .sort((a, b) => b.deadEnds - a.deadEnds || b.decisions - a.decisions || a.p.label.localeCompare(b.p.label));
  const intro = paragraph(
    (used === 'probe'
      ? 'Rows of probe that made decisions (guesses): line logic and contradiction probing did not finish these puzzles. '
      : 'Rows of backtrack that made decisions (guesses): line logic alone did not finish these puzzles (probing may finish some; run probe or classify to tell). ') +
      'Most dead ends first; counters are the largest over the repetitions.',
  );
  if (guessing.length === 0) return intro + paragraph('No puzzle needed guessing: every one was solved by deduction alone.');
  const shown = guessing.slice(0, GUESSING_ROWS);
  const size = (r: number) => (t.str('width', r) && t.str('height', r) ? `${t.str('width', r)}×${t.str('height', r)}` : '-');
  const table = htmlTable(
    ['puzzle', 'title', 'size', 'strategy', 'status', 'dead ends', 'decisions', 'max depth', 'median ms'],
    shown.map(({ p, deadEnds, decisions, depth }) => {
      const median = anyTimeMedian(t, p.rows);
      const first = p.rows[0]!;
      return [p.label, t.str('title', first), size(first), p.strategy, describeStatuses(p.side), String(deadEnds), String(decisions), String(depth), median === null ? '-' : ms(median)];
    }),
    (i) => i >= 5,
  );
  const more = guessing.length > shown.length ? paragraph(`… and ${guessing.length - shown.length} more.`) : '';
  return intro + table + more;
}

async function cactusSection(pairs: Pair[], strategies: string[]): Promise<string> {
  const points: SolvedPoint[] = pairs
    .filter((p) => isSolvedStatus(p.side.status) && p.side.medianMs !== null)
    .map((p) => ({ strategy: p.strategy, timeMs: p.side.medianMs! }));
  // An empty chart would have no scale to draw (its axes read "NaN to NaN").
  if (points.length === 0) return paragraph('No strategy solved any puzzle, so there is nothing to plot.');
  const svg = await renderSvg(cactusSpec(points, strategies));
  return figure(svg, 'Puzzles solved (unique, multiple or solved in every repetition) within a given time per puzzle, one line per strategy; the time of a puzzle is the median over its repetitions. Further right and lower is slower; higher is more solved.');
}

/** Why a row has no time: a timeout without one was stopped at the hard limit. */
const untimedReason = (status: string) => (status === 'timeout' ? 'hard timeout' : status || 'no status');

async function scatterSection(t: RunTable, pairs: Pair[], xName: string, yName: string): Promise<string> {
  const byPuzzle = (name: string) => new Map(pairs.filter((p) => p.strategy === name).map((p) => [p.puzzleKey, p]));
  const xs = byPuzzle(xName);
  const ys = byPuzzle(yName);
  const points: PairPoint[] = [];
  let untimed = 0;
  const why = new Set<string>();
  for (const [key, px] of xs) {
    const py = ys.get(key);
    if (!py) continue;
    const x = anyTimeMedian(t, px.rows);
    const y = anyTimeMedian(t, py.rows);
    if (x === null || y === null) {
      untimed++;
      for (const side of [x === null ? px : null, y === null ? py : null])
        for (const r of side?.rows ?? []) why.add(untimedReason(t.str('status', r)));
      continue;
    }
    points.push({ x, y, outcome: scatterOutcome(isSolvedStatus(px.side.status), isSolvedStatus(py.side.status), xName, yName) });
  }
  const skipped = untimed ? ` ${untimed} puzzle(s) without a time on one side (${[...why].sort().join(', ')}) are left out.` : '';
  if (points.length === 0) return paragraph(`No puzzle has a time for both ${xName} and ${yName}, so there is nothing to plot.${skipped}`);
  const svg = await renderSvg(scatterSpec(points, xName, yName));
  return figure(
    svg,
    `Median time per puzzle, ${xName} across, ${yName} up, both on log scales. Points above the dashed diagonal are slower with ${yName}; a timed-out solve sits at the time limit.${skipped}`,
  );
}

const figure = (svg: string, caption: string) => `<figure>${svg}<figcaption>${escapeHtml(caption)}</figcaption></figure>`;

/** The whole report page: self-contained, no scripts, nothing fetched. */
export async function buildReport(csv: RunCsv | RunTable, options: ReportOptions = {}): Promise<string> {
  const groups = groupPairs(asTable(csv));
  const t = groups.table;
  const pairs = pairsOf(groups);
  const strategies = distinctValues(groups, 'config');
  for (const [flag, name] of [['--x', options.x], ['--y', options.y]] as const)
    if (name !== undefined && !strategies.includes(name))
      throw new UsageError(`${flag} ${name}: no such strategy in ${t.file} (it has ${strategies.join(', ') || 'none'})`);
  const xName = options.x ?? strategies.find((s) => s !== options.y);
  const yName = options.y ?? strategies.find((s) => s !== xName);
  if (xName !== undefined && xName === yName) throw new Error('--x and --y must name two different strategies');

  const runIds = distinctValues(groups, 'run_id');
  const title = `nonobench report${runIds.length === 1 ? ` ${runIds[0]}` : ''}`;
  const sections = [
    `<h1>${escapeHtml(title)}</h1>`,
    metadata(groups, pairs, strategies),
    '<h2>Puzzles solved against time</h2>',
    strategies.length ? await cactusSection(pairs, strategies) : paragraph('The CSV has no rows.'),
    '<h2>Per-puzzle times of two strategies</h2>',
    xName !== undefined && yName !== undefined
      ? await scatterSection(t, pairs, xName, yName)
      : paragraph('The run has fewer than two strategies, so there is nothing to plot against each other.'),
    '<h2>Per strategy</h2>',
    strategies.length ? strategyTable(groups, pairs, strategies) : paragraph('The CSV has no rows.'),
    '<h2>Puzzles that need guessing</h2>',
    guessingSection(t, pairs, strategies),
  ];
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    // Nothing may be fetched: the page must look the same offline.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    '</head>',
    '<body>',
    ...sections,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** `runs/x.csv` → `runs/x.html`. */
export const defaultReportPath = (csvPath: string) => csvPath.replace(/(\.csv)?$/i, '.html');

export async function writeReport(csvPath: string, out = defaultReportPath(csvPath), options: ReportOptions = {}): Promise<string> {
  const html = await buildReport(loadRunTable(csvPath, REPORT_COLUMNS), options);
  writeOutputFile(out, html);
  return out;
}
