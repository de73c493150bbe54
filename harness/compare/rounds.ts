import jStat from 'jstat';
import type { FamilyShift } from './family.js';
import { flooredTime } from './stats.js';
import { median } from '../results/median.js';
import type { RunTable } from './table.js';
import { FINISHED, TIME_COLUMN, type TimeBasis } from './time-basis.js';
import type { RowStatus } from '../results/row.js';
import { beyondThreshold, type TimeVerdict } from './judge.js';

/**
 * A strategy's typical factor NEW/BASE when the two runs took turns in rounds (ab and bench-check
 * --ab: repetition r of each side is round r, the two sides run one after the other). Load on the
 * machine during one side's turn slows every task of that turn, so the puzzles of a round are not
 * independent witnesses: hundreds of them would agree on a slowdown that was only the load, and an
 * interval over puzzles (familyShift) calls it a regression. The round is what repeats: each
 * round's median log ratio over the strategy's pairs is one observation, and the interval is
 * Student's t over the rounds. A round under load widens it; a change of code moves every round.
 * Load slows the other strategies of the turn as well, so a strategy is also judged against each
 * round's median over theirs (othersCentres, roundVerdict).
 */

/** Rounds needed for an interval, as a pair needs MIN_REPS repetitions a side. */
const MIN_ROUNDS = 3;

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

/** exp of the mean of `logs`, with Student's t interval at `confidence` (null below MIN_ROUNDS values). */
function tInterval(logs: readonly number[], confidence: number): { factor: number; low: number | null; high: number | null } {
  const n = logs.length;
  const mean = logs.reduce((s, x) => s + x, 0) / n;
  if (n < MIN_ROUNDS) return { factor: Math.exp(mean), low: null, high: null };
  const sd = Math.sqrt(logs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1));
  const half = jStat.studentt.inv(1 - (1 - confidence) / 2, n - 1) * (sd / Math.sqrt(n));
  return { factor: Math.exp(mean), low: Math.exp(mean - half), high: Math.exp(mean + half) };
}

/** Each round's median log ratio, by round. */
function roundCentres(perRound: ReadonlyMap<number, readonly number[]>): Map<number, number> {
  const centres = new Map<number, number>();
  for (const [r, logs] of perRound) if (logs.length > 0) centres.set(r, median(logs));
  return centres;
}

/** Other strategies a round needs for the reference against which a strategy is judged. */
const MIN_OTHERS = 3;

/**
 * For each strategy, each round's median over the other strategies' round centres (rounds where
 * fewer than MIN_OTHERS of them ran left out). A median over strategies, not over their pairs: a
 * change of code that moves one other strategy (most commits touch one) then moves it not at all
 * while the unchanged are the majority, where a median over pairs would move by up to half of it
 * and call the strategies the change left alone slower or faster.
 */
export function othersCentres(perStrategy: ReadonlyMap<string, ReadonlyMap<number, readonly number[]>>): Map<string, Map<number, number>> {
  const out = new Map<string, Map<number, number>>();
  const rounds = new Map<number, { strategy: string; centre: number }[]>();
  for (const [strategy, perRound] of perStrategy) {
    out.set(strategy, new Map());
    for (const [r, centre] of roundCentres(perRound)) {
      const list = rounds.get(r);
      if (list) list.push({ strategy, centre });
      else rounds.set(r, [{ strategy, centre }]);
    }
  }
  for (const [r, list] of rounds) {
    // The round's centres sorted once: the median without one of them is read off by index.
    list.sort((a, b) => a.centre - b.centre);
    const position = new Map(list.map((e, i) => [e.strategy, i]));
    for (const [strategy, centres] of out) {
      const skip = position.get(strategy) ?? list.length;
      const n = list.length - (skip < list.length ? 1 : 0);
      if (n < MIN_OTHERS) continue;
      const kth = (j: number) => list[j < skip ? j : j + 1]!.centre;
      centres.set(r, n % 2 ? kth(n >> 1) : (kth(n / 2 - 1) + kth(n / 2)) / 2);
    }
  }
  return out;
}

/**
 * The typical factor over rounds, from each round's log ratios of a strategy's pairs; with
 * `others`, each round's median over the other strategies' centres (othersCentres), also the factor
 * relative to them: load during a turn slows the other strategies of that turn too, so the
 * difference between this strategy's round and theirs is free of most of it.
 */
export function roundShift(perRound: ReadonlyMap<number, readonly number[]>, pairs: number, confidence: number, others?: ReadonlyMap<number, number>): FamilyShift {
  const centres = roundCentres(perRound);
  if (centres.size === 0) return { pairs, rounds: 0, factor: NaN, low: null, high: null, achieved: 0 };
  const own = tInterval([...centres.values()], confidence);
  const shift: FamilyShift = { pairs, rounds: centres.size, ...own, achieved: own.low === null ? 0 : confidence };
  if (others) {
    const common = [...centres].filter(([r]) => others.has(r));
    if (common.length > 0)
      shift.relative = {
        ...tInterval(
          common.map(([r, c]) => c - others.get(r)!),
          confidence,
        ),
        others: tInterval(
          common.map(([r]) => others.get(r)!),
          confidence,
        ),
      };
  }
  return shift;
}

/**
 * A strategy's verdict over rounds: beyond the threshold by its own interval; or, when the rounds'
 * load leaves that interval wide, surely beyond the threshold against the other strategies of each
 * round (its relative interval) while its own factor is beyond it too — a change that slowed this
 * strategy, not the machine — provided the others' own interval over those rounds holds 1 (the code
 * did not surely move them). `unchanged` only when the own interval lies within the threshold both
 * ways; one that reaches beyond it is `inconclusive`: the rounds disagree, and more of them would
 * tell. Null without an interval.
 */
export function roundVerdict(shift: FamilyShift, threshold: number): TimeVerdict | null {
  if (shift.low === null) return null;
  const own = beyondThreshold(shift.low, shift.high, threshold);
  if (own !== 'unchanged') return own;
  // The others are the reference for the load only while the code left them as they were: when
  // their own interval excludes 1, the change surely moved them, and every strategy it left alone
  // would move against them. (Load on up to three turns of five never takes 1 out of it.)
  const others = shift.relative?.others;
  if (shift.relative && shift.relative.low !== null && others && others.low !== null && others.low <= 1 && others.high! >= 1) {
    const relative = beyondThreshold(shift.relative.low, shift.relative.high, threshold);
    if (relative !== 'unchanged' && beyondThreshold(shift.factor, shift.factor, threshold) === relative) return relative;
  }
  const within = beyondThreshold(shift.high, shift.high, threshold) === 'unchanged' && beyondThreshold(shift.low, shift.low, threshold) === 'unchanged';
  return within ? 'unchanged' : 'inconclusive';
}
