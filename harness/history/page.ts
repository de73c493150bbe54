import type { TopLevelSpec } from 'vega-lite';
import { TIME_FLOOR_MS } from '../compare/stats.js';
import { DASHES, DOMAIN_OF_COLOR, OKABE_ITO, renderSvg } from '../report/charts.js';
import { escapeHtml, htmlFacts, htmlTable, paragraph, htmlPage } from '../report/html.js';
import { writeOutputFile } from '../io/output-path.js';
import type { Collection } from './collect.js';
import { basisColumn, buildHistory, collect, METRICS, stepLine, type History, type HistoryOptions, type HistoryStep, type Metric } from './history.js';
import type { Level } from './model.js';

/** The history page: one chart per metric (lines per configuration across commits), the steps, and the figures. */

/** Point shapes, so that lines differ without colour (the report's palette and dashes do the rest). */
const SHAPES = ['circle', 'square', 'triangle-up', 'diamond', 'cross', 'triangle-down', 'triangle-right', 'triangle-left'];

/** The i-th of a list cycled; shapes shift each round of colours, so pairs stay distinct past eight lines. */
const pick = <T>(list: readonly T[], i: number, shift = 0): T => list[(i + shift * Math.floor(i / list.length)) % list.length]!;

const METRIC_TITLE: Record<Metric, (h: History) => string> = {
  time: (h) => `geometric mean ${h.basis === 'cpu' ? 'CPU' : 'wall'} time per puzzle (ms, log scale)`,
  solved: () => 'puzzles solved per repetition',
  'dead ends': () => 'dead ends (total over puzzles)',
};

const METRIC_CAPTION: Record<Metric, string> = {
  time:
    "Geometric mean over the puzzles of each puzzle's median time over its repetitions, counting a puzzle at a commit only when every repetition there solved it. Bars: 95% bootstrap intervals over repetitions.",
  solved: 'Puzzles solved (unique, multiple, solved or contradiction) per repetition, on average. Bars: 95% bootstrap intervals over repetitions.',
  'dead ends': "Sum over the puzzles of each puzzle's median dead ends over its repetitions. Bars: 95% bootstrap intervals over repetitions.",
};

/** A number as shown: three significant digits for small values, whole numbers from 1000. */
export function shown(x: number): string {
  if (Number.isNaN(x)) return '-';
  if (Math.abs(x) >= 1000) return String(Math.round(x));
  return String(Number(x.toPrecision(3)));
}

const range = (l: Level) => `${shown(l.lo)}–${shown(l.hi)}`;

function hover(config: string, commit: string, metric: Metric, l: Level): string {
  const unit = metric === 'time' ? ' ms' : '';
  const over = l.over > l.puzzles ? `; level over the ${l.over} puzzles of the history` : '';
  return `${config} at ${commit}: ${metric} ${shown(l.value)}${unit} (95% interval ${range(l)}${unit}), ${l.puzzles} puzzle${l.puzzles === 1 ? '' : 's'}${over}`;
}

