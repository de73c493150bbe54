import { medianOfSorted } from './median.js';
import type { RowStatus } from './row.js';

/**
 * The figures that rank configurations, shared by the run's summary and the report, so that the two
 * never disagree on what "solved" or PAR-2 means. Items are tasks (the summary) or puzzles with their
 * repetitions' median time (the report).
 */

/** Statuses that answer the puzzle: its solutions, or the proof that it has none. `wrong` and `error` never do. */
export const ANSWER_STATUSES: readonly RowStatus[] = ['unique', 'multiple', 'solved', 'contradiction'];
const ANSWERS: ReadonlySet<string> = new Set(ANSWER_STATUSES);
export const isAnswer = (status: string): boolean => ANSWERS.has(status);

/** Statuses without an answer, in the order tables list them: a partial grid, the limits, the failures. */
export const UNSOLVED_STATUSES: readonly RowStatus[] = ['stuck', 'timeout', 'memory', 'too-large', 'wrong', 'error'];

export type TimeBasis = 'cpu' | 'wall';

/**
 * Chooses the time shown: CPU time (cpu_ms) when every answered row with a wall time also has a CPU
 * time, else wall time (time_ms). Only answered rows count, since only their times are ever shown;
 * a task stopped at the hard limit has no CPU time, and no time that matters.
 */
export class BasisTally {
  timed = 0;
  withoutCpu = 0;

  /** Notes one row (NaN for a missing time); true when it is an answered row lacking CPU time. */
  add(status: string, wallMs: number, cpuMs: number): boolean {
    if (!isAnswer(status) || Number.isNaN(wallMs)) return false;
    this.timed++;
    if (!Number.isNaN(cpuMs)) return false;
    this.withoutCpu++;
    return true;
  }

  get basis(): TimeBasis {
    return this.timed > 0 && this.withoutCpu === 0 ? 'cpu' : 'wall';
  }
}

export interface Scores {
  /** Items scored (tasks or puzzles). */
  count: number;
  solved: number;
  /** Median and total over the solved items with a time, in ms (median NaN when none). */
  medianMs: number;
  totalMs: number;
  /**
   * PAR-2 in seconds, summed over the items: a solved one counts its time, an unsolved one twice its
   * time limit. Null when it is not defined: an item without a time limit, or a solved one without a time.
   */
  par2S: number | null;
}

/** Accumulates items one by one (a time in ms or NaN, a time limit in s or NaN / 0 for none). */
export class ScoreSheet {
  private count = 0;
  private readonly times: number[] = [];
  private solved = 0;
  private unsolvedS = 0;
  private par2Defined = true;

  add(solved: boolean, timeMs: number, limitS: number): void {
    this.count++;
    if (!(limitS > 0)) this.par2Defined = false;
    if (!solved) {
      this.unsolvedS += 2 * limitS;
      return;
    }
    this.solved++;
    if (Number.isNaN(timeMs)) this.par2Defined = false;
    else this.times.push(timeMs);
  }

  scores(): Scores {
    const sorted = Float64Array.from(this.times).sort();
    let totalMs = 0;
    for (const t of sorted) totalMs += t;
    return {
      count: this.count,
      solved: this.solved,
      medianMs: medianOfSorted(sorted),
      totalMs,
      par2S: this.par2Defined ? totalMs / 1000 + this.unsolvedS : null,
    };
  }
}

/** How a time or score is printed: the digits it needs, never cut (NaN and null as `-`). */
export function figure(x: number | null): string {
  if (x === null || Number.isNaN(x)) return '-';
  const a = Math.abs(x);
  return x.toFixed(a >= 1000 ? 0 : a >= 100 ? 1 : a >= 1 || a === 0 ? 2 : 3);
}
