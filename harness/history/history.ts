import { oneLineText } from '../../corpus/errors.js';
import { TIME_FLOOR_MS } from '../compare/stats.js';
import { TIME_COLUMN, type TimeBasis, type TimeChoice } from '../compare/time-basis.js';
import { UsageError } from '../io/thrown.js';
import { emptyCollection, listInputs, readInto, type Cell, type Collection, type CommitInfo } from './collect.js';
import { geometricLevels, Panel, totalLevels, type Level } from './model.js';
import { orderCommits } from './order.js';
import { detectSteps, LOG, LOG1P, type Scale } from './steps.js';

/**
 * A history: per configuration and commit, the levels of three metrics (model.ts), in commit order
 * (order.ts), with the step changes found in each series (steps.ts).
 */

export const METRICS = ['time', 'solved', 'dead ends'] as const;
export type Metric = (typeof METRICS)[number];

/** Which way is worse, and how a metric's values are compared. */
const WORSE_UP: Record<Metric, boolean> = { time: true, solved: false, 'dead ends': true };
const SCALE: Record<Metric, Scale> = { time: LOG, solved: LOG1P, 'dead ends': LOG1P };

export interface HistoryOptions {
  time: TimeChoice;
  /** Smallest step reported, a fraction (0.1: 10%). */
  threshold: number;
  /** Where git looks for the commits (default: the working directory). */
  cwd?: string;
}

export const DEFAULT_HISTORY_OPTIONS: HistoryOptions = { time: 'auto', threshold: 0.1 };

export interface HistoryStep {
  config: string;
  metric: Metric;
  /** The commit the step happened at, and the last one before it in the series. */
  at: string;
  after: string;
  from: number;
  to: number;
  worse: boolean;
}

export interface ConfigHistory {
  config: string;
  /** Per metric, one level per commit in order. */
  levels: Record<Metric, Level[]>;
  /** Puzzles run at each commit (0 where the configuration did not run). */
  puzzlesRun: number[];
}

export interface History {
  commits: CommitInfo[];
  order: string;
  basis: TimeBasis;
  /** Why wall time, when it is not chosen outright ('' otherwise). */
  basisNote: string;
  threshold: number;
  configs: ConfigHistory[];
  steps: HistoryStep[];
  files: number;
  rows: number;
  duplicates: number;
}

/** The time basis: CPU time when every solved repetition has it (auto), else wall time. */
function chooseBasis(c: Collection, choice: TimeChoice): { basis: TimeBasis; note: string } {
  if (choice === 'wall') return { basis: 'wall', note: '--time wall' };
  if (c.missingCpu === null) return { basis: 'cpu', note: choice === 'cpu' ? '--time cpu' : '' };
  if (choice === 'cpu') throw new UsageError(`--time cpu: ${c.missingCpu}; give --time wall or auto`);
  return { basis: 'wall', note: c.missingCpu };
}

/** The three panels of one configuration: each puzzle's repetitions at each commit. */
function panels(byCommit: Map<string, Map<string, Cell>>, commits: readonly CommitInfo[], basis: TimeBasis): Record<Metric, Panel> {
  const time = new Panel(commits.length, 'median', true);
  const solved = new Panel(commits.length, 'mean');
  const deadEnds = new Panel(commits.length, 'median');
  commits.forEach((commit, k) => {
    for (const [puzzle, cell] of byCommit.get(commit.label) ?? []) {
      solved.add(k, puzzle, Array.from({ length: cell.reps }, (_x, r) => (r < cell.solvedReps ? 1 : 0)));
      if (cell.deadEnds.length > 0) deadEnds.add(k, puzzle, cell.deadEnds);
      // A puzzle some repetition did not solve has a time cut short by the limit: it is counted by solved only.
      if (cell.solvedReps < cell.reps || cell.wall.length < cell.reps) continue;
      time.add(k, puzzle, (basis === 'cpu' ? cell.cpu : cell.wall).map((t) => Math.max(TIME_FLOOR_MS, t)));
    }
  });
  return { time, solved, 'dead ends': deadEnds };
}

/** The history of what has been collected. */
export async function buildHistory(c: Collection, options: HistoryOptions = DEFAULT_HISTORY_OPTIONS): Promise<History> {
  const { basis, note } = chooseBasis(c, options.time);
  const { commits, how } = await orderCommits([...c.commits.values()], options.cwd);
  const configs: ConfigHistory[] = [];
  const steps: HistoryStep[] = [];
  for (const [config, byCommit] of c.cells) {
    const p = panels(byCommit, commits, basis);
    const levels: Record<Metric, Level[]> = { time: geometricLevels(p.time), solved: totalLevels(p.solved), 'dead ends': totalLevels(p['dead ends']) };
    configs.push({ config, levels, puzzlesRun: commits.map((k) => byCommit.get(k.label)?.size ?? 0) });
    for (const metric of METRICS)
      for (const s of detectSteps(levels[metric], options.threshold, SCALE[metric]))
        steps.push({ config, metric, at: commits[s.at]!.label, after: commits[s.after]!.label, from: s.from, to: s.to, worse: (s.to > s.from) === WORSE_UP[metric] });
  }
  return { commits, order: how, basis, basisNote: note, threshold: options.threshold, configs, steps, files: c.files, rows: c.rows, duplicates: c.duplicates };
}

/** Reads the inputs (files, folders of CSVs) into a collection; problems are kept in it, not thrown. */
export function collect(paths: readonly string[]): Collection {
  const c = emptyCollection();
  for (const { file, inFolder } of listInputs(paths, c.problems)) readInto(c, file, inFolder);
  return c;
}

/** The column a basis reads, for the page. */
export const basisColumn = (basis: TimeBasis) => TIME_COLUMN[basis];

/** A step as one line: `sat: time +27% at abc123def456 (after 0f00ba12cafe)`. */
export function stepLine(s: HistoryStep): string {
  const change = s.from === 0 ? `from 0 to ${Number(s.to.toPrecision(3))}` : `${s.to >= s.from ? '+' : '-'}${Math.round(Math.abs(s.to / s.from - 1) * 100)}%`;
  return oneLineText(`${s.config}: ${s.metric} ${change} at ${s.at} (after ${s.after})`);
}

/** Steps for the worse at the last commit (what `--fail-on-step` fails on). */
export const worseAtLast = (h: History): HistoryStep[] => h.steps.filter((s) => s.worse && s.at === h.commits[h.commits.length - 1]?.label);
