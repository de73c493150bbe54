import type { TopLevelSpec } from 'vega-lite';
import { TIME_FLOOR_MS } from '../compare/stats.js';

/**
 * Charts rendered to SVG in Node, so the report needs neither scripts nor the network to show them.
 * Vega escapes every text it writes into the SVG.
 */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  // Loaded here, not at the top: Vega is hundreds of modules, and every other command would pay for them.
  const [vega, vl] = await Promise.all([import('vega'), import('vega-lite')]);
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  try {
    return withPointTitles(await view.toSVG());
  } finally {
    view.finalize();
  }
}

/**
 * Vega writes a point's description as its aria-label but no `<title>`, which is what a browser
 * shows on hover: each point gets one, with the same (already escaped) text.
 */
export function withPointTitles(svg: string): string {
  return svg.replace(/<path aria-label="([^"]*)" role="graphics-symbol" aria-roledescription="point"([^>]*?)\/>/g, '<path aria-label="$1" role="graphics-symbol" aria-roledescription="point"$2><title>$1</title></path>');
}

/**
 * Okabe & Ito's palette ("Color Universal Design", 2008), told apart with every common colour-vision
 * deficiency; black and yellow last (yellow is faint on white).
 */
export const OKABE_ITO = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#000000', '#F0E442'];

/** Dash patterns, so that lines differ without colour too (solid first). */
export const DASHES: number[][] = [[1, 0], [8, 4], [2, 3], [10, 3, 2, 3], [4, 4], [14, 4], [2, 3, 8, 3], [6, 2, 2, 2, 2, 2]];

/**
 * A legend's entries taken from its colour scale's domain. Left to itself, Vega-Lite writes them out as
 * an array, which Vega turns into an expression in which a configuration named `constructor` or
 * `toString` reads as a (missing) signal: the whole chart fails. The signal names no configuration.
 */
export const DOMAIN_OF_COLOR = { signal: "domain('color')" };

/** Most steps drawn per cactus line (the plot is 560 pixels wide). */
export const MAX_CACTUS_STEPS = 2000;

const floor = (ms: number) => Math.max(TIME_FLOOR_MS, ms);
const logTime = (title: string, domain?: number[]) => ({ type: 'quantitative' as const, title, scale: { type: 'log' as const, ...(domain ? { domain } : {}) } });

/** A dashed rule at the time limit (vertical: across x; else across y), named for hover. */
const limitRule = (axis: 'x' | 'y', ms: number, label: string, title: string, domain: number[]) => ({
  data: { values: [{ v: ms, label }] },
  mark: { type: 'rule' as const, color: '#555', strokeDash: [6, 3], clip: true },
  encoding: { [axis]: { field: 'v', ...logTime(title, domain) }, description: { field: 'label' } },
});

/** One cactus line: a series' solved puzzles' times. */
export interface CactusSeries {
  name: string;
  colour: string;
  dash: number[];
  times: ArrayLike<number>;
}

/**
 * Cactus plot: for each series, how many puzzles it solves within a given time: its solve times
 * sorted, the k-th at height k, one stepped line per series, each with its colour and dash; a
 * dashed rule at the time limit when there is one. Every series stays in the legend, also one that
 * solved nothing.
 */
export function cactusSpec(series: CactusSeries[], limitMs: number | null, timeTitle: string): TopLevelSpec {
  const values: { series: string; time: number; solved: number }[] = [];
  let hi = limitMs ?? 0;
  let lo = Infinity;
  for (const s of series) {
    const times = Float64Array.from(s.times, floor).sort();
    const step = Math.max(1, Math.ceil(times.length / MAX_CACTUS_STEPS));
    // A line of more steps than the plot has pixels looks the same with every k-th and its last step.
    for (let i = 0; i < times.length; i++) if (i === 0 || i % step === step - 1 || i === times.length - 1) values.push({ series: s.name, time: times[i]!, solved: i + 1 });
    if (times.length) [lo, hi] = [Math.min(lo, times[0]!), Math.max(hi, times[times.length - 1]!)];
  }
  const domain = [Math.min(lo, hi) / 1.5, hi * 1.5];
  const names = series.map((s) => s.name);
  const lines = {
    data: { values },
    mark: { type: 'line' as const, interpolate: 'step-after' as const, strokeWidth: 2 },
    encoding: {
      x: { field: 'time', ...logTime(timeTitle, domain) },
      y: { field: 'solved', type: 'quantitative' as const, title: 'puzzles solved', axis: { tickMinStep: 1 } },
      color: { field: 'series', type: 'nominal' as const, title: 'series', scale: { domain: names, range: series.map((s) => s.colour) }, legend: { labelLimit: 400, values: DOMAIN_OF_COLOR } },
      strokeDash: { field: 'series', type: 'nominal' as const, title: 'series', scale: { domain: names, range: series.map((s) => s.dash) } },
    },
  };
  return {
    width: 560,
    height: 320,
    layer: limitMs === null ? [lines] : [lines, limitRule('x', limitMs, 'time limit', timeTitle, domain)],
  };
}

