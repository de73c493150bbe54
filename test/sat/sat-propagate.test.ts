import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HEADER } from '../../solvers/sat/engine/clause-arena.js';
import { FALSE, isBinaryReason, mkLit, NO_REASON, otherOfBinary, TRUE, UNDEF, varOf } from '../../solvers/sat/engine/literals.js';
import { propagate } from '../../solvers/sat/engine/propagate.js';
import { EngineState } from '../../solvers/sat/engine/state.js';

const NUM_VARS = 8;

/** Unit propagation by repeated scans of every clause: the set of implied literals, or null on a conflict. */
function naiveClosure(clauses: number[][], decisions: number[]): Set<number> | null {
  const value = (l: number, t: Set<number>) => (t.has(l) ? TRUE : t.has(l ^ 1) ? FALSE : UNDEF);
  const t = new Set<number>();
  for (const d of decisions) {
    if (value(d, t) === FALSE) return null;
    t.add(d);
    for (let changed = true; changed; ) {
      changed = false;
      for (const c of clauses) {
        if (c.some((l) => value(l, t) === TRUE)) continue;
        const open = c.filter((l) => value(l, t) === UNDEF);
        if (open.length === 0) return null;
        if (open.length === 1) {
          t.add(open[0]!);
          changed = true;
        }
      }
    }
  }
  return t;
}

const clause = fc
  .uniqueArray(fc.nat(NUM_VARS - 1), { minLength: 2, maxLength: 5 })
  .chain((vars) => fc.tuple(...vars.map((v) => fc.boolean().map((neg) => mkLit(v, neg)))));

describe('propagate', () => {
  it('reaches the unit-propagation closure, or a conflict exactly when there is one, with reasons and conflicts that hold', () => {
    fc.assert(
      fc.property(
        fc.array(clause, { minLength: 1, maxLength: 30 }),
        fc.uniqueArray(fc.nat(NUM_VARS - 1), { minLength: 1, maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        (clauses, decisionVars, signs) => {
          const s = new EngineState(NUM_VARS);
          for (const c of clauses) {
            const cr = s.arena.alloc(c, c.length, false);
            s.clauses.push(cr);
            s.attach(cr);
          }
          const decisions = decisionVars.map((v, i) => mkLit(v, signs[i]!));
          let conflict = NO_REASON;
          for (const d of decisions) {
            if (s.vals[d] === FALSE) break; // a decision already refuted: the closure below conflicts too
            if (s.vals[d] === TRUE) continue;
            s.newDecisionLevel();
            s.enqueue(d, NO_REASON);
            conflict = propagate(s);
            if (conflict !== NO_REASON) break;
          }
          const expected = naiveClosure(clauses, decisions);
          const trail = Array.from(s.trail.subarray(0, s.trailSize));
          const has = (lits: number[]) => clauses.some((c) => c.length === lits.length && lits.every((l) => c.includes(l)));
          const isFalse = (l: number) => s.vals[l] === FALSE;
          if (conflict !== NO_REASON) {
            expect(expected).toBeNull();
            const lits = isBinaryReason(conflict) ? [otherOfBinary(conflict), s.binaryConflictLit] : s.arena.literals(conflict);
            expect(has(lits)).toBe(true);
            expect(lits.every(isFalse)).toBe(true);
          } else if (expected === null) {
            expect(decisions.some(isFalse)).toBe(true);
          } else {
            expect(new Set(trail)).toEqual(expected);
          }
          // Every implied literal is true by a clause whose other literals were false before it.
          for (const l of trail) {
            const r = s.reason[varOf(l)]!;
            if (r === NO_REASON) continue;
            const others = isBinaryReason(r) ? [otherOfBinary(r)] : s.arena.literals(r).slice(1);
            if (!isBinaryReason(r)) expect(s.arena.mem[r + HEADER]).toBe(l);
            expect(has([l, ...others])).toBe(true);
            for (const o of others) expect(s.trailPos[varOf(o)]! < s.trailPos[varOf(l)]! && isFalse(o)).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
