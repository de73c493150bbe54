import type { RunColumn } from './row.js';

/** Settings written as numbers. */
const NUMERIC: ReadonlySet<RunColumn> = new Set(['timeout_s', 'max_solutions', 'warmup', 'workers', 'memory_mb']);

/** A value as compared: numbers by value (`10` = `10.0`), params as JSON with sorted keys, else the text. */
export function canonicalSetting(column: RunColumn, text: string): string {
  // No time limit is written empty (`--timeout 0`) and read as 0 too (report, --resume): the same setting.
  if (text === '') return column === 'timeout_s' ? '0' : '';
  if (NUMERIC.has(column)) return /^-?\d+(\.\d+)?$/.test(text) ? String(Number(text)) : text;
  if (column !== 'params') return text;
  try {
    return JSON.stringify(JSON.parse(text), (_k, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
    );
  } catch {
    return text;
  }
}
