import jStat from 'jstat';
import type { FamilyShift } from './family.js';
import { flooredTime } from './stats.js';
import { median } from '../results/median.js';
import type { RunTable } from './table.js';
import { FINISHED, TIME_COLUMN, type TimeBasis } from './time-basis.js';
import type { RowStatus } from '../results/row.js';

/**
 * A strategy's typical factor NEW/BASE when the two runs took turns in rounds (ab and bench-check
 * --ab: repetition r of each side is round r, the two sides run one after the other). Load on the
 * machine during one side's turn slows every task of that turn, so the puzzles of a round are not
 * independent witnesses: hundreds of them would agree on a slowdown that was only the load, and an
 * interval over puzzles (familyShift) calls it a regression. The round is what repeats: each
 * round's median log ratio over the strategy's pairs is one observation, and the interval is
 * Student's t over the rounds. A round under load widens it; a change of code moves every round.
 */

/** Rounds needed for an interval, as a pair needs MIN_REPS repetitions a side. */
export const MIN_ROUNDS = 3;

/** Per repetition (round) number: log(NEW / BASE) of one pair, where both sides finished that round. */
export function pairRoundLogs(baseT: RunTable, baseRows: ArrayLike<number>, nextT: RunTable, nextRows: ArrayLike<number>, basis: TimeBasis, nextScale: number): Map<number, number> {
  const byRep = (t: RunTable, rows: ArrayLike<number>, scale: number) => {
    const rep = t.num('rep');
    const time = t.num(TIME_COLUMN[basis]);
    const status = t.text('status')!;
    const times = new Map<number, number>();
    if (!rep || !time) return times;
    for (let k = 0; k < rows.length; k++) {
      const i = rows[k]!;
      if (Number.isNaN(rep[i]!) || Number.isNaN(time[i]!) || !FINISHED.has(status.get(i) as RowStatus)) continue;
      times.set(rep[i]!, flooredTime(time[i]! * scale));
    }
    return times;
  };
  const base = byRep(baseT, baseRows, 1);
  const next = byRep(nextT, nextRows, nextScale);
  const logs = new Map<number, number>();
  for (const [r, b] of base) {
    const n = next.get(r);
    if (n !== undefined) logs.set(r, Math.log(n / b));
  }
  return logs;
}

/** The typical factor over rounds, from each round's log ratios of a strategy's pairs. */
export function roundShift(perRound: ReadonlyMap<number, readonly number[]>, pairs: number, confidence: number): FamilyShift {
  const centres: number[] = [];
  for (const logs of perRound.values()) if (logs.length > 0) centres.push(median(logs));
  const n = centres.length;
  if (n === 0) return { pairs, rounds: 0, factor: NaN, low: null, high: null, achieved: 0 };
  const mean = centres.reduce((s, x) => s + x, 0) / n;
  if (n < MIN_ROUNDS) return { pairs, rounds: n, factor: Math.exp(mean), low: null, high: null, achieved: 0 };
  const sd = Math.sqrt(centres.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1));
  const half = jStat.studentt.inv(1 - (1 - confidence) / 2, n - 1) * (sd / Math.sqrt(n));
  return { pairs, rounds: n, factor: Math.exp(mean), low: Math.exp(mean - half), high: Math.exp(mean + half), achieved: confidence };
}