/** A metric's trend chart: a line per configuration across the commits, bars for the ranges, the steps ringed and labelled. */
export function trendSpec(h: History, metric: Metric): TopLevelSpec | null {
  const labels = h.commits.map((c) => c.label);
  const configs = h.configs.map((c) => c.config);
  const floor = (x: number) => (metric === 'time' ? Math.max(TIME_FLOOR_MS, x) : x);
  const values = h.configs.flatMap(({ config, levels }) =>
    levels[metric].flatMap((l, k) =>
      Number.isNaN(l.value) ? [] : [{ commit: labels[k]!, config, value: floor(l.value), lo: floor(l.lo), hi: floor(l.hi), hover: hover(config, labels[k]!, metric, l) }],
    ),
  );
  if (values.length === 0) return null;
  const at = new Map(values.map((v) => [`${v.config}\u0000${v.commit}`, v.value]));
  const steps = h.steps
    .filter((s) => s.metric === metric)
    .map((s) => ({ commit: s.at, config: s.config, value: at.get(`${s.config}\u0000${s.at}`)!, label: stepLabel(s), hover: `step: ${stepLine(s)}` }));
  const x = { field: 'commit', type: 'ordinal' as const, title: 'commit (oldest left)', scale: { domain: labels }, axis: { labelAngle: -45, labelLimit: 220, labelOverlap: 'greedy' as const } };
  const y = { field: 'value', type: 'quantitative' as const, title: METRIC_TITLE[metric](h), scale: metric === 'time' ? { type: 'log' as const } : { zero: false } };
  const byConfig = (range: unknown[]) => ({ field: 'config', type: 'nominal' as const, title: 'configuration', scale: { domain: configs, range } });
  const color = { ...byConfig(configs.map((_c, i) => pick(OKABE_ITO, i))), legend: { values: DOMAIN_OF_COLOR } };
  return {
    width: Math.max(480, Math.min(1000, 28 * labels.length)),
    height: 300,
    data: { values },
    layer: [
      { mark: { type: 'rule', strokeWidth: 1.5, opacity: 0.7 }, encoding: { x, y: { ...y, field: 'lo' }, y2: { field: 'hi' }, color } },
      { mark: { type: 'line', strokeWidth: 1.5 }, encoding: { x, y, color, strokeDash: byConfig(configs.map((_c, i) => pick(DASHES, i))) } },
      {
        mark: { type: 'point', filled: true, size: 60, opacity: 1 },
        encoding: { x, y, color, shape: byConfig(configs.map((_c, i) => pick(SHAPES, i, 1))), description: { field: 'hover' } },
      },
      ...(steps.length === 0
        ? []
        : [
            { data: { values: steps }, mark: { type: 'point' as const, shape: 'circle', size: 400, filled: false, strokeWidth: 2 }, encoding: { x, y, color, description: { field: 'hover' } } },
            { data: { values: steps }, mark: { type: 'text' as const, dy: -18, fontWeight: 'bold' as const }, encoding: { x, y, color, text: { field: 'label' } } },
          ]),
    ],
  } as TopLevelSpec;
}

/** The short label drawn at a step: `+27%`. */
function stepLabel(s: HistoryStep): string {
  if (s.from === 0) return 'from 0';
  const pct = Math.round((s.to / s.from - 1) * 100);
  return `${pct > 0 ? '+' : ''}${pct}%`;
}

function figuresTable(h: History): string {
  const stepAt = new Map<string, string[]>();
  for (const s of h.steps) {
    const key = `${s.config}\u0000${s.at}`;
    stepAt.set(key, [...(stepAt.get(key) ?? []), `${s.metric} ${stepLabel(s)}`]);
  }
  const body: string[][] = [];
  for (const { config, levels, puzzlesRun } of h.configs)
    h.commits.forEach((commit, k) => {
      if (puzzlesRun[k] === 0) return;
      const cell = (l: Level) => (Number.isNaN(l.value) ? '-' : `${shown(l.value)} (${range(l)})`);
      const t = levels.time[k]!;
      body.push([
        config,
        commit.label,
        String(commit.runs.size),
        String(puzzlesRun[k]),
        cell(t),
        String(t.puzzles),
        cell(levels.solved[k]!),
        cell(levels['dead ends'][k]!),
        (stepAt.get(`${config}\u0000${commit.label}`) ?? []).join(', '),
      ]);
    });
  const timeHead = `time ms (${basisColumn(h.basis)})`;
  return htmlTable(['configuration', 'commit', 'runs', 'puzzles run', timeHead, 'puzzles timed', 'solved', 'dead ends', 'step'], body, (i) => i >= 2 && i <= 7);
}

