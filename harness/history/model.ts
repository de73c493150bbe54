import { createRng } from '../../corpus/random.js';
import { leastSquaresFactors, poissonFactors } from './fit.js';

/**
 * One level per commit from per-puzzle values when the puzzles differ between commits (puzzles added
 * to the corpus, a suite changed, a run cut short). Each puzzle's value at a commit is modelled as a
 * puzzle factor × a commit factor, fitted over every (puzzle, commit) observed, and a commit's level
 * is the model's value over all the puzzles at once: so a puzzle added or removed does not move the
 * line, and only puzzles seen at two commits tell how those commits differ.
 *
 * - geometricLevels (times): least squares on logs; the level is the geometric mean of the modelled
 *   values. With the same puzzles at every commit it is exactly their geometric mean.
 * - totalLevels (counts: solved, dead ends): the Poisson model (maximum likelihood), which takes
 *   zeros; the level is the modelled total. With the same puzzles at every commit it is exactly
 *   their total.
 * (fit.ts fits them.)
 *
 * A puzzle's value at a commit summarises its repetitions there (median or mean). The spread is a 95%
 * bootstrap interval over repetitions: each puzzle's repetitions are resampled, its value and the
 * commit's level computed again (the puzzle factors kept), RESAMPLES times, with a fixed seed so a page
 * is the same each time it is made. It is the uncertainty that repetition noise leaves in the level,
 * and it narrows as puzzles are added; with one repetition per puzzle it is nil.
 * Commits linked by no shared puzzle cannot be compared: each connected group is levelled over its
 * own puzzles, and `group` says which group a commit is in.
 */

export type Summary = 'median' | 'mean';

/** Observations of (puzzle, commit) pairs, each with its repetitions' values. */
export class Panel {
  size = 0;
  puzzle: number[] = [];
  commit: number[] = [];
  /** The summary of each observation's repetitions. */
  y: number[] = [];
  /** Observation i's repetitions are values[start[i]] … values[start[i + 1] - 1]. */
  values: number[] = [];
  start: number[] = [0];
  private readonly puzzles = new Map<string, number>();

  /** `logs`: values are kept as their logs (for geometricLevels; a median of logs is the log of a median). */
  constructor(
    readonly commits: number,
    readonly summary: Summary,
    readonly logs = false,
  ) {}

  get puzzleCount(): number {
    return this.puzzles.size;
  }

  add(commit: number, puzzleId: string, reps: readonly number[]): void {
    let p = this.puzzles.get(puzzleId);
    if (p === undefined) this.puzzles.set(puzzleId, (p = this.puzzles.size));
    this.puzzle.push(p);
    this.commit.push(commit);
    const first = this.values.length;
    for (const v of reps) this.values.push(this.logs ? Math.log(v) : v);
    this.start.push(this.values.length);
    this.y.push(summarise(Float64Array.from(this.values.slice(first)), this.summary));
    this.size++;
  }
}

/** Median (sorting `xs` in place) or mean. */
function summarise(xs: Float64Array, how: Summary): number {
  if (how === 'mean') return xs.reduce((a, b) => a + b, 0) / xs.length;
  // Insertion sort for the usual few repetitions: this runs for every resample.
  if (xs.length > 16) xs.sort();
  else
    for (let i = 1; i < xs.length; i++) {
      const x = xs[i]!;
      let j = i - 1;
      for (; j >= 0 && xs[j]! > x; j--) xs[j + 1] = xs[j]!;
      xs[j + 1] = x;
    }
  const mid = xs.length >> 1;
  return xs.length % 2 ? xs[mid]! : (xs[mid - 1]! + xs[mid]!) / 2;
}

/** A commit's level (NaN, with group -1, when the commit has no observation). */
export interface Level {
  value: number;
  /** 95% bootstrap interval over repetitions. */
  lo: number;
  hi: number;
  /** Puzzles observed at this commit. */
  puzzles: number;
  /** Puzzles the level stands for: those of its group. */
  over: number;
  group: number;
}

/** Bootstrap resamples per level, and their fixed seed. */
export const RESAMPLES = 200;
const SEED = 0x5eed;

/**
 * Connected groups of commits (linked by a puzzle observed at both) and of puzzles. Only puzzles
 * for which `links` holds link commits (for counts, a puzzle that never counts anything tells
 * nothing of how two commits compare); the others join the group of the commit they were first seen at.
 */
