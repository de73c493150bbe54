import { basename, dirname, join } from 'node:path';
import { distinctValues, heldRows, rowsOf } from '../compare/pairs.js';
import { asTable, loadRunTable, type RunCsv, type RunTable } from '../compare/table.js';
import type { TimeChoice } from '../compare/time-basis.js';
import { writeOutputFile } from '../io/output-path.js';
import { oneLine, UsageError } from '../io/thrown.js';
import type { RunColumn } from '../results/row.js';
import { figure as fmt } from '../results/scores.js';
import { cactusSpec, DASHES, OKABE_ITO, renderSvg, scatterOutcome, scatterSpec, type CactusSeries, type ScatterPoint } from './charts.js';
import { describeStatuses, reportData, SOLVED, UNSOLVED, type ReportData, type RunData, type Series } from './data.js';
import { escapeHtml, htmlFacts, paragraph, htmlPage } from './html.js';
import { configurationTable, guessingSection, overlayTable, puzzleTable, unitOf } from './tables.js';

export { GUESSING_STRATEGIES } from './tables.js';

/** Columns the report needs; the others it shows (cpu_ms, timeout_s, width, …) are read when present. */
export const REPORT_COLUMNS: readonly RunColumn[] = ['puzzle_id', 'puzzle_path', 'strategy', 'status', 'time_ms', 'dead_ends', 'decisions'];

export interface ReportOptions {
  /** Configurations on the scatter plot's axes (default: the first two); one run only. */
  x?: string;
  y?: string;
  /** Which time to show: CPU time when every answered row has it (auto, the default), cpu or wall. */
  time?: TimeChoice;
}

const BASIS_TEXT = { cpu: 'CPU time (cpu_ms)', wall: 'wall time (time_ms)' } as const;

function metadata(run: RunData, data: ReportData): string {
  const g = run.groups;
  const t = run.table;
  const held = heldRows(g);
  const col = (c: RunColumn) => distinctValues(g, c, held).join(', ') || '-';
  const rep = t.num('rep');
  let reps = 0;
  if (rep) for (const i of g.rows) if (rep[i]! > reps) reps = rep[i]!;
  const facts: [string, string][] = [
    ['file', basename(t.file)],
    ['run_id', col('run_id')],
    ['started_at', col('started_at')],
    ['version', col('nonobench_version')],
    ['git commit', col('git_commit')],
    ['node', col('node_version')],
    ['cpu', col('cpu_model')],
    ['rows', String(t.size)],
    ['puzzles', String(new Set(run.puzzle).size)],
    ['configurations', distinctValues(g, 'config', held).join(', ') || '-'],
    ['repetitions', reps > 0 ? String(reps) : '-'],
    ['time limit (s)', col('timeout_s')],
    ['max solutions', col('max_solutions')],
    ['time shown', BASIS_TEXT[data.basis] + (data.basisNote ? ` (${data.basisNote})` : '')],
  ];
  if (g.duplicates) facts.push(['repeated rows left out', String(g.duplicates)]);
  return (run.label ? `<h3>${escapeHtml(run.label.toUpperCase())}: ${escapeHtml(basename(t.file))}</h3>` : '') + htmlFacts(facts);
}

/** The largest time limit of any pair, in ms (null when no row records one). */
function limitMs(data: ReportData): number | null {
  let max = NaN;
  for (const run of data.runs) for (const l of run.limitS) if (l > 0 && !(l <= max)) max = l;
  return Number.isNaN(max) ? null : max * 1000;
}

const figureOf = (svg: string, caption: string) => `<figure>${svg}<figcaption>${escapeHtml(caption)}</figcaption></figure>`;

/** The cactus plot's lines: each series' solved puzzles' times; a configuration's colour in both runs, a dash of its own per series. */
export function cactusSeries(data: ReportData): CactusSeries[] {
  return data.series.map((s, i) => {
    const times: number[] = [];
    for (const p of s.pairOf) if (p >= 0 && s.run.verdict[p] === SOLVED && !Number.isNaN(s.run.timeMs[p]!)) times.push(s.run.timeMs[p]!);
    return { name: s.name, colour: OKABE_ITO[s.configIndex % OKABE_ITO.length]!, dash: DASHES[i % DASHES.length]!, times };
  });
}

async function cactusSection(data: ReportData): Promise<string> {
  const series = cactusSeries(data);
  // An empty chart would have no scale to draw (its axes read "NaN to NaN").
  if (series.every((s) => s.times.length === 0)) return paragraph('No configuration solved any puzzle, so there is nothing to plot.');
  const limit = limitMs(data);
  const svg = await renderSvg(cactusSpec(series, limit, `${unitOf(data, 'ms')} per puzzle (log scale)`));
  return figureOf(
    svg,
    `Puzzles solved (an answer in every repetition) within a given ${data.basis} time per puzzle, one line per ${data.runs.length > 1 ? 'configuration and run (a configuration keeps its colour in both runs)' : 'configuration'}; ` +
      `a puzzle's time is the median over its repetitions. Unsolved puzzles are not drawn. Further right is slower; higher is more solved.` +
      (limit !== null ? ' The dashed line is the time limit.' : ''),
  );
}

