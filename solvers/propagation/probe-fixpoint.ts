import { EMPTY, FILLED, UNKNOWN } from '../../corpus/model.js';
import type { Propagator } from './propagator.js';

/** What contradiction probing ended with. */
export type ProbeOutcome = 'fixpoint' | 'contradiction' | 'stopped';

/** What probing did: cells tried, and values refuted (a cell with both refuted counts two, as in the search's probing). */
export interface ProbeCounters {
  probes: number;
  contradictions: number;
}

/**
 * Single-cell contradiction probing to a fixpoint, on a propagator already at a line fixpoint:
 * each unknown cell gets each value in turn, with full line propagation; a value that leads to a
 * contradiction is excluded (the cell takes the other one, which is propagated); rounds repeat
 * until one excludes nothing. Both values failing proves there is no solution.
 *
 * Unlike the search's Prober this tries every unknown cell, not only those next to known ones,
 * and keeps only forced values (not the cells both values agree on), so that the class means
 * exactly "contradiction probing suffices". Since propagation is monotone, a value refuted in a
 * grid stays refuted once more cells are known, so the fixpoint does not depend on the order.
 */
export function probeToFixpoint(prop: Propagator, counters: ProbeCounters = { probes: 0, contradictions: 0 }): ProbeOutcome {
  const grid = prop.grid;
  for (;;) {
    let progress = false;
    for (let cell = 0; cell < grid.length; cell++) {
      if (grid[cell] !== UNKNOWN) continue;
      counters.probes++;
      const mark = prop.trailLength;
      prop.assign(cell, FILLED);
      const filledOk = prop.propagate();
      prop.undo(mark);
      if (prop.stopped) return 'stopped';
      prop.assign(cell, EMPTY);
      const emptyOk = prop.propagate();
      prop.undo(mark);
      if (prop.stopped) return 'stopped';
      if (filledOk && emptyOk) continue;
      counters.contradictions += filledOk || emptyOk ? 1 : 2;
      if (!filledOk && !emptyOk) return 'contradiction';
      prop.assign(cell, filledOk ? FILLED : EMPTY);
      if (!prop.propagate()) return 'contradiction';
      if (prop.stopped) return 'stopped';
      progress = true;
    }
    if (!progress || prop.unknownCells() === 0) return 'fixpoint';
  }
}