function groups(panel: Panel, links: (p: number) => boolean = () => true): { ofCommit: Int32Array; ofPuzzle: Int32Array } {
  const parent = Int32Array.from({ length: panel.commits }, (_x, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const firstCommit = new Int32Array(panel.puzzleCount).fill(-1);
  for (let i = 0; i < panel.size; i++) {
    const p = panel.puzzle[i]!;
    const k = panel.commit[i]!;
    if (firstCommit[p] === -1) firstCommit[p] = k;
    else if (links(p)) parent[find(k)] = find(firstCommit[p]!);
  }
  const ofCommit = new Int32Array(panel.commits).fill(-1);
  for (let i = 0; i < panel.size; i++) ofCommit[panel.commit[i]!] = find(panel.commit[i]!);
  const ofPuzzle = Int32Array.from(firstCommit, (k) => find(k));
  return { ofCommit, ofPuzzle };
}

/** Observations per puzzle and per commit. */
function counts(panel: Panel): { perPuzzle: Float64Array; perCommit: Float64Array } {
  const perPuzzle = new Float64Array(panel.puzzleCount);
  const perCommit = new Float64Array(panel.commits);
  for (let i = 0; i < panel.size; i++) {
    perPuzzle[panel.puzzle[i]!]!++;
    perCommit[panel.commit[i]!]!++;
  }
  return { perPuzzle, perCommit };
}

/**
 * The levels: a commit's level is `level(k, S)` of the sum S over its observations of
 * `term(i, value)`; the interval comes from the same sums over resampled repetitions.
 */
function levels(panel: Panel, ofCommit: Int32Array, ofPuzzle: Int32Array, term: (i: number, y: number) => number, level: (k: number, group: number, sum: number) => number): Level[] {
  const over = new Map<number, number>();
  for (const g of ofPuzzle) over.set(g, (over.get(g) ?? 0) + 1);
  const { perCommit } = counts(panel);
  const sums = new Float64Array(panel.commits);
  for (let i = 0; i < panel.size; i++) sums[panel.commit[i]!]! += term(i, panel.y[i]!);
  const replicas = Array.from({ length: panel.commits }, () => new Float64Array(RESAMPLES));
  // Seeded, so that the intervals are the same each time the page is made.
  const rng = createRng(SEED);
  const rand = () => rng.nextUint32() / 2 ** 32;
  let most = 1;
  for (let i = 0; i < panel.size; i++) most = Math.max(most, panel.start[i + 1]! - panel.start[i]!);
  const scratch = new Float64Array(most);
  // Observations whose repetitions all agree (one repetition, deterministic counters) add the same term to every resample.
  const fixed = new Float64Array(panel.commits);
  const varying: number[] = [];
  for (let i = 0; i < panel.size; i++) {
    let same = true;
    for (let j = panel.start[i]! + 1; same && j < panel.start[i + 1]!; j++) same = panel.values[j] === panel.values[j - 1];
    if (same) fixed[panel.commit[i]!]! += term(i, panel.y[i]!);
    else varying.push(i);
  }
  for (let b = 0; b < RESAMPLES; b++) {
    const s = Float64Array.from(fixed);
    for (const i of varying) {
      const first = panel.start[i]!;
      const n = panel.start[i + 1]! - first;
      const draw = scratch.subarray(0, n);
      for (let j = 0; j < n; j++) draw[j] = panel.values[first + Math.floor(rand() * n)]!;
      s[panel.commit[i]!]! += term(i, summarise(draw, panel.summary));
    }
    for (let k = 0; k < panel.commits; k++) if (ofCommit[k]! >= 0) replicas[k]![b] = level(k, ofCommit[k]!, s[k]!);
  }
  const at = (sorted: Float64Array, q: number) => sorted[Math.round(q * (sorted.length - 1))]!;
  return Array.from({ length: panel.commits }, (_x, k) => {
    const group = ofCommit[k]!;
    if (group < 0) return { value: NaN, lo: NaN, hi: NaN, puzzles: 0, over: 0, group };
    const sorted = replicas[k]!.sort();
    return { value: level(k, group, sums[k]!), lo: at(sorted, 0.025), hi: at(sorted, 0.975), puzzles: perCommit[k]!, over: over.get(group) ?? 0, group };
  });
}

/** Levels of positive values (times), as geometric means: see the top of this file. */
export function geometricLevels(panel: Panel): Level[] {
  if (!panel.logs) throw new Error('geometricLevels needs a panel of logs');
  const { ofCommit, ofPuzzle } = groups(panel);
  const { perCommit } = counts(panel);
  const { a } = leastSquaresFactors(panel, panel.y);
  // A group's factors are fixed up to a constant moved between a and b: its mean puzzle factor anchors it.
  const anchor = new Map<number, { sum: number; n: number }>();
  for (let p = 0; p < a.length; p++) {
    const s = anchor.get(ofPuzzle[p]!) ?? { sum: 0, n: 0 };
    s.sum += a[p]!;
    s.n++;
    anchor.set(ofPuzzle[p]!, s);
  }
  return levels(
    panel,
    ofCommit,
    ofPuzzle,
    (i, y) => y - a[panel.puzzle[i]!]!,
    (k, g, s) => Math.exp(s / perCommit[k]! + anchor.get(g)!.sum / anchor.get(g)!.n),
  );
}

/** Levels of counts ≥ 0 (solved, dead ends), as totals: see the top of this file. */
export function totalLevels(panel: Panel): Level[] {
  const { a } = poissonFactors(panel, panel.y);
  // A puzzle that never counts anything tells nothing of how two commits compare.
  const { ofCommit, ofPuzzle } = groups(panel, (p) => a[p]! > 0);
  const total = new Map<number, number>();
  for (let p = 0; p < a.length; p++) total.set(ofPuzzle[p]!, (total.get(ofPuzzle[p]!) ?? 0) + a[p]!);
  const fitted = new Float64Array(panel.commits);
  for (let i = 0; i < panel.size; i++) fitted[panel.commit[i]!]! += a[panel.puzzle[i]!]!;
  // At the fit, a commit's total is its factor × the sum of its puzzles' factors: the group's total is that factor × all their factors.
  return levels(
    panel,
    ofCommit,
    ofPuzzle,
    (_i, y) => y,
    (k, g, s) => {
      // A group may hold no puzzle of its own: those seen at its commits never count anything, and belong to the group they were first seen in.
      const all = total.get(g) ?? 0;
      // Only puzzles that never count anything here: they say nothing of how the others would count.
      if (fitted[k] === 0) return all === 0 ? 0 : NaN;
      return (s * all) / fitted[k]!;
    },
  );
}
