import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generateRandomPuzzle } from '../../corpus/generate.js';
import { createRng } from '../../corpus/random.js';
import { loadPuzzle } from '../../corpus/load.js';
import { makePuzzle } from '../../corpus/model.js';
import { countKnown } from '../../corpus/grid.js';
import { ExactLineSolver } from '../../solvers/line/exact.js';
import { Propagator } from '../../solvers/propagation/propagator.js';
import { classify, type Classification } from '../../harness/classify/classify.js';
import { lineRounds } from '../../harness/classify/line-rounds.js';
import { difficultyRanks } from '../../harness/classify/difficulty.js';

/** The line rounds of a puzzle, and the fixpoint the propagator reaches. */
function propagateCounting(rows: number[][], columns: number[][]) {
  const puzzle = makePuzzle(rows, columns);
  const prop = new Propagator(puzzle, new ExactLineSolver());
  prop.enqueueAll();
  const ok = prop.propagate();
  return { ok, rounds: lineRounds(puzzle, new ExactLineSolver()), prop };
}

const randomPuzzle = fc
  .record({ width: fc.integer({ min: 1, max: 15 }), height: fc.integer({ min: 1, max: 15 }), density: fc.double({ min: 0.2, max: 0.8, noNaN: true }), seed: fc.integer({ min: 1, max: 2 ** 31 }) })
  .map(({ width, height, density, seed }) => generateRandomPuzzle(width, height, density, createRng(seed)));

describe('line passes', () => {
  it('reach the propagator’s fixpoint: some round when it decides a cell, none when it decides none, and no more rounds than cells decided', () => {
    fc.assert(
      fc.property(randomPuzzle, (p) => {
        const { ok, rounds, prop } = propagateCounting(p.rows, p.columns);
        expect(ok).toBe(true);
        expect(rounds).not.toBeNull();
        expect(rounds! > 0).toBe(countKnown(prop.grid) > 0);
        expect(rounds).toBeLessThanOrEqual(countKnown(prop.grid));
      }),
      { numRuns: 150 },
    );
  });

  it('count one round when the first pass decides everything, and a round per link of a chain of deductions', () => {
    expect(propagateCounting([[1]], [[1]]).rounds).toBe(1);
    // #1611 is finished by a long chain of line deductions, each waiting for the one before.
    const stair = classify(loadPuzzle('corpus/puzzles/webpbn/1611.non'));
    expect(stair.linePasses).toBeGreaterThan(10);
    expect(classify(loadPuzzle('corpus/puzzles/webpbn/23.non')).linePasses).toBe(0);
  });
});

describe('line passes of a puzzle seen another way', () => {
  it('are the same for the puzzle mirrored, flipped and transposed: the count is the puzzle’s, not the propagator’s queue order', () => {
    const check = (p: { rows: number[][]; columns: number[][] }) => {
      const mirror = makePuzzle(p.rows.map((c) => [...c].reverse()), [...p.columns].reverse());
      const flip = makePuzzle([...p.rows].reverse(), p.columns.map((c) => [...c].reverse()));
      const transpose = makePuzzle(p.columns, p.rows);
      const passes = classify(makePuzzle(p.rows, p.columns)).linePasses;
      expect([mirror, flip, transpose].map((q) => classify(q).linePasses)).toEqual([passes, passes, passes]);
    };
    // A random 20×20 of the bundled corpus: along the queue it counted 14, 13 mirrored and 15 transposed.
    const p078 = loadPuzzle('corpus/puzzles/generated/20x20/078.non');
    check({ rows: p078.rows.map((c) => [...c]), columns: p078.columns.map((c) => [...c]) });
    fc.assert(
      fc.property(randomPuzzle, (p) => check({ rows: p.rows.map((c) => [...c]), columns: p.columns.map((c) => [...c]) })),
      { numRuns: 100 },
    );
  });
});

describe('the difficulty profile', () => {
  it('counts probes tried and those that decided a cell, and the search from where probing stalled', () => {
    const mum = classify(loadPuzzle('corpus/puzzles/webpbn/65.non'));
    expect(mum.class).toBe('probe-solvable');
    expect(mum.probesDecisive).toBeGreaterThan(0);
    expect(mum.probesDecisive).toBeLessThanOrEqual(mum.probes);
    expect(mum.search).toBeNull();
    const dancer = classify(loadPuzzle('corpus/puzzles/webpbn/1.non'));
    expect(dancer).toMatchObject({ class: 'overlap-solvable', probes: 0, probesDecisive: 0 });
    expect(dancer.linePasses).toBeGreaterThan(0);
  });

  it('ranks by class, then dead ends, depth, decisive probes and line passes, hardest first; ties share a rank; no rank without one solution', () => {
    const profile = (cls: Classification['class'], deadEnds: number, maxDepth: number, probesDecisive: number, linePasses: number) =>
      ({ class: cls, search: deadEnds || maxDepth ? { deadEnds, maxDepth, decisions: 1 } : null, probesDecisive, linePasses }) as Classification;
    const ranks = difficultyRanks([
      profile('overlap-solvable', 0, 0, 0, 3), // 0
      profile('needs-guessing', 5, 2, 1, 1), // 1
      profile('probe-solvable', 0, 0, 9, 1), // 2
      profile('multiple-solutions', 50, 9, 9, 9), // 3
      profile('needs-guessing', 5, 3, 0, 0), // 4
      profile('line-solvable', 0, 0, 0, 1), // 5
      profile('probe-solvable', 0, 0, 9, 1), // 6
      null, // 7
      profile('needs-guessing', 40, 1, 0, 0), // 8
      profile('overlap-solvable', 0, 0, 0, 7), // 9
    ]);
    expect(ranks).toEqual([8, 3, 4, null, 2, 6, 4, null, 1, 7]);
  });
});
