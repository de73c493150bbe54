import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { countKnown } from '../../corpus/grid.js';
import { loadPuzzle } from '../../corpus/load.js';
import { BUNDLED_CORPUS } from '../../corpus/paths.js';
import { UNKNOWN, makePuzzle } from '../../corpus/model.js';
import { overlapStrategy } from '../../solvers/strategies/overlap.js';
import { backtrackStrategy } from '../../solvers/strategies/backtrack.js';
import { solveOptions } from '../../solvers/api/types.js';
import { picturedPuzzle } from '../helpers/pictures.js';

const webpbn = (n: number) => loadPuzzle(join(BUNDLED_CORPUS, 'webpbn', `${n}.non`));

describe('overlap strategy', () => {
  it('solves a line-logic puzzle (webpbn #529 "Swing", 45x45) to its goal and calls it unique', () => {
    const swing = webpbn(529);
    const r = overlapStrategy.solve(swing, solveOptions());
    expect(r.status).toBe('unique');
    expect(r.grid).toEqual(swing.goal);
    expect(r.solutions).toEqual([swing.goal]);
    expect(countKnown(r.grid)).toBe(45 * 45);
    expect(r.metrics.lineSolves).toBeGreaterThan(90);
    expect(r.metrics.decisions).toBe(0);
    expect(r.metrics.deadEnds).toBe(0);
    expect(r.metrics.maxDepth).toBe(0);
    expect(overlapStrategy.solve(swing, solveOptions({ maxSolutions: 1 })).status).toBe('solved');
  });

  it('gets stuck where simple line logic stalls (webpbn #436), keeping only true cells', () => {
    const edge = webpbn(436);
    const r = overlapStrategy.solve(edge, solveOptions());
    expect(r.status).toBe('stuck');
    expect(r.solutions).toHaveLength(0);
    expect(countKnown(r.grid)).toBeLessThan(edge.width * edge.height);
    r.grid.forEach((v, i) => v !== UNKNOWN && expect(v).toBe(edge.goal![i]));
  });

  it('reports a contradiction it can see', () => {
    const r = overlapStrategy.solve(makePuzzle([[3], [3]], [[1], [1], [1]]), solveOptions());
    expect(r.status).toBe('contradiction');
    expect(r.solutions).toHaveLength(0);
  });

  it('takes param cache at its word: lines of one clue in one state are solved once with it, each without it', () => {
    // One propagation never meets a line's own state twice: only lines sharing a clue can hit.
    const full = makePuzzle([[3], [3], [3]], [[3], [3], [3]]);
    const cached = overlapStrategy.solve(full, solveOptions({ params: { cache: true } }));
    const uncached = overlapStrategy.solve(full, solveOptions({ params: { cache: false } }));
    expect([cached.status, uncached.status]).toEqual(['unique', 'unique']);
    expect(cached.metrics.extra.cacheHits).toBeGreaterThan(0);
    expect(uncached.metrics.extra.cacheHits).toBe(0);
    expect(cached.metrics.lineSolves + cached.metrics.extra.cacheHits!).toBe(uncached.metrics.lineSolves);
  });

  it('reports timeout when stopped, with the cells deduced so far', () => {
    const swing = webpbn(529);
    const r = overlapStrategy.solve(swing, { maxSolutions: 2, shouldStop: () => true, params: { cache: false } });
    expect(r.status).toBe('timeout');
    expect(r.solutions).toHaveLength(0);
    expect(countKnown(r.grid)).toBeLessThan(45 * 45);
    r.grid.forEach((v, i) => v !== UNKNOWN && expect(v).toBe(swing.goal![i]));
  });

  it('never decides a cell differently from the solution backtrack finds on random puzzles', () => {
    const puzzles = picturedPuzzle({ minSide: 2, maxSide: 20, minDensity: 0.5, maxDensity: 0.5 });
    fc.assert(
      fc.property(puzzles, (p) => {
        const overlap = overlapStrategy.solve(p, solveOptions());
        const full = backtrackStrategy.solve(p, solveOptions({ maxSolutions: 2 }));
        expect(overlap.status).not.toBe('contradiction');
        // Forced cells agree with the picture and with every solution found.
        for (const s of [p.goal!, ...full.solutions]) overlap.grid.forEach((v, i) => v !== UNKNOWN && expect(v).toBe(s[i]));
        if (overlap.status === 'unique') expect(full.status).toBe('unique');
      }),
      { numRuns: 150 },
    );
  });
});
