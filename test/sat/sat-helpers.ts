import { createRng } from '../../corpus/random.js';

/** Pigeonhole principle: `pigeons` pigeons in `holes` holes, at most one per hole (unsatisfiable when pigeons > holes). */
export function pigeonhole(pigeons: number, holes: number): { numVars: number; clauses: number[][] } {
  const v = (p: number, h: number) => p * holes + h + 1;
  const clauses: number[][] = [];
  for (let p = 0; p < pigeons; p++) clauses.push(Array.from({ length: holes }, (_, h) => v(p, h)));
  for (let h = 0; h < holes; h++)
    for (let p = 0; p < pigeons; p++) for (let q = p + 1; q < pigeons; q++) clauses.push([-v(p, h), -v(q, h)]);
  return { numVars: pigeons * holes, clauses };
}

/** Uniform random k-SAT: `m` clauses of k distinct variables with random signs. */
export function randomKSat(seed: number, n: number, m: number, k = 3): number[][] {
  const rng = createRng(seed);
  const clauses: number[][] = [];
  for (let i = 0; i < m; i++) {
    const vars = new Set<number>();
    while (vars.size < Math.min(k, n)) vars.add(rng.nextBelow(n) + 1);
    clauses.push([...vars].map((v) => (rng.nextBelow(2) ? v : -v)));
  }
  return clauses;
}

/** Random clauses of 2 or 3 distinct variables, `binaryShare` of them binary (the nonogram encoding is mostly binary). */
export function randomMixedSat(seed: number, n: number, m: number, binaryShare: number): number[][] {
  const rng = createRng(seed);
  const clauses: number[][] = [];
  for (let i = 0; i < m; i++) {
    const k = rng.nextBelow(1000) < binaryShare * 1000 ? 2 : 3;
    const vars = new Set<number>();
    while (vars.size < Math.min(k, n)) vars.add(rng.nextBelow(n) + 1);
    clauses.push([...vars].map((v) => (rng.nextBelow(2) ? v : -v)));
  }
  return clauses;
}

/** Assignment a (bit v−1 = variable v) satisfies the clause. */
export function satisfiesClause(a: number, clause: number[]): boolean {
  return clause.some((l) => ((a >> (Math.abs(l) - 1)) & 1) === (l > 0 ? 1 : 0));
}

/** Every model of a small formula (n ≤ ~18), as bit masks. */
export function allModels(n: number, clauses: number[][]): number[] {
  // Clause masks make the check a couple of bit operations.
  const masks = clauses.map((c) => {
    let pos = 0;
    let neg = 0;
    for (const l of c) {
      if (l > 0) pos |= 1 << (l - 1);
      else neg |= 1 << (-l - 1);
    }
    return [pos, neg] as const;
  });
  const full = (1 << n) - 1;
  const models: number[] = [];
  outer: for (let a = 0; a <= full; a++) {
    for (const [pos, neg] of masks) if ((a & pos) === 0 && (~a & neg) === 0) continue outer;
    models.push(a);
  }
  return models;
}
