import { readCsvInput, requireColumns, writeCsv, type ParsedCsv } from './csv.js';
import { taskKey, type RunColumn, type RunRecord } from './row.js';

export interface MergeResult {
  rows: number;
  duplicates: number;
}

/** The columns merging needs: a task's identity and its place in the run. */
const KEY_COLUMNS: readonly RunColumn[] = ['task', 'puzzle_id', 'puzzle_path', 'strategy', 'rep'];

/** A run CSV to merge, or a one-line error naming the file. */
function readRunCsv(path: string): ParsedCsv {
  const csv = readCsvInput(path);
  requireColumns(path, csv.columns, KEY_COLUMNS);
  return csv;
}

/**
 * Merges run CSVs (for example the shards of one run) into one, ordered by task index. A task
 * recorded in several inputs is kept once, from the first input that has it.
 */
export function mergeCsvs(out: string, inputs: string[]): MergeResult {
  let columns: string[] | undefined;
  const seen = new Set<string>();
  const rows: RunRecord[] = [];
  let duplicates = 0;
  for (const input of inputs) {
    const csv = readRunCsv(input);
    if (!columns) columns = csv.columns;
    else if (csv.columns.join(',') !== columns.join(','))
      throw new Error(`${input}: its columns differ from those of ${inputs[0]}`);
    for (const r of csv.records as RunRecord[]) {
      const key = taskKey(r.puzzle_id ?? '', r.puzzle_path ?? '', r.config || r.strategy || '', r.rep ?? '');
      if (seen.has(key)) {
        duplicates++;
        continue;
      }
      seen.add(key);
      rows.push(r);
    }
  }
  rows.sort((a, b) => Number(a.task) - Number(b.task));
  writeCsv(out, columns ?? [], rows);
  return { rows: rows.length, duplicates };
}
