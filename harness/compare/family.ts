/**
 * Verdicts over many pairs at once.
 *
 * A comparison judges hundreds of (puzzle, configuration) pairs. Tested one by one at 95%, a few
 * of them pass for slowdowns by chance alone on every unchanged run, and with five repetitions a
 * side no single pair can carry evidence strong enough to survive a correction for that many tests.
 * What a change of code does, though, it mostly does to a configuration on many puzzles at once,
 * and that is what these functions test:
 * - `familyShift`: the typical factor NEW/BASE of one configuration over its puzzles, from each
 *   puzzle's ratio of medians, with the Wilcoxon signed-rank (Hodges–Lehmann) interval. Like the
 *   per-pair test it works on log times (noise is multiplicative), needs no normal distribution, and
 *   is exact for the sizes met here; a few puzzles with a wild ratio (a descheduled repetition, a
 *   JIT that chose differently) move it little.
 * - `benjaminiHochberg`: which of many per-pair p-values stay significant when the expected share
 *   of false discoveries among them is held at the level asked.
 */

import { normalCdf, normalQuantile } from './stats.js';

/** Pairs up to which the signed-rank interval is used; beyond, its n(n+1)/2 Walsh averages would be millions. */
const WALSH_MAX = 2000;
/** Pairs up to which the signed-rank null distribution is computed exactly (O(n³)); beyond, its normal approximation. */
const EXACT_MAX = 200;

const nullCache = new Map<number, Float64Array>();

/**
 * The null distribution of the Wilcoxon signed-rank statistic W+ for n non-zero differences:
 * entry w is P(W+ = w), w = 0..n(n+1)/2 (each rank's sign a fair coin).
 */
export function signedRankNull(n: number): Float64Array {
  let dist = nullCache.get(n);
  if (dist) return dist;
  dist = new Float64Array((n * (n + 1)) / 2 + 1);
  dist[0] = 1;
  for (let rank = 1; rank <= n; rank++) {
    // Adding rank `rank` with probability 1/2: in place, from the top down.
    for (let w = (rank * (rank + 1)) / 2; w >= 0; w--) dist[w] = dist[w]! / 2 + (w >= rank ? dist[w - rank]! / 2 : 0);
  }
  if (nullCache.size >= 16) nullCache.clear();
  nullCache.set(n, dist);
  return dist;
}

/** How many order statistics to cut from each end, given the null distribution's lower tail, for `confidence`. */
function cutFrom(dist: Float64Array, confidence: number): { k: number; achieved: number } {
  const alpha = (1 - confidence) / 2;
  let cum = 0;
  let k = 0;
  while (k < dist.length && cum + dist[k]! <= alpha + 1e-12) cum += dist[k++]!;
  return { k, achieved: k === 0 ? 0 : 1 - 2 * cum };
}

/** The signed-rank cut from the normal approximation of W+ (mean n(n+1)/4, variance n(n+1)(2n+1)/24). */
function signedRankCutApprox(n: number, confidence: number): { k: number; achieved: number } {
  const alpha = (1 - confidence) / 2;
  const mean = (n * (n + 1)) / 4;
  const sd = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24);
  const k = Math.max(0, Math.floor(mean + normalQuantile(alpha) * sd - 0.5) + 1);
  return { k, achieved: k === 0 ? 0 : 1 - 2 * normalCdf((k - 1 + 0.5 - mean) / sd) };
}

/** The binomial(n, 1/2) distribution: the null of the sign test (normal approximation for large n). */
function signCut(n: number, confidence: number): { k: number; achieved: number } {
  const alpha = (1 - confidence) / 2;
  const sd = Math.sqrt(n) / 2;
  const k = Math.max(0, Math.floor(n / 2 + normalQuantile(alpha) * sd - 0.5) + 1);
  return { k, achieved: k === 0 ? 0 : 1 - 2 * normalCdf((k - 1 + 0.5 - n / 2) / sd) };
}

export interface FamilyShift {
  /** Pairs that went in. */
  pairs: number;
  /** Rounds the interval was taken over, when the runs took turns in rounds (see rounds.ts); absent for an interval over pairs. */
  rounds?: number;
  /**
   * Over rounds: the factor relative to each round's median over the other strategies' centres
   * (from 3 of them), with its interval; and `others`, those medians' own factor and interval over
   * the same rounds.
   */
  relative?: { factor: number; low: number | null; high: number | null; others: { factor: number; low: number | null; high: number | null } };
  /** exp of the Hodges–Lehmann estimate: the median of the Walsh averages of the log ratios. */
  factor: number;
  /** Interval for it at `achieved` confidence, or null when the pairs are too few for the confidence asked. */
  low: number | null;
  high: number | null;
  achieved: number;
}

/**
 * The typical factor NEW/BASE over a configuration's pairs, from each pair's ratio (positive
 * numbers). Up to WALSH_MAX pairs: the Hodges–Lehmann estimate and the signed-rank interval, the
 * Walsh averages (pairwise means of the log ratios, each with itself too) between the k-th smallest
 * and the k-th largest. Beyond: the median ratio and the sign test's interval for it.
 */
export function familyShift(ratios: readonly number[], confidence: number): FamilyShift {
  const logs = Float64Array.from(ratios, (r) => Math.log(r)).sort();
  const n = logs.length;
  if (n === 0) return { pairs: 0, factor: NaN, low: null, high: null, achieved: 0 };
  let sorted = logs;
  let cut: { k: number; achieved: number };
  if (n <= WALSH_MAX) {
    sorted = new Float64Array((n * (n + 1)) / 2);
    let w = 0;
    for (let i = 0; i < n; i++) for (let j = i; j < n; j++) sorted[w++] = (logs[i]! + logs[j]!) / 2;
    sorted.sort();
    cut = n <= EXACT_MAX ? cutFrom(signedRankNull(n), confidence) : signedRankCutApprox(n, confidence);
  } else cut = signCut(n, confidence);
  const mid = sorted.length >> 1;
  const centre = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const { k, achieved } = cut;
  if (k === 0) return { pairs: n, factor: Math.exp(centre), low: null, high: null, achieved: 0 };
  return { pairs: n, factor: Math.exp(centre), low: Math.exp(sorted[k - 1]!), high: Math.exp(sorted[sorted.length - k]!), achieved };
}

/**
 * Which p-values are discoveries at false-discovery rate `q` (Benjamini–Hochberg, valid for
 * independent or positively dependent tests): the largest i with p_(i) ≤ i·q/m, and every p-value
 * up to it. Returns a mark per input, in input order.
 */
export function benjaminiHochberg(pValues: readonly number[], q: number): boolean[] {
  const m = pValues.length;
  const order = pValues.map((_p, i) => i).sort((a, b) => pValues[a]! - pValues[b]! || a - b);
  let last = -1;
  for (let i = 0; i < m; i++) if (pValues[order[i]!]! <= ((i + 1) * q) / m) last = i;
  const marks = new Array<boolean>(m).fill(false);
  for (let i = 0; i <= last; i++) marks[order[i]!] = true;
  return marks;
}
