import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeDimacs } from '../../solvers/sat/dimacs/dimacs.js';
import { SatSolver } from '../../solvers/sat/engine/solver.js';
import { tempDirs } from '../helpers/temp-dirs.js';
import { randomKSat } from './sat-helpers.js';

// Instances too large for brute force, large enough for thousands of conflicts: restarts, rephasing
// and reductions of the learnt clauses all happen, and MiniSat (installed by .ci/run) is the oracle.
const dir = tempDirs('sat-minisat');
execFileSync('sh', ['-c', 'command -v minisat']);

let files = 0;
/** MiniSat's verdict on the clauses. */
function minisat(numVars: number, clauses: number[][]): 'sat' | 'unsat' {
  const file = join(dir(), `${files++}.cnf`);
  writeFileSync(file, writeDimacs({ numVars, clauses }));
  const r = spawnSync('minisat', ['-verb=0', file], { encoding: 'utf8' });
  if (r.status === 10) return 'sat';
  if (r.status === 20) return 'unsat';
  throw new Error(`minisat exited ${r.status}: ${r.stdout}${r.stderr}`);
}

const satisfies = (s: SatSolver, clauses: number[][]) => clauses.every((c) => c.some((l) => s.value(Math.abs(l)) === l > 0));

/**
 * Solves the clauses and checks the outcome against MiniSat, the model against the clauses, and a few
 * of the learnt clauses the solver kept against the clauses (a learnt clause is implied when the
 * clauses and its negation are unsatisfiable). Returns the solver.
 */
function checkAgainstMinisat(numVars: number, clauses: number[][], pick: number): SatSolver {
  const s = new SatSolver(numVars);
  for (const c of clauses) s.addClause(c);
  const outcome = s.solve();
  expect(outcome).toBe(minisat(numVars, clauses));
  if (outcome === 'sat') expect(satisfies(s, clauses)).toBe(true);
  const learnts = s.learntClauses();
  for (let k = 0; k < 3 && learnts.length > 0; k++) {
    const learnt = learnts[(pick + 7919 * k) % learnts.length]!;
    expect(minisat(numVars, [...clauses, ...learnt.map((l) => [-l])])).toBe('unsat');
  }
  return s;
}

describe('SatSolver against MiniSat on random 3-SAT of up to 200 variables', () => {
  const instance = fc.record({
    seed: fc.nat(),
    n: fc.integer({ min: 100, max: 200 }),
    ratio: fc.double({ min: 4.1, max: 4.4, noNaN: true }),
  });

  it('agrees on sat/unsat, its models satisfy every clause, and the learnt clauses it keeps are implied', () => {
    fc.assert(
      fc.property(instance, ({ seed, n, ratio }) => {
        checkAgainstMinisat(n, randomKSat(seed, n, Math.round(ratio * n)), seed);
      }),
      { numRuns: 12 },
    );
  });

  it('does so on fixed instances long enough for restarts, rephasing and reductions, with both answers', () => {
    const outcomes = new Set<boolean>();
    for (const seed of [1, 3, 5]) {
      const s = checkAgainstMinisat(200, randomKSat(seed, 200, 852), seed);
      outcomes.add(s.model !== null);
      expect(s.stats.deletedClauses).toBeGreaterThan(0);
      expect(s.stats.rephases).toBeGreaterThan(0);
      expect(s.stats.restarts).toBeGreaterThan(0);
    }
    expect(outcomes).toEqual(new Set([true, false]));
  });

  it('names failed assumptions that MiniSat confirms unsatisfiable with the clauses', () => {
    fc.assert(
      fc.property(instance, fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 30 }), ({ seed, n, ratio }, vars) => {
        const clauses = randomKSat(seed, n, Math.round(ratio * n));
        const assumptions = [...new Set(vars)].map((v, i) => ((seed >> (i % 30)) & 1 ? v : -v));
        const s = new SatSolver(n);
        for (const c of clauses) s.addClause(c);
        const outcome = s.solve({ assumptions });
        expect(outcome).toBe(minisat(n, [...clauses, ...assumptions.map((l) => [l])]));
        if (outcome === 'sat') {
          expect(satisfies(s, clauses)).toBe(true);
          for (const l of assumptions) expect(s.value(Math.abs(l))).toBe(l > 0);
        } else if (s.okay) {
          const failed = s.failedAssumptions;
          expect(failed.length).toBeGreaterThan(0);
          for (const l of failed) expect(assumptions).toContain(l);
          expect(minisat(n, [...clauses, ...failed.map((l) => [l])])).toBe('unsat');
        }
      }),
      { numRuns: 16 },
    );
  });
});
