import { basename } from 'node:path';
import { writeOutputFile } from '../io/output-path.js';
import { describeStatuses, groupPairs, isSolvedStatus, loadRunCsv, summariseSide, type RunCsv, type SideSummary } from '../compare/compare.js';
import { ROW_STATUSES, type RowStatus, type RunColumn, type RunRecord } from '../results/row.js';
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

/** One (puzzle, strategy) pair with its repetitions. */
interface Pair {
  puzzleKey: string;
  label: string;
  strategy: string;
  rows: RunRecord[];
  side: SideSummary;
}

const distinct = (values: string[]) => [...new Set(values.filter((v) => v !== ''))];
const num = (v: string | undefined) => (v === undefined || v === '' ? null : Number(v));
const ms = (x: number) => (Number.isNaN(x) ? '-' : x >= 100 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));

function pairsOf(csv: RunCsv): Pair[] {
  return [...groupPairs(csv.records).values()].map((rows) => {
    const r = rows[0]!;
    return {
      puzzleKey: `${r.puzzle_id}\u0000${r.puzzle_path}`,
      label: r.puzzle_path || r.title || r.puzzle_id!,
      strategy: r.config!,
      rows,
      side: summariseSide(rows),
    };
  });
}

/** Median over every repetition with a time, cut-short ones included (a timeout's time is the limit). */
function anyTimeMedian(rows: RunRecord[]): number | null {
  const times = rows.map((r) => num(r.time_ms)).filter((t): t is number => t !== null).sort((a, b) => a - b);
  return times.length ? medianOfSorted(times) : null;
}

function metadata(csv: RunCsv): string {
  const col = (c: RunColumn) => distinct(csv.records.map((r) => r[c] ?? '')).join(', ') || '-';
  const reps = csv.records.map((r) => Number(r.rep)).filter(Number.isFinite);
  return htmlFacts([
    ['file', basename(csv.file)],
    ['run_id', col('run_id')],
    ['started_at', col('started_at')],
    ['version', col('nonobench_version')],
    ['git commit', col('git_commit')],
    ['node', col('node_version')],
    ['cpu', col('cpu_model')],
    ['rows', String(csv.records.length)],
    ['puzzles', String(new Set(csv.records.map((r) => `${r.puzzle_id}\u0000${r.puzzle_path}`)).size)],
    ['configurations', distinct(csv.records.map((r) => r.config!)).join(', ') || '-'],
    ['repetitions', reps.length ? String(Math.max(...reps)) : '-'],
    ['time limit (s)', col('timeout_s')],
    ['max solutions', col('max_solutions')],
  ]);
}

function strategyTable(csv: RunCsv, pairs: Pair[], strategies: string[]): string {
  const summary = new RunSummary();
  for (const r of csv.records) {
    const time = num(r.time_ms);
    const deadEnds = num(r.dead_ends);
    summary.add(r.config!, r.status as RowStatus, time ?? '', deadEnds !== null && Number.isFinite(deadEnds) ? deadEnds : '');
  }
  const rows = summary.strategies();
  const statuses = ROW_STATUSES.filter((s) => rows.some((r) => r.statuses[s]));
  const header = ['strategy', 'puzzles solved', 'tasks', ...statuses, 'median ms', 'total s', 'dead ends'];
  const body = strategies.map((name) => {
    const r = rows.find((x) => x.strategy === name)!;
    const solved = pairs.filter((p) => p.strategy === name && isSolvedStatus(p.side.status)).length;
    return [
      name,
      String(solved),
      String(r.tasks),
      ...statuses.map((s) => String(r.statuses[s] ?? 0)),
      ms(r.medianMs),
      (r.totalMs / 1000).toFixed(2),
      String(r.deadEnds),
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
function guessingSection(pairs: Pair[], strategies: string[]): string {
  const used = GUESSING_STRATEGIES.find((s) => strategies.includes(s));
  if (used === undefined)
    return paragraph('Neither the backtrack nor the probe strategy is in this run, so it does not show which puzzles need guessing.');
  const maxOf = (rows: RunRecord[], c: RunColumn) => Math.max(0, ...rows.map((r) => num(r[c])).filter((v): v is number => v !== null && Number.isFinite(v)));
  const guessing = pairs
    .filter((p) => p.strategy === used)
    .map((p) => ({ p, deadEnds: maxOf(p.rows, 'dead_ends'), decisions: maxOf(p.rows, 'decisions'), depth: maxOf(p.rows, 'max_depth') }))
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
  const size = (r: RunRecord) => (r.width && r.height ? `${r.width}×${r.height}` : '-');
  const table = htmlTable(
    ['puzzle', 'title', 'size', 'strategy', 'status', 'dead ends', 'decisions', 'max depth', 'median ms'],
    shown.map(({ p, deadEnds, decisions, depth }) => {
      const t = anyTimeMedian(p.rows);
      return [p.label, p.rows[0]!.title ?? '', size(p.rows[0]!), p.strategy, describeStatuses(p.side), String(deadEnds), String(decisions), String(depth), t === null ? '-' : ms(t)];
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

async function scatterSection(pairs: Pair[], xName: string, yName: string): Promise<string> {
  const byPuzzle = (name: string) => new Map(pairs.filter((p) => p.strategy === name).map((p) => [p.puzzleKey, p]));
  const xs = byPuzzle(xName);
  const ys = byPuzzle(yName);
  const points: PairPoint[] = [];
  let untimed = 0;
  const why = new Set<string>();
  for (const [key, px] of xs) {
    const py = ys.get(key);
    if (!py) continue;
    const x = anyTimeMedian(px.rows);
    const y = anyTimeMedian(py.rows);
    if (x === null || y === null) {
      untimed++;
      for (const side of [x === null ? px : null, y === null ? py : null])
        for (const r of side?.rows ?? []) why.add(untimedReason(r.status ?? ''));
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
export async function buildReport(csv: RunCsv, options: ReportOptions = {}): Promise<string> {
  const pairs = pairsOf(csv);
  const strategies = distinct(csv.records.map((r) => r.config!));
  for (const [flag, name] of [['--x', options.x], ['--y', options.y]] as const)
    if (name !== undefined && !strategies.includes(name))
      throw new UsageError(`${flag} ${name}: no such strategy in ${csv.file} (it has ${strategies.join(', ') || 'none'})`);
  const xName = options.x ?? strategies.find((s) => s !== options.y);
  const yName = options.y ?? strategies.find((s) => s !== xName);
  if (xName !== undefined && xName === yName) throw new Error('--x and --y must name two different strategies');

  const runIds = distinct(csv.records.map((r) => r.run_id ?? ''));
  const title = `nonobench report${runIds.length === 1 ? ` ${runIds[0]}` : ''}`;
  const sections = [
    `<h1>${escapeHtml(title)}</h1>`,
    metadata(csv),
    '<h2>Puzzles solved against time</h2>',
    strategies.length ? await cactusSection(pairs, strategies) : paragraph('The CSV has no rows.'),
    '<h2>Per-puzzle times of two strategies</h2>',
    xName !== undefined && yName !== undefined
      ? await scatterSection(pairs, xName, yName)
      : paragraph('The run has fewer than two strategies, so there is nothing to plot against each other.'),
    '<h2>Per strategy</h2>',
    strategies.length ? strategyTable(csv, pairs, strategies) : paragraph('The CSV has no rows.'),
    '<h2>Puzzles that need guessing</h2>',
    guessingSection(pairs, strategies),
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
  const html = await buildReport(loadRunCsv(csvPath, REPORT_COLUMNS), options);
  writeOutputFile(out, html);
  return out;
}
