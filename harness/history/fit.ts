/**
 * Fitting puzzle × commit factors to the observations of a panel (model.ts), exactly rather than by
 * alternating updates, which crawl when commits are linked only by a few puzzles that weigh little
 * beside the others. Both fits reduce to the commit factors alone (the puzzle factors follow from
 * them) and solve for those by conjugate gradients.
 */

/** The observations a fit reads: observation i is puzzle puzzle[i] at commit commit[i]. */
export interface Observations {
  size: number;
  commits: number;
  puzzleCount: number;
  puzzle: readonly number[];
  commit: readonly number[];
}

const dot = (a: Float64Array, b: Float64Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

/**
 * Conjugate gradients for S x = r, S symmetric positive semi-definite given by its product, r in its
 * range (S is singular: the factors of a group of linked commits are fixed only up to a constant);
 * from x = 0, which keeps x out of S's null space in exact arithmetic. `project`, when given, takes
 * a vector's null-space part out of it, so that rounding cannot put one there: a residual that is
 * nothing but rounding would otherwise send x along the null space without bound.
 */
export function conjugateGradient(multiply: (v: Float64Array, out: Float64Array) => void, r: Float64Array, project?: (v: Float64Array) => void): Float64Array {
  const n = r.length;
  const x = new Float64Array(n);
  const res = Float64Array.from(r);
  project?.(res);
  const dir = Float64Array.from(res);
  const sDir = new Float64Array(n);
  let rr = dot(res, res);
  const stop = 1e-26 * rr;
  for (let round = 0; round < 2 * n + 10 && rr > stop; round++) {
    multiply(dir, sDir);
    const curvature = dot(dir, sDir);
    if (!(curvature > 0)) break;
    const alpha = rr / curvature;
    for (let i = 0; i < n; i++) {
      x[i]! += alpha * dir[i]!;
      res[i]! -= alpha * sDir[i]!;
    }
    project?.(res);
    const next = dot(res, res);
    const beta = next / rr;
    rr = next;
    for (let i = 0; i < n; i++) dir[i] = res[i]! + beta * dir[i]!;
  }
  return x;
}

/** Per puzzle, the mean over its observations of a value per commit. */
function puzzleMeans(o: Observations, perCommit: Float64Array, count: Float64Array): Float64Array {
  const mean = new Float64Array(o.puzzleCount);
  for (let i = 0; i < o.size; i++) mean[o.puzzle[i]!]! += perCommit[o.commit[i]!]!;
  for (let p = 0; p < mean.length; p++) mean[p]! /= count[p]!;
  return mean;
}

/**
 * Least squares for y ≈ a[puzzle] + b[commit]. Eliminating a (a_p = mean over its commits of
 * y − b) leaves the normal equations n_k·b_k − Σ over k's puzzles of mean_p(b) = Σ over k's puzzles of (y − mean_p(y)).
 */
export function leastSquaresFactors(o: Observations, y: readonly number[]): { a: Float64Array; b: Float64Array } {
  const perPuzzle = new Float64Array(o.puzzleCount);
  const perCommit = new Float64Array(o.commits);
  const yMean = new Float64Array(o.puzzleCount);
  for (let i = 0; i < o.size; i++) {
    perPuzzle[o.puzzle[i]!]!++;
    perCommit[o.commit[i]!]!++;
    yMean[o.puzzle[i]!]! += y[i]!;
  }
  for (let p = 0; p < yMean.length; p++) yMean[p]! /= perPuzzle[p]!;
  const rhs = new Float64Array(o.commits);
  for (let i = 0; i < o.size; i++) rhs[o.commit[i]!]! += y[i]! - yMean[o.puzzle[i]!]!;
  const project = nullSpaceProjection(commitGroups(o));
  const b = conjugateGradient(
    (v, out) => {
      const vMean = puzzleMeans(o, v, perPuzzle);
      for (let k = 0; k < out.length; k++) out[k] = perCommit[k]! * v[k]!;
      for (let i = 0; i < o.size; i++) out[o.commit[i]!]! -= vMean[o.puzzle[i]!]!;
    },
    rhs,
    project,
  );
  const bMean = puzzleMeans(o, b, perPuzzle);
  return { a: Float64Array.from(yMean, (m, p) => m - bMean[p]!), b };
}

/**
 * Per commit, the smallest commit its puzzles link it to (directly or through others), over the
 * observations `only` lists (default all): its group's name.
 */
function commitGroups(o: Observations, only?: readonly number[]): Int32Array {
  const parent = Int32Array.from({ length: o.commits }, (_, k) => k);
  const find = (k: number): number => {
    while (parent[k] !== k) k = parent[k] = parent[parent[k]!]!;
    return k;
  };
  const firstCommit = new Int32Array(o.puzzleCount).fill(-1);
  for (let n = 0; n < (only ? only.length : o.size); n++) {
    const i = only ? only[n]! : n;
    const p = o.puzzle[i]!;
    if (firstCommit[p] === -1) firstCommit[p] = o.commit[i]!;
    else {
      const [x, y] = [find(firstCommit[p]!), find(o.commit[i]!)];
      if (x !== y) parent[Math.max(x, y)] = Math.min(x, y);
    }
  }
  return Int32Array.from(parent, (_, k) => find(k));
}

/**
 * The projection that takes out of a vector of commit factors its null-space part: the fits' systems
 * are blind to a constant added over the commits of a group, so each group's mean goes.
 */
function nullSpaceProjection(group: Int32Array): (v: Float64Array) => void {
  const groupSize = new Float64Array(group.length);
  for (let k = 0; k < group.length; k++) groupSize[group[k]!]!++;
  const groupSum = new Float64Array(group.length);
  return (v) => {
    groupSum.fill(0);
    for (let k = 0; k < v.length; k++) groupSum[group[k]!]! += v[k]!;
    for (let k = 0; k < v.length; k++) v[k]! -= groupSum[group[k]!]! / groupSize[group[k]!]!;
  };
}

/** Newton steps at most; each is a conjugate-gradient solve and a line search. */
const NEWTON_STEPS = 100;

/**
 * The Poisson model y ~ a[puzzle] · m[commit], by maximum likelihood. With a profiled out
 * (a_p = Y_p / Σ over its commits of m), the log-likelihood in μ = log m is
 * ℓ(μ) = Σ_k y_k μ_k − Σ_p Y_p log Σ_{k ∈ p} e^{μ_k}, concave, maximised by Newton's method with a
 * line search. A commit whose puzzles counted nothing there has m = 0 (its likelihood only grows as
 * m falls), and a puzzle that never counts anything has a = 0; neither enters the iteration.
 */
export function poissonFactors(o: Observations, y: readonly number[]): { a: Float64Array; m: Float64Array } {
  const yPuzzle = new Float64Array(o.puzzleCount);
  const yCommit = new Float64Array(o.commits);
  for (let i = 0; i < o.size; i++) {
    yPuzzle[o.puzzle[i]!]! += y[i]!;
    yCommit[o.commit[i]!]! += y[i]!;
  }
  const used: number[] = [];
  for (let i = 0; i < o.size; i++) if (yPuzzle[o.puzzle[i]!]! > 0 && yCommit[o.commit[i]!]! > 0) used.push(i);
  const mu = new Float64Array(o.commits);
  const w = new Float64Array(o.size);
  const lse = new Float64Array(o.puzzleCount);
  /** Log-sum-exp per puzzle at mu (shifted by its largest term, so nothing overflows). */
  const logSums = (at: Float64Array) => {
    const top = new Float64Array(o.puzzleCount).fill(-Infinity);
    for (const i of used) top[o.puzzle[i]!] = Math.max(top[o.puzzle[i]!]!, at[o.commit[i]!]!);
    lse.fill(0);
    for (const i of used) lse[o.puzzle[i]!]! += Math.exp(at[o.commit[i]!]! - top[o.puzzle[i]!]!);
    for (let p = 0; p < lse.length; p++) lse[p] = yPuzzle[p]! > 0 ? top[p]! + Math.log(lse[p]!) : 0;
  };
  const logLikelihood = (at: Float64Array) => {
    logSums(at);
    let l = 0;
    for (let k = 0; k < o.commits; k++) if (yCommit[k]! > 0) l += yCommit[k]! * at[k]!;
    for (let p = 0; p < lse.length; p++) l -= yPuzzle[p]! * lse[p]!;
    return l;
  };
  const project = nullSpaceProjection(commitGroups(o, used));
  let current = logLikelihood(mu);
  for (let step = 0; step < NEWTON_STEPS; step++) {
    // logSums(mu) is in lse: the weights of each puzzle's commits, and the gradient.
    const gradient = Float64Array.from(yCommit);
    for (const i of used) {
      w[i] = Math.exp(mu[o.commit[i]!]! - lse[o.puzzle[i]!]!);
      gradient[o.commit[i]!]! -= yPuzzle[o.puzzle[i]!]! * w[i]!;
    }
    let worst = 0;
    for (let k = 0; k < o.commits; k++) if (yCommit[k]! > 0) worst = Math.max(worst, Math.abs(gradient[k]!) / yCommit[k]!);
    for (let k = 0; k < o.commits; k++) if (!(yCommit[k]! > 0)) gradient[k] = 0;
    if (worst < 1e-12) break;
    // A tiny ridge keeps the solve off the directions ℓ does not see (a constant added to a group's μ),
    // where rounding would otherwise make μ wander far enough to cost precision.
    let ridge = 0;
    for (const i of used) ridge = Math.max(ridge, yPuzzle[o.puzzle[i]!]! * w[i]! * (1 - w[i]!));
    ridge *= 1e-9;
    const wMean = new Float64Array(o.puzzleCount);
    const direction = conjugateGradient(
      (v, out) => {
        wMean.fill(0);
        for (const i of used) wMean[o.puzzle[i]!]! += w[i]! * v[o.commit[i]!]!;
        for (let k = 0; k < out.length; k++) out[k] = ridge * v[k]!;
        for (const i of used) out[o.commit[i]!]! += yPuzzle[o.puzzle[i]!]! * w[i]! * (v[o.commit[i]!]! - wMean[o.puzzle[i]!]!);
      },
      gradient,
      project,
    );
    // Near the optimum a Newton step gains less than ℓ's rounding: a step that loses no more than that is taken.
    const rounding = 1e-12 * Math.abs(current);
    let next = mu;
    let value = -Infinity;
    for (let t = 1; t > 1e-12; t /= 2) {
      next = Float64Array.from(mu, (x, k) => x + t * direction[k]!);
      value = logLikelihood(next);
      if (value >= current - rounding) break;
    }
    if (!(value >= current - rounding)) break;
    mu.set(next);
    current = value;
  }
  logSums(mu);
  // m is fixed up to a constant per group (a takes its inverse): scaled so the largest is 1.
  let top = -Infinity;
  for (let k = 0; k < o.commits; k++) if (yCommit[k]! > 0) top = Math.max(top, mu[k]!);
  const m = Float64Array.from(mu, (x, k) => (yCommit[k]! > 0 ? Math.exp(x - top) : 0));
  const den = new Float64Array(o.puzzleCount);
  for (let i = 0; i < o.size; i++) den[o.puzzle[i]!]! += m[o.commit[i]!]!;
  return { a: Float64Array.from(yPuzzle, (yp, p) => (yp > 0 ? yp / den[p]! : 0)), m };
}
