import type { RowStatus } from '../results/row.js';
import { UsageError } from '../io/thrown.js';
import { rowsOf, type PairGroups } from './pairs.js';

/**
 * Which time a comparison judges: `cpu` (column cpu_ms: the worker thread's CPU time, or the kernel's
 * accounting of an external solver's processes), which other work on the machine hardly moves, or
 * `wall` (column time_ms), which grows with it. `auto` takes CPU time when both runs have it on
 * every row whose time is compared, else wall time.
 */
export const TIME_CHOICES = ['auto', 'cpu', 'wall'] as const;
export type TimeChoice = (typeof TIME_CHOICES)[number];
export type TimeBasis = 'cpu' | 'wall';

/** The column each basis reads. */
export const TIME_COLUMN = { cpu: 'cpu_ms', wall: 'time_ms' } as const satisfies Record<TimeBasis, string>;

/** Statuses whose times and counters are those of a completed solve (not cut short by a limit or failure). */
export const FINISHED: ReadonlySet<RowStatus> = new Set(['unique', 'multiple', 'solved', 'contradiction', 'stuck', 'too-large']);

/** The basis chosen, and why when it is not the one asked or the natural one ('' otherwise). */
export interface TimeBasisChoice {
  basis: TimeBasis;
  note: string;
}

/** Where a run lacks CPU time on a row whose time is compared: `FILE has no cpu_ms column` or `FILE:LINE: …`. */
function missingCpu(g: PairGroups, pairs: readonly number[]): string | null {
  const t = g.table;
  const cpu = t.num('cpu_ms');
  if (!cpu) return `${t.file} has no cpu_ms column`;
  const time = t.num('time_ms');
  const status = t.text('status')!;
  for (const p of pairs)
    for (const i of rowsOf(g, p)) {
      if (!FINISHED.has(status.get(i) as RowStatus)) continue; // its time is not compared
      if (time && Number.isNaN(time[i]!)) continue;
      if (Number.isNaN(cpu[i]!)) return `${t.file}:${t.lines[i]}: a compared row has no cpu_ms`;
    }
  return null;
}

/**
 * The time basis for the matched pairs (`pairs`: [BASE pair, NEW pair] indices). `cpu` when a run
 * lacks CPU time on a compared row is a UsageError naming the file (and the line).
 */
export function chooseTimeBasis(base: PairGroups, next: PairGroups, pairs: readonly (readonly [number, number])[], choice: TimeChoice): TimeBasisChoice {
  if (choice === 'wall') return { basis: 'wall', note: '--time wall' };
  const missing = missingCpu(base, pairs.map((p) => p[0])) ?? missingCpu(next, pairs.map((p) => p[1]));
  if (missing === null) return { basis: 'cpu', note: choice === 'cpu' ? '--time cpu' : '' };
  if (choice === 'cpu') throw new UsageError(`--time cpu: ${missing}; give --time wall or auto`);
  return { basis: 'wall', note: missing };
}
