import * as vega from 'vega';
import * as vl from 'vega-lite';
import type { TopLevelSpec } from 'vega-lite';
import { TIME_FLOOR_MS } from '../compare/stats.js';

/**
 * Charts rendered to SVG in Node, so the report needs neither scripts nor the network to show them.
 * Vega escapes every text it writes into the SVG.
 */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** One solved puzzle of one strategy. */
export interface SolvedPoint {
  strategy: string;
  timeMs: number;
}

/** Most steps drawn per cactus line (the plot is 560 pixels wide). */
export const MAX_CACTUS_STEPS = 2000;

const logTime = (title: string) => ({ type: 'quantitative' as const, title, scale: { type: 'log' as const } });
const floor = (ms: number) => Math.max(TIME_FLOOR_MS, ms);

/**
 * Cactus plot: for each strategy, how many puzzles it solves within a given time: its solve times
 * sorted, the k-th at height k, one stepped line per strategy. All strategies stay in the legend,
 * also one that solved nothing.
 */
export function cactusSpec(points: SolvedPoint[], strategies: string[]): TopLevelSpec {
  const values: { strategy: string; time: number; solved: number }[] = [];
  const byStrategy = new Map<string, number[]>(strategies.map((s) => [s, []]));
  for (const p of points) byStrategy.get(p.strategy)?.push(floor(p.timeMs));
  for (const strategy of strategies) {
    const times = Float64Array.from(byStrategy.get(strategy)!).sort();
    // A line of more steps than the plot has pixels looks the same with every k-th and its last step.
    const step = Math.max(1, Math.ceil(times.length / MAX_CACTUS_STEPS));
    for (let i = 0; i < times.length; i++) if (i === 0 || i % step === step - 1 || i === times.length - 1) values.push({ strategy, time: times[i]!, solved: i + 1 });
  }
  return {
    width: 560,
    height: 320,
    data: { values },
    mark: { type: 'line', interpolate: 'step-after', point: false },
    encoding: {
      x: { field: 'time', ...logTime('time per puzzle (ms, log scale)') },
      y: { field: 'solved', type: 'quantitative', title: 'puzzles solved', axis: { tickMinStep: 1 } },
      color: { field: 'strategy', type: 'nominal', title: 'strategy', scale: { domain: strategies } },
    },
  };
}

/** One puzzle timed by both strategies of the scatter plot. */
export interface PairPoint {
  x: number;
  y: number;
  /** Which of the two solved it. */
  outcome: string;
}

/** The outcome labels of a scatter plot of strategies x and y, in legend order. */
export function scatterOutcomes(xName: string, yName: string): string[] {
  return ['both solved', `only ${xName} solved`, `only ${yName} solved`, 'neither solved'];
}

/** Per-puzzle times of two strategies on log axes, with the diagonal where they are equal. */
export function scatterSpec(points: PairPoint[], xName: string, yName: string): TopLevelSpec {
  const values = points.map((p) => ({ x: floor(p.x), y: floor(p.y), outcome: p.outcome }));
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    lo = Math.min(lo, v.x, v.y);
    hi = Math.max(hi, v.x, v.y);
  }
  if (values.length === 0) [lo, hi] = [1, 10];
  const outcomes = scatterOutcomes(xName, yName);
  const domain = [lo / 1.2, hi * 1.2];
  return {
    width: 420,
    height: 420,
    layer: [
      {
        data: { values: [{ v: domain[0] }, { v: domain[1] }] },
        mark: { type: 'line', color: '#999', strokeDash: [4, 4], clip: true },
        encoding: {
          x: { field: 'v', ...logTime(`${xName} time (ms)`), scale: { type: 'log', domain } },
          y: { field: 'v', ...logTime(`${yName} time (ms)`), scale: { type: 'log', domain } },
        },
      },
      {
        data: { values },
        mark: { type: 'point', filled: true, opacity: 0.7, clip: true },
        encoding: {
          x: { field: 'x', ...logTime(`${xName} time (ms)`), scale: { type: 'log', domain } },
          y: { field: 'y', ...logTime(`${yName} time (ms)`), scale: { type: 'log', domain } },
          color: { field: 'outcome', type: 'nominal', title: 'outcome', scale: { domain: outcomes } },
          shape: { field: 'outcome', type: 'nominal', scale: { domain: outcomes } },
        },
      },
    ],
  };
}

/** The outcome label of a scatter point, with the strategy names filled in. */
export function scatterOutcome(xSolved: boolean, ySolved: boolean, xName: string, yName: string): string {
  const outcomes = scatterOutcomes(xName, yName);
  return outcomes[xSolved && ySolved ? 0 : xSolved ? 1 : ySolved ? 2 : 3]!;
}
