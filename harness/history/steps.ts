/**
 * Step changes in a series of levels (one per commit, in order), in the spirit of asv's regression
 * detection: the series is fitted by a piecewise-constant model, and each jump between two pieces
 * is a step. The fit is the optimal segmentation of the transformed values (logs) by dynamic
 * programming, least squares with a penalty of 2·ln(n)·σ² per piece, σ the noise of the series
 * (from its successive differences, robustly: 1.4826 · median |Δ| / √2; never below a quarter of the
 * threshold, as finer changes are never reported); a piece of a single commit is allowed only at
 * either end, so a one-commit blip is not two steps. A jump is kept only when the levels on its two
 * sides differ by more than the threshold, their intervals (the mean interval of each piece) do not
 * overlap, and it spans SIGNIFICANT standard errors of the series' noise (which the intervals, made
 * from repetitions, do not see: a whole run slowed). The weakest jump failing that is merged away
 * and the pieces compared again, until every jump left passes. Points of different groups (levels
 * that cannot be compared) are never compared.
 */

export interface SeriesPoint {
  /** NaN when the series has no point at this commit. */
  value: number;
  lo: number;
  hi: number;
  group: number;
}

export interface Step {
  /** Index of the first point after the step, and of the last point before it. */
  at: number;
  after: number;
  /** Levels of the pieces before and after (transform undone). */
  from: number;
  to: number;
}

/** How values are compared: logs of times, logs of 1 + counts (which may be 0). */
export interface Scale {
  forward: (x: number) => number;
  back: (y: number) => number;
}

export const LOG: Scale = { forward: Math.log, back: Math.exp };
export const LOG1P: Scale = { forward: Math.log1p, back: Math.expm1 };

/** How many standard errors of the series' own noise a jump must span. */
const SIGNIFICANT = 3;

/** Fewest successive differences to estimate a series' noise from: with fewer, one step among them sways the median. */
const MIN_DIFFERENCES = 6;

/** Robust noise of a series from its successive differences (0 when too few to tell a step from noise). */
function noise(y: readonly number[]): number {
  if (y.length - 1 < MIN_DIFFERENCES) return 0;
  const d = Float64Array.from({ length: y.length - 1 }, (_x, i) => Math.abs(y[i + 1]! - y[i]!)).sort();
  const mid = d.length >> 1;
  const med = d.length % 2 ? d[mid]! : (d[mid - 1]! + d[mid]!) / 2;
  return (1.4826 * med) / Math.SQRT2;
}

/** Piece boundaries (start indices, 0 first) of the penalised least-squares segmentation of y. */
function segment(y: readonly number[], penalty: number): number[] {
  const n = y.length;
  const s1 = new Float64Array(n + 1);
  const s2 = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    s1[i + 1] = s1[i]! + y[i]!;
    s2[i + 1] = s2[i]! + y[i]! * y[i]!;
  }
  const sse = (i: number, j: number) => Math.max(0, s2[j]! - s2[i]! - (s1[j]! - s1[i]!) ** 2 / (j - i));
  const best = new Float64Array(n + 1);
  const from = new Int32Array(n + 1);
  for (let j = 1; j <= n; j++) {
    best[j] = Infinity;
    for (let i = 0; i < j; i++) {
      // One commit alone between two others is a blip, not a level: only the first and last pieces may be that short.
      if (j - i === 1 && i > 0 && j < n) continue;
      const cost = best[i]! + sse(i, j) + penalty;
      if (cost < best[j]!) {
        best[j] = cost;
        from[j] = i;
      }
    }
  }
  const starts: number[] = [];
  for (let j = n; j > 0; j = from[j]!) starts.unshift(from[j]!);
  return starts;
}

/** The steps of one run of comparable points (values already transformed). */
function blockSteps(y: number[], lo: number[], hi: number[], threshold: number, scale: Scale): { at: number; from: number; to: number }[] {
  const n = y.length;
  const noisy = noise(y);
  const sigma = Math.max(noisy, Math.log1p(threshold) / 4);
  const starts = segment(y, 2 * Math.log(n) * sigma * sigma);
  const mean = (xs: number[], a: number, b: number) => {
    let s = 0;
    for (let i = a; i < b; i++) s += xs[i]!;
    return s / (b - a);
  };
  for (;;) {
    let weakest = -1;
    let weakestSize = Infinity;
    const jumps = [];
    for (let s = 1; s < starts.length; s++) {
      const [a, b, c] = [starts[s - 1]!, starts[s]!, starts[s + 1] ?? n];
      const from = scale.back(mean(y, a, b));
      const to = scale.back(mean(y, b, c));
      const up = to > from;
      const big = up ? to >= from * (1 + threshold) : from >= to * (1 + threshold);
      const apart = up ? mean(lo, b, c) > mean(hi, a, b) : mean(hi, b, c) < mean(lo, a, b);
      const size = Math.abs(mean(y, b, c) - mean(y, a, b));
      const clear = size >= SIGNIFICANT * noisy * Math.sqrt(1 / (b - a) + 1 / (c - b));
      // The jump is where the series moves: the commits on either side of it lie on their own sides of
      // the halfway level. A piece may hold a one-commit blip it cannot stand alone from (see segment),
      // and its mean then sits away from its other commits: without this, a jump could be put between
      // two commits of the same value.
      // Or, when one of the two is a blip that drags its piece's mean past the other commit (a step with a
      // blip just after or before it), the two commits themselves differ by more than the threshold the
      // jump's way, and one of them lies on its own side: the step is there, and must not be merged away.
      const halfway = (mean(y, a, b) + mean(y, b, c)) / 2;
      const [before, after] = [scale.back(y[b - 1]!), scale.back(y[b]!)];
      const [own1, own2] = up ? [y[b - 1]! < halfway, y[b]! > halfway] : [y[b - 1]! > halfway, y[b]! < halfway];
      const pairBig = up ? after >= before * (1 + threshold) : before >= after * (1 + threshold);
      const local = (own1 && own2) || (pairBig && (own1 || own2));
      if (!(big && apart && clear && local) && size < weakestSize) [weakest, weakestSize] = [s, size];
      jumps.push({ at: b, from, to });
    }
    if (weakest < 0) return jumps;
    starts.splice(weakest, 1);
  }
}

/**
 * The steps of a series (see the top of this file); `threshold` is a fraction (0.1: 10%), the same
 * up and down (a jump up by ×1.1 or down by ÷1.1).
 */
export function detectSteps(points: readonly SeriesPoint[], threshold: number, scale: Scale = LOG): Step[] {
  const steps: Step[] = [];
  let block: number[] = [];
  const flush = () => {
    if (block.length >= 2) {
      const f = (get: (p: SeriesPoint) => number) => block.map((i) => scale.forward(get(points[i]!)));
      for (const j of blockSteps(f((p) => p.value), f((p) => p.lo), f((p) => p.hi), threshold, scale))
        steps.push({ at: block[j.at]!, after: block[j.at - 1]!, from: j.from, to: j.to });
    }
    block = [];
  };
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    if (Number.isNaN(p.value)) continue;
    if (block.length > 0 && points[block[0]!]!.group !== p.group) flush();
    block.push(i);
  }
  flush();
  return steps;
}
