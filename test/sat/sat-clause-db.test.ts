import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConflictAnalysis } from '../../solvers/sat/engine/analyze.js';
import { ClauseDatabase } from '../../solvers/sat/engine/clause-db.js';
import { binaryReason, mkLit, NO_REASON } from '../../solvers/sat/engine/literals.js';
import { EngineState } from '../../solvers/sat/engine/state.js';

describe('ClauseArena flags', () => {
  it('the used mark, the LBD and the learnt and deleted flags do not disturb one another', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1 << 20 }), fc.boolean(), fc.boolean(), fc.boolean(), (lbd, learnt, used, deleted) => {
        const s = new EngineState(3);
        const cr = s.arena.alloc([0, 2, 4], 3, learnt, lbd);
        s.arena.setUsed(cr, used);
        if (deleted) s.arena.markDeleted(cr);
        expect([s.arena.lbd(cr), s.arena.isLearnt(cr), s.arena.isUsed(cr), s.arena.isDeleted(cr)]).toEqual([lbd, learnt, used, deleted]);
        s.arena.setLbd(cr, lbd >> 1);
        s.arena.setUsed(cr, !used);
        expect([s.arena.lbd(cr), s.arena.isLearnt(cr), s.arena.isUsed(cr), s.arena.isDeleted(cr)]).toEqual([lbd >> 1, learnt, !used, deleted]);
      }),
    );
  });
});

describe('ConflictAnalysis', () => {
  it('marks the learnt clauses it resolves on as used, and only those', () => {
    const [a, b, c] = [0, 1, 2].map((v) => mkLit(v, false)) as [number, number, number];
    const s = new EngineState(3);
    s.newDecisionLevel();
    s.enqueue(c, NO_REASON);
    s.newDecisionLevel();
    s.enqueue(a, NO_REASON);
    // b follows from a and c by a learnt clause; a learnt clause that analysis does not meet stays unused.
    const reason = s.arena.alloc([b, a ^ 1, c ^ 1], 3, true, 2);
    const bystander = s.arena.alloc([b, c, a], 3, true, 2);
    s.enqueue(b, reason);
    const conflict = s.arena.alloc([b ^ 1, a ^ 1], 2, false);
    const analysis = new ConflictAnalysis(s, 3);
    expect(analysis.analyze(conflict)).toBe(1);
    expect(Array.from(analysis.learnt.subarray(0, analysis.size))).toEqual([a ^ 1, c ^ 1]);
    expect(s.arena.isUsed(reason)).toBe(true);
    expect(s.arena.isUsed(bystander)).toBe(false);
  });
});

describe('ConflictAnalysis of a binary conflict', () => {
  it('learns the same from binaryReason(other) and binaryConflictLit, as propagate returns it, as from the clause', () => {
    const [a, b, c] = [0, 1, 2].map((v) => mkLit(v, false)) as [number, number, number];
    const learn = (binaryConflict: boolean) => {
      const s = new EngineState(3);
      s.newDecisionLevel();
      s.enqueue(c, NO_REASON);
      s.newDecisionLevel();
      s.enqueue(a, NO_REASON);
      s.enqueue(b, binaryReason(a ^ 1)); // b by the binary clause (¬a ∨ b)
      // The conflict (¬b ∨ ¬c): both literals false.
      let conflict = s.arena.alloc([b ^ 1, c ^ 1], 2, false);
      if (binaryConflict) {
        s.binaryConflictLit = b ^ 1;
        conflict = binaryReason(c ^ 1);
      }
      const analysis = new ConflictAnalysis(s, 3);
      const backtrack = analysis.analyze(conflict);
      return [backtrack, Array.from(analysis.learnt.subarray(0, analysis.size))];
    };
    expect(learn(false)).toEqual([1, [b ^ 1, c ^ 1]]); // b is the first UIP
    expect(learn(true)).toEqual(learn(false));
  });
});

describe('ClauseDatabase reduction', () => {
  const learnt = fc.record({ size: fc.integer({ min: 2, max: 6 }), lbd: fc.integer({ min: 1, max: 10 }), used: fc.boolean(), activity: fc.nat(1000) });

  it('keeps binary, glue (LBD ≤ 2) and used tier-2 (LBD ≤ 6) clauses and the best quarter of the rest, and clears the used marks', () => {
    fc.assert(
      fc.property(fc.array(learnt, { minLength: 1, maxLength: 60 }), (specs) => {
        // Clause i is over variables 6i .. 6i + size - 1, so its first literal names it.
        const s = new EngineState(6 * specs.length);
        specs.forEach(({ size, lbd, used, activity }, i) => {
          const lits = Array.from({ length: size }, (_, k) => mkLit(6 * i + k, false));
          const cr = s.arena.alloc(lits, size, true, lbd);
          s.arena.setUsed(cr, used);
          s.arena.act[cr + 2] = activity;
          s.learnts.push(cr);
          s.attach(cr);
        });
        const protectedOnes = specs.flatMap((c, i) => (c.size === 2 || c.lbd <= 2 || (c.used && c.lbd <= 6) ? [i] : []));
        const rest = specs.flatMap((c, i) => (protectedOnes.includes(i) ? [] : [i]));
        // Worst first: highest LBD, then lowest activity; three quarters of them go.
        rest.sort((a, b) => specs[b]!.lbd - specs[a]!.lbd || specs[a]!.activity - specs[b]!.activity);
        const survivors = rest.slice((3 * rest.length) >> 2);

        s.stats.conflicts = 2000;
        expect(new ClauseDatabase(s).runPass(() => false)).toBe(true); // nothing is satisfied: the reduction alone acts

        const kept = s.learnts.map((cr) => s.arena.literals(cr)[0]! / 12);
        expect(kept.sort((a, b) => a - b)).toEqual([...protectedOnes, ...survivors].sort((a, b) => a - b));
        expect(s.stats.deletedClauses).toBe(specs.length - kept.length);
        for (const cr of s.learnts) expect(s.arena.isUsed(cr)).toBe(false);
      }),
    );
  });
});
