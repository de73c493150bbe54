import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SatSolver } from '../../solvers/sat/engine/solver.js';
import type { Theory, TheoryHost } from '../../solvers/sat/engine/theory.js';
import { createRng, type Rng } from '../../corpus/random.js';
import { allModels, randomMixedSat, satisfiesClause } from './sat-helpers.js';

/**
 * XOR constraints (the variables of each sum to its parity), known to the engine only as a theory.
 * A lazy one skips fixpoints at random until every variable is assigned, so that its implications
 * and conflicts come late, at levels above those of their reasons.
 */
class ParityTheory implements Theory {
  told = 0;
  explained = 0;
  private readonly skip: Rng | null;
  constructor(
    private readonly constraints: { vars: number[]; parity: number }[],
    private readonly numVars = 0,
    lazySeed?: number,
  ) {
    this.skip = lazySeed === undefined ? null : createRng(lazySeed);
  }

  /** Variables told as assigned, and how often a propagation found one assigned that it was not told of. */
  private readonly known = new Set<number>();
  untold = 0;

  assigned(v: number): void {
    this.told++;
    this.known.add(v);
  }

  propagate(host: TheoryHost): boolean {
    // The engine must tell of every assignment since the last call, after backtracking too.
    for (let v = 1; v <= this.numVars; v++) {
      if (host.value(v) === 0) this.known.delete(v);
      else if (!this.known.has(v)) this.untold++;
    }
    if (this.skip !== null && this.skip.nextBelow(2) === 0) {
      let assigned = 0;
      for (let v = 1; v <= this.numVars; v++) if (host.value(v) !== 0) assigned++;
      if (assigned < this.numVars) return true;
    }
    for (const { vars, parity } of this.constraints) {
      let open = 0;
      let free = 0;
      let sum = 0;
      for (const v of vars) {
        const value = host.value(v);
        if (value === 0) {
          open++;
          free = v;
        } else if (value === 1) sum ^= 1;
      }
      if (open > 1) continue;
      // The reason: every other variable as it is now, as false literals.
      const reason = vars.filter((v) => v !== free || open === 0).map((v) => (host.value(v) === 1 ? -v : v));
      if (open === 1) {
        const implied = (sum ^ parity) === 1 ? free : -free;
        this.explained++;
        if (!host.explain(Int32Array.from([implied, ...reason]), reason.length + 1)) return false;
      } else if (sum !== parity) {
        this.explained++;
        return host.explain(Int32Array.from(reason), reason.length);
      }
    }
    return true;
  }
}

function randomParities(seed: number, n: number, count: number): { vars: number[]; parity: number }[] {
  const rng = createRng(seed ^ 0x5bd1e995);
  return Array.from({ length: count }, () => {
    const vars = new Set<number>();
    const size = 1 + rng.nextBelow(Math.min(n, 6));
    while (vars.size < size) vars.add(rng.nextBelow(n) + 1);
    return { vars: [...vars], parity: rng.nextBelow(2) };
  });
}

const holdsParities = (a: number, parities: { vars: number[]; parity: number }[]) =>
  parities.every(({ vars, parity }) => vars.reduce((x, v) => x ^ ((a >> (v - 1)) & 1), 0) === parity);

describe('SatSolver with a theory propagator', () => {
  const instance = fc.record({
    seed: fc.nat(),
    n: fc.integer({ min: 2, max: 10 }),
    ratio: fc.double({ min: 0, max: 2.5, noNaN: true }),
    parities: fc.integer({ min: 1, max: 6 }),
    lazy: fc.boolean(),
  });

  it('finds exactly the models of the clauses that the theory allows, and learns only what they imply', () => {
    let explained = 0;
    let learnt = 0;
    const outcomes = new Set<number>();
    fc.assert(
      fc.property(instance, ({ seed, n, ratio, parities: count, lazy }) => {
        const clauses = randomMixedSat(seed, n, Math.round(ratio * n), 0.6);
        const parities = randomParities(seed, n, count);
        const models = allModels(n, clauses).filter((a) => holdsParities(a, parities));
        const s = new SatSolver(n);
        const theory = new ParityTheory(parities, n, lazy ? seed : undefined);
        s.setTheory(theory);
        // Every model in turn, each excluded by a blocking clause: the count must match.
        const found = new Set<number>();
        let remaining = models;
        // A clause learnt through the theory's clauses holds in every model not excluded yet.
        s.onLearnt = (c) => {
          learnt++;
          for (const a of remaining) expect(satisfiesClause(a, c)).toBe(true);
        };
        for (const c of clauses) s.addClause(c);
        while (s.solve() === 'sat') {
          let a = 0;
          for (let v = 1; v <= n; v++) if (s.value(v)) a |= 1 << (v - 1);
          expect(holdsParities(a, parities)).toBe(true);
          for (const c of clauses) expect(satisfiesClause(a, c)).toBe(true);
          expect(found.has(a)).toBe(false);
          found.add(a);
          remaining = remaining.filter((b) => b !== a);
          if (!s.addClause(Array.from({ length: n }, (_, i) => (s.value(i + 1) ? -(i + 1) : i + 1)))) break;
        }
        expect(found.size).toBe(models.length);
        outcomes.add(Math.min(models.length, 2));
        explained += theory.explained;
        expect(theory.untold).toBe(0);
      }),
      { numRuns: 100 },
    );
    // The sample exercises the theory's implications and conflicts, and learning through them.
    expect(explained).toBeGreaterThan(0);
    expect(learnt).toBeGreaterThan(0);
    expect([...outcomes].sort()).toEqual([0, 1, 2]);
  });

  it('tells the theory about every assignment, those at level 0 first', () => {
    const s = new SatSolver(3);
    s.addClause([1]);
    const theory = new ParityTheory([{ vars: [1, 2, 3], parity: 0 }]);
    s.setTheory(theory);
    s.addClause([2]);
    expect(s.solve()).toBe('sat');
    expect([s.value(1), s.value(2), s.value(3)]).toEqual([true, true, false]);
    expect(theory.told).toBeGreaterThanOrEqual(3);
    expect(s.stats.explanations).toBeGreaterThan(0);
  });

  it('ends unsat on a conflict the theory finds at level 0', () => {
    const s = new SatSolver(2);
    s.setTheory(new ParityTheory([{ vars: [1, 2], parity: 1 }]));
    s.addClause([1]);
    s.addClause([2]);
    expect(s.solve()).toBe('unsat');
  });
});
