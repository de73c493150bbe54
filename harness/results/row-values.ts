import { csvNumber, CsvValueError } from './csv.js';
import { ROW_STATUSES, type RowStatus, type RunColumn } from './row.js';

/** A number column's rule, as csvNumber reads it. */
export interface NumberRule {
  whole: boolean;
  min: number;
}

const TIME: NumberRule = { whole: false, min: 0 };
const COUNT: NumberRule = { whole: true, min: 0 };

/**
 * The run columns read as numbers, and their rules: times and counters must be plain decimals
 * (`1e3` and `Infinity` are refused). Every reader of run CSVs holds rows to them (compare, report,
 * bench-check, merge, and `--resume` before it appends).
 */
export const NUMBER_RULES: Partial<Record<RunColumn, NumberRule>> = {
  task: COUNT,
  rep: { whole: true, min: 1 },
  time_ms: TIME,
  cpu_ms: TIME,
  calib_ms: TIME,
  dead_ends: COUNT,
  decisions: COUNT,
  line_solves: COUNT,
  max_depth: COUNT,
};

/** Checks a status as read from a run CSV: a CsvValueError `column status: unknown status "…"` unless it is a row status. */
export function checkStatus(text: string): void {
  if (!ROW_STATUSES.includes(text as RowStatus)) throw new CsvValueError(`column status: unknown status "${text}"`);
}

/** Checks every value of a record that has a rule (status, times and counters); `at` gives each column's field. */
export function checkRunValues(fields: readonly string[], at: Partial<Record<RunColumn, number>>): void {
  if (at.status !== undefined) checkStatus(fields[at.status]!);
  for (const [column, rule] of Object.entries(NUMBER_RULES) as [RunColumn, NumberRule][]) {
    const i = at[column];
    if (i !== undefined) csvNumber(column, fields[i]!, rule.whole, rule.min);
  }
}