/** One puzzle on the scatter plot: its two times (the limit for an unsolved side) and its hover text. */
export interface ScatterPoint {
  x: number;
  y: number;
  outcome: string;
  label: string;
}

/** The outcomes of a scatter plot of series x and y, in legend order, and how each is drawn. */
export function scatterOutcomes(xName: string, yName: string): string[] {
  return ['both solved', `only ${xName} solved`, `only ${yName} solved`, 'neither solved', 'wrong answer'];
}
const OUTCOME_COLOURS = ['#0072B2', '#E69F00', '#009E73', '#000000', '#D55E00'];
const OUTCOME_SHAPES = ['circle', 'square', 'triangle-up', 'diamond', 'cross'];

/** The outcome of a puzzle from each side's verdict (solved, unsolved or wrong). */
export function scatterOutcome(xSolved: boolean, ySolved: boolean, wrong: boolean, xName: string, yName: string): string {
  const outcomes = scatterOutcomes(xName, yName);
  return outcomes[wrong ? 4 : xSolved && ySolved ? 0 : xSolved ? 1 : ySolved ? 2 : 3]!;
}

/**
 * Per-puzzle times of two series on log axes: the dashed diagonal where they are equal, and dashed
 * rules at `capMs`, the time limit, where an unsolved side's point sits (as in BenchExec's and the
 * SAT competitions' plots). Outcomes differ by colour and shape; each point's `<title>` names its puzzle.
 */
export function scatterSpec(points: ScatterPoint[], xName: string, yName: string, cap: { ms: number; label: string }, unit: string, size = 420): TopLevelSpec {
  const capMs = cap.ms;
  const values = points.map((p) => ({ x: floor(p.x), y: floor(p.y), outcome: p.outcome, label: p.label }));
  let lo = floor(capMs);
  // A solved time may lie past the limit line (CPU time of a solver on several threads, under a wall
  // limit): the axes reach it, or clipping would hide its point.
  let hi = floor(capMs);
  for (const v of values) [lo, hi] = [Math.min(lo, v.x, v.y), Math.max(hi, v.x, v.y)];
  const domain = [lo / 1.5, hi * 1.5];
  const outcomes = scatterOutcomes(xName, yName);
  const [xTitle, yTitle] = [`${xName} (${unit})`, `${yName} (${unit})`];
  return {
    width: size,
    height: size,
    layer: [
      {
        data: { values: [{ v: domain[0] }, { v: domain[1] }] },
        mark: { type: 'line', color: '#999', strokeDash: [4, 4], clip: true },
        // A description of its own: the one Vega-lite generates quotes the axis titles (configuration
        // names) into an expression, which a line break or a backslash before a quote breaks.
        encoding: { x: { field: 'v', ...logTime(xTitle, domain) }, y: { field: 'v', ...logTime(yTitle, domain) }, description: { value: 'equal times' } },
      },
      limitRule('x', floor(capMs), cap.label, xTitle, domain),
      limitRule('y', floor(capMs), cap.label, yTitle, domain),
      {
        data: { values },
        mark: { type: 'point', filled: true, opacity: 0.8, size: 40, clip: true },
        encoding: {
          x: { field: 'x', ...logTime(xTitle, domain) },
          y: { field: 'y', ...logTime(yTitle, domain) },
          color: { field: 'outcome', type: 'nominal', title: 'outcome', scale: { domain: outcomes, range: OUTCOME_COLOURS }, legend: { labelLimit: 400 } },
          shape: { field: 'outcome', type: 'nominal', title: 'outcome', scale: { domain: outcomes, range: OUTCOME_SHAPES } },
          description: { field: 'label' },
        },
      },
    ],
  };
}
