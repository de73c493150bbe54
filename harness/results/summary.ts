import { formatTable } from '../io/table.js';
import { median } from './median.js';

export { median };
import { ROW_STATUSES, type RowStatus } from './row.js';

interface StrategyTally {
  statuses: Map<RowStatus, number>;
  times: number[];
  /** Null while no row has reported dead ends (an external solver reports none). */
  deadEnds: number | null;
}

export interface StrategySummary {
  strategy: string;
  tasks: number;
  statuses: Partial<Record<RowStatus, number>>;
  medianMs: number;
  totalMs: number;
  deadEnds: number | null;
}


/** Per-strategy counts per status, median and total time, total dead ends, accumulated row by row. */
export class RunSummary {
  private readonly tallies = new Map<string, StrategyTally>();

  /** `order`: strategy names in the order the table lists them (others follow as they come). */
  constructor(private readonly order: readonly string[] = []) {}

  add(strategy: string, status: RowStatus, timeMs: number | '', deadEnds: number | ''): void {
    let t = this.tallies.get(strategy);
    if (!t) {
      t = { statuses: new Map(), times: [], deadEnds: null };
      this.tallies.set(strategy, t);
    }
    t.statuses.set(status, (t.statuses.get(status) ?? 0) + 1);
    if (timeMs !== '') t.times.push(timeMs);
    if (deadEnds !== '') t.deadEnds = (t.deadEnds ?? 0) + deadEnds;
  }

  count(status: RowStatus): number {
    let n = 0;
    for (const t of this.tallies.values()) n += t.statuses.get(status) ?? 0;
    return n;
  }

  strategies(): StrategySummary[] {
    const rank = (name: string) => {
      const i = this.order.indexOf(name);
      return i < 0 ? this.order.length : i;
    };
    return [...this.tallies].sort(([a], [b]) => rank(a) - rank(b)).map(([strategy, t]) => ({
      strategy,
      tasks: [...t.statuses.values()].reduce((a, b) => a + b, 0),
      statuses: Object.fromEntries(t.statuses),
      medianMs: median(t.times),
      totalMs: t.times.reduce((a, b) => a + b, 0),
      deadEnds: t.deadEnds,
    }));
  }

  /** A plain-text table: one row per strategy, a column per status that occurred. */
  format(): string {
    const rows = this.strategies();
    const used = ROW_STATUSES.filter((s) => rows.some((r) => r.statuses[s]));
    const header = ['strategy', 'tasks', ...used, 'median ms', 'total s', 'dead ends'];
    const body = rows.map((r) => [
      r.strategy,
      String(r.tasks),
      ...used.map((s) => String(r.statuses[s] ?? 0)),
      Number.isNaN(r.medianMs) ? '-' : r.medianMs.toFixed(2),
      (r.totalMs / 1000).toFixed(2),
      r.deadEnds === null ? '-' : String(r.deadEnds),
    ]);
    return formatTable(header, body);
  }
}