const METHOD = [
  'Each point is one configuration at one commit, the repetitions of every run of that commit pooled. A commit marked -dirty had uncommitted changes and is a point of its own, after its commit.',
  'Puzzles added or removed between commits do not move the lines: each puzzle\'s value at a commit is modelled as a puzzle factor × a commit factor, fitted over every puzzle and commit of the configuration (least squares on log times; a Poisson model for the counts), and a point is the model\'s value over all the puzzles of the history at that commit (geometric mean of times, total of counts). With the same puzzles at every commit this is exactly their plain geometric mean or total; otherwise only puzzles seen at two commits tell how those commits differ. Commits sharing no puzzle, even through others, cannot be compared: their levels are not compared for steps.',
  'The bars are 95% bootstrap intervals over repetitions: each puzzle\'s repetitions at the commit are resampled and the point computed again, 200 times (with a fixed seed, so the page is the same each time it is made). They show what repetition noise leaves uncertain, and narrow as puzzles are added; with one repetition per puzzle they are nil. Noise shared by a whole run (a busy machine) is not in them.',
];

function stepsMethod(h: History): string {
  const pct = `${Number((h.threshold * 100).toPrecision(10))}%`;
  return (
    'Step changes (ringed): each series is split into constant pieces by optimal segmentation (least squares on log values, log(1 + x) for counts, with a penalty of 2·ln(n)·σ² per piece, σ the noise of the series from its successive differences and at least a quarter of the threshold; a piece of one commit only at either end). ' +
    `A step is kept only when the pieces on its two sides differ by more than ${pct}, their intervals do not overlap, and the difference is at least 3 standard errors of the series' own noise (judged from 7 commits on); a step failing that is merged away.`
  );
}

/** The whole page: self-contained, no scripts, nothing fetched. */
export async function buildHistoryPage(h: History): Promise<string> {
  const first = h.commits[0]?.label ?? '-';
  const last = h.commits[h.commits.length - 1]?.label ?? '-';
  const basis = `${h.basis === 'cpu' ? 'CPU time (cpu_ms)' : 'wall time (time_ms)'}${h.basisNote ? ` — ${h.basisNote}` : ''}`;
  const sections = [
    '<h1>nonobench history</h1>',
    htmlFacts([
      ['commits', `${h.commits.length}, from ${first} to ${last}`],
      ['order', h.order],
      ['configurations', h.configs.map((c) => c.config).join(', ') || '-'],
      ['time', basis],
      ['files read', String(h.files)],
      ['rows', `${h.rows}${h.duplicates ? ` (${h.duplicates} duplicate rows dropped)` : ''}`],
      ['step threshold', `${Number((h.threshold * 100).toPrecision(10))}%`],
    ]),
    ...METHOD.map(paragraph),
    paragraph(stepsMethod(h)),
    '<h2>Step changes</h2>',
    h.steps.length === 0
      ? paragraph('No step change beyond the threshold.')
      : htmlTable(
          ['configuration', 'metric', 'change', 'at', 'after', 'for the worse'],
          h.steps.map((s) => [s.config, s.metric, stepLabel(s), s.at, s.after, s.worse ? 'yes' : 'no']),
          () => false,
        ),
  ];
  for (const metric of METRICS) {
    sections.push(`<h2>${escapeHtml(metric === 'time' ? `Time (${h.basis === 'cpu' ? 'CPU' : 'wall'})` : metric[0]!.toUpperCase() + metric.slice(1))}</h2>`);
    const spec = trendSpec(h, metric);
    if (!spec) {
      sections.push(paragraph(`No commit has a value of ${metric} to plot.`));
      continue;
    }
    const svg = await renderSvg(spec);
    sections.push(`<figure class="trend" data-metric="${escapeHtml(metric)}">${svg}<figcaption>${escapeHtml(METRIC_CAPTION[metric])}</figcaption></figure>`);
  }
  sections.push('<h2>Figures</h2>', paragraph('Each value with its 95% interval in brackets.'), figuresTable(h));
  return htmlPage('nonobench history', sections);
}

/**
 * Reads the inputs and writes the page to `out`. With no row to show, nothing is written and the
 * history is null; the collection holds the inputs' problems either way.
 */
export async function writeHistory(paths: readonly string[], out: string, options: HistoryOptions): Promise<{ history: History | null; collection: Collection }> {
  const collection = collect(paths);
  if (collection.commits.size === 0) return { history: null, collection };
  const history = await buildHistory(collection, options);
  writeOutputFile(out, await buildHistoryPage(history));
  return { history, collection };
}
