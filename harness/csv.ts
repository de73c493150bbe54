import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';

/** The columns of a run CSV, in order. Every one is documented in the README. */
export const RUN_COLUMNS = [
  'run_id',
  'started_at',
  'nonobench_version',
  'git_commit',
  'node_version',
  'cpu_model',
  'task',
  'puzzle_id',
  'puzzle_path',
  'title',
  'width',
  'height',
  'strategy',
  'rep',
  'status',
  'verified',
  'time_ms',
  'calib_ms',
  'cells_total',
  'cells_resolved',
  'resolved_pct',
  'dead_ends',
  'decisions',
  'line_solves',
  'solutions_found',
  'max_depth',
  'timeout_s',
  'max_solutions',
  'workers',
  'warmup',
  'memory_mb',
  'params',
  'extra',
  'error',
] as const;

export type RunColumn = (typeof RUN_COLUMNS)[number];
export type RunRow = Record<RunColumn, string | number>;
/** A row as read back from a file: every value a string. */
export type CsvRecord = Record<string, string>;

/**
 * Writes CSV rows to a file, one synchronous write per row, so that every finished row is in the
 * file the moment it is recorded: a run killed midway (even by SIGKILL) leaves a valid CSV.
 * A new run replaces the file; with `append` (a resumed run) rows go after the ones already there.
 */
export class CsvAppender {
  private fd: number;

  constructor(
    readonly path: string,
    readonly columns: readonly string[],
    append = false,
  ) {
    mkdirSync(dirname(path), { recursive: true });
    const existing = append && existsSync(path) ? readFileSync(path, 'utf8') : '';
    this.fd = openSync(path, existing === '' ? 'w' : 'a');
    if (existing === '') writeSync(this.fd, stringify([columns as string[]]));
    else if (!existing.endsWith('\n')) writeSync(this.fd, '\n'); // a torn last line stays its own record
  }

  write(row: Record<string, unknown>): void {
    writeSync(this.fd, stringify([this.columns.map((c) => row[c] ?? '')]));
  }

  close(): void {
    if (this.fd < 0) return;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = -1;
  }
}

/**
 * Reads a CSV with a header into records. Rows with the wrong number of fields (a line torn by a
 * killed writer) are dropped, so a partial file from an interrupted run still reads.
 */
export function readCsv(path: string): { columns: string[]; records: CsvRecord[] } {
  return parseCsv(readFileSync(path, 'utf8'));
}

/** readCsv on text already read. csv-parse's errors carry `lines`, the line where parsing stopped. */
export function parseCsv(text: string): { columns: string[]; records: CsvRecord[] } {
  const rows = parse(text, { relax_column_count: true, relax_quotes: true, skip_empty_lines: true }) as string[][];
  const columns = rows[0] ?? [];
  const records: CsvRecord[] = [];
  for (const row of rows.slice(1)) {
    if (row.length !== columns.length) continue;
    const record: CsvRecord = {};
    columns.forEach((c, i) => (record[c] = row[i]!));
    records.push(record);
  }
  return { columns, records };
}

/** Writes a whole CSV at once, replacing the file (for derived tables: merge output, classify, bench). */
export function writeCsv(path: string, columns: readonly string[], rows: Record<string, unknown>[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, stringify([columns as string[], ...rows.map((row) => columns.map((c) => row[c] ?? ''))]));
}