/** A side's hover text: its median time when solved, else its statuses. */
function sideText(s: Series, p: number): string {
  return s.run.verdict[p] === SOLVED ? `${fmt(s.run.timeMs[p]!)} ms` : describeStatuses(s.run.table, rowsOf(s.run.groups, p));
}

/** The points of puzzles both series ran: solved sides at their times, unsolved ones at `cap`. */
function scatterPoints(data: ReportData, x: Series, y: Series, xName: string, yName: string, cap: number): { points: ScatterPoint[]; untimed: number } {
  const points: ScatterPoint[] = [];
  let untimed = 0;
  for (let k = 0; k < data.puzzles.length; k++) {
    const [px, py] = [x.pairOf[k]!, y.pairOf[k]!];
    if (px < 0 || py < 0) continue;
    const [vx, vy] = [x.run.verdict[px]!, y.run.verdict[py]!];
    const tx = vx === SOLVED ? x.run.timeMs[px]! : cap;
    const ty = vy === SOLVED ? y.run.timeMs[py]! : cap;
    if (Number.isNaN(tx) || Number.isNaN(ty)) {
      untimed++;
      continue;
    }
    const wrong = vx > UNSOLVED || vy > UNSOLVED;
    const label = oneLine(`${data.puzzles[k]!.label} — ${xName}: ${sideText(x, px)}; ${yName}: ${sideText(y, py)}`);
    points.push({ x: tx, y: ty, outcome: scatterOutcome(vx === SOLVED, vy === SOLVED, wrong, xName, yName), label });
  }
  return { points, untimed };
}

/** Where unsolved points go: the time limit, or without one a line beyond every solved time. */
function capOf(data: ReportData): { cap: number; label: string; text: string } {
  const limit = limitMs(data);
  if (limit !== null) return { cap: limit, label: 'time limit', text: `the time limit (${limit / 1000} s)` };
  let max = 1;
  for (const run of data.runs) run.timeMs.forEach((t, p) => (run.verdict[p] === SOLVED && t > max ? (max = t) : 0));
  return { cap: 2 * max, label: 'unsolved (no time limit)', text: 'twice the largest solved time (the runs record no time limit)' };
}

async function scatterSection(data: ReportData, options: ReportOptions): Promise<string> {
  const { cap, label, text } = capOf(data);
  const untimedNote = (n: number) => (n ? ` ${n} solved puzzle(s) without a time are left out.` : '');
  const legend =
    `Unsolved sides (no answer in some repetition: stuck, a limit, an error) sit on the dashed lines at ${text}, so a puzzle only one side solves lies on the other's line; ` +
    'wrong answers are marked apart. Hover a point for its puzzle.';
  if (data.runs.length === 1) {
    const configs = data.configs;
    for (const [flag, name] of [['--x', options.x], ['--y', options.y]] as const)
      if (name !== undefined && !configs.includes(name))
        throw new UsageError(`${flag} ${name}: no such configuration in ${data.runs[0]!.table.file} (it has ${configs.join(', ') || 'none'})`);
    const xName = options.x ?? configs.find((c) => c !== options.y);
    const yName = options.y ?? configs.find((c) => c !== xName);
    if (xName === undefined || yName === undefined) return paragraph('The run has fewer than two configurations, so there is nothing to plot against each other.');
    if (xName === yName) throw new UsageError('--x and --y must name two different configurations');
    const [x, y] = [data.series.find((s) => s.config === xName)!, data.series.find((s) => s.config === yName)!];
    const { points, untimed } = scatterPoints(data, x, y, xName, yName, cap);
    if (points.length === 0) return paragraph(`No puzzle was run by both ${xName} and ${yName}, so there is nothing to plot.${untimedNote(untimed)}`);
    const svg = await renderSvg(scatterSpec(points, xName, yName, { ms: cap, label }, unitOf(data, 'ms')));
    return figureOf(
      svg,
      `Median ${data.basis} time per puzzle, ${xName} across, ${yName} up, both on log scales. Points above the dashed diagonal are slower with ${yName}. ${legend}${untimedNote(untimed)}`,
    );
  }
  if (options.x !== undefined || options.y !== undefined) throw new UsageError('--x and --y choose two configurations of one run; with two runs each configuration is plotted BASE against NEW');
  const panels: string[] = [];
  for (const config of data.configs) {
    const [b, n] = [data.series.find((s) => s.config === config && s.run === data.runs[0]), data.series.find((s) => s.config === config && s.run === data.runs[1])];
    if (!b || !n) continue;
    const { points, untimed } = scatterPoints(data, b, n, 'base', 'new', cap);
    if (points.length === 0) continue;
    const svg = await renderSvg({ ...scatterSpec(points, 'base', 'new', { ms: cap, label }, unitOf(data, 'ms'), 300), title: config });
    panels.push(figureOf(svg, `${config}: ${points.length} puzzles.${untimedNote(untimed)}`));
  }
  if (panels.length === 0) return paragraph('No configuration ran a puzzle in both runs, so there is nothing to plot.');
  return (
    paragraph(
      `One plot per configuration in both runs: each point a puzzle, its median ${data.basis} time in BASE across and in NEW up, on log scales. ` +
        `Below the dashed diagonal NEW is faster, above it slower. ${legend}`,
    ) + `<div class="panels">${panels.join('\n')}</div>`
  );
}

function readingGuide(data: ReportData): string {
  return paragraph(
    'Solved means an answer in every repetition: unique, multiple, solved, or contradiction (a proof that the puzzle has no solution); wrong and error never count. ' +
      `Times are ${BASIS_TEXT[data.basis]}${data.basisNote ? ` (${data.basisNote})` : ''}, and a puzzle's time and counters are medians over its repetitions. ` +
      'Median and total are over solved puzzles only, so a configuration that gives up early does not look fast; ' +
      'PAR-2 (as in the SAT competitions) adds each solved puzzle\'s time and twice the time limit for each unsolved one, in seconds (- when a run has no time limit). ' +
      'Status columns count tasks (one per puzzle and repetition); dead ends are summed over the solved puzzles.',
  );
}

const inputs = (csv: RunCsv | RunTable | readonly (RunCsv | RunTable)[]) => (Array.isArray(csv) ? csv : [csv]) as (RunCsv | RunTable)[];

/** The whole report page, of one run or of BASE and NEW overlaid: self-contained, no scripts, nothing fetched. */
export async function buildReport(csv: RunCsv | RunTable | readonly (RunCsv | RunTable)[], options: ReportOptions = {}): Promise<string> {
  const tables = inputs(csv).map(asTable);
  if (tables.length < 1 || tables.length > 2) throw new Error('a report shows one run or two');
  const data = reportData(tables, options.time ?? 'auto');
  const two = data.runs.length > 1;
  const runIds = distinctValues(data.runs[0]!.groups, 'run_id');
  const title = two ? `nonobench report: ${basename(tables[1]!.file)} against ${basename(tables[0]!.file)}` : `nonobench report${runIds.length === 1 ? ` ${runIds[0]}` : ''}`;
  const none = paragraph('The CSV has no rows.');
  const sections = [
    `<h1>${escapeHtml(title)}</h1>`,
    ...data.runs.map((r) => metadata(r, data)),
    '<h2>Per configuration</h2>',
    readingGuide(data),
    data.series.length ? configurationTable(data) : none,
    ...(two ? ['<h2>NEW against BASE</h2>', overlayTable(data)] : []),
    '<h2>Puzzles solved against time</h2>',
    data.series.length ? await cactusSection(data) : none,
    two ? '<h2>Per-puzzle times, BASE against NEW</h2>' : '<h2>Per-puzzle times of two configurations</h2>',
    await scatterSection(data, options),
    '<h2>Per puzzle</h2>',
    data.series.length ? puzzleTable(data) : none,
    '<h2>Puzzles that need guessing</h2>',
    guessingSection(data),
  ];
  return htmlPage(title, sections);
}

/** `runs/x.csv` → `runs/x.html`; for two runs, beside NEW: `runs/new-vs-base.html`. */
export function defaultReportPath(csvPath: string | readonly string[]): string {
  const paths = typeof csvPath === 'string' ? [csvPath] : csvPath;
  const stem = (p: string) => basename(p).replace(/\.csv$/i, '');
  if (paths.length === 2) return join(dirname(paths[1]!), `${stem(paths[1]!)}-vs-${stem(paths[0]!)}.html`);
  return paths[0]!.replace(/(\.csv)?$/i, '.html');
}

/** Reads one run CSV (or BASE and NEW) in chunks and writes the page; its path. */
export async function writeReport(csvPath: string | readonly string[], out = defaultReportPath(csvPath), options: ReportOptions = {}): Promise<string> {
  const paths = typeof csvPath === 'string' ? [csvPath] : csvPath;
  const html = await buildReport(
    paths.map((p) => loadRunTable(p, REPORT_COLUMNS)),
    options,
  );
  writeOutputFile(out, html);
  return out;
}
