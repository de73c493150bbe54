import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { InputError } from '../../corpus/errors.js';
import { readInput } from '../io/read-input.js';

/** A row as read back from a file: every value a string. */
export type CsvRecord = Record<string, string>;

/**
 * Writes CSV rows to a file, one synchronous write per row, so that every finished row is in the
 * file the moment it is recorded: a run killed midway (even by SIGKILL) leaves a valid CSV.
 * A new run replaces the file; with `append` (a resumed run) rows go after the ones already there.
 */
export class CsvAppender {
  private fd: number;

  /** The record delimiter of the file: a resumed CRLF file goes on in CRLF. */
  private readonly eol: string;

  constructor(
    readonly path: string,
    readonly columns: readonly string[],
    append = false,
  ) {
    mkdirSync(dirname(path), { recursive: true });
    let existing = append && existsSync(path) ? readFileSync(path, 'utf8') : '';
    this.eol = /^[^\n]*\r\n/.test(existing) ? '\r\n' : '\n';
    // A record torn inside a quoted field would swallow every row appended after it: cut it off.
    const whole = existing === '' ? 0 : parseCsv(existing).validLength;
    if (whole < existing.length) {
      existing = existing.slice(0, whole);
      truncateSync(path, Buffer.byteLength(existing));
    }
    this.fd = openSync(path, existing === '' ? 'w' : 'a');
    if (existing === '') writeSync(this.fd, this.line(columns));
    else if (!existing.endsWith('\n')) writeSync(this.fd, this.eol); // a torn last line stays its own record
  }

  private line(values: readonly unknown[]): string {
    return stringify([values as unknown[]], { record_delimiter: this.eol });
  }

  /** Appends one record, its values in column order. */
  write(values: readonly unknown[]): void {
    writeSync(this.fd, this.line(values));
  }

  close(): void {
    if (this.fd < 0) return;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = -1;
  }
}

/** A CSV read back: `lines[i]` is the file line where `records[i]` starts. */
export interface ParsedCsv {
  columns: string[];
  records: CsvRecord[];
  lines: number[];
  /** Length of the text that was read: shorter than the text when a torn last record was dropped. */
  validLength: number;
  /** Rows dropped because they had the wrong number of fields or were torn inside a quoted field. */
  dropped: number;
}

/**
 * Reads a CSV with a header into records. Rows with the wrong number of fields (a line torn by a
 * killed writer) are dropped, so a partial file from an interrupted run still reads.
 */
export function readCsv(path: string): ParsedCsv {
  return parseCsv(readFileSync(path, 'utf8'));
}

/**
 * A CSV file given on the command line, or one line naming it: `FILE:0: cannot read the file (…)`,
 * or `FILE:LINE: <context>not a CSV (…)` at the line where parsing stopped.
 */
export function readCsvInput(path: string, context = ''): ParsedCsv {
  const text = readInput(path);
  try {
    return parseCsv(text);
  } catch (err) {
    const e = err as { lines?: number; message?: string };
    throw new InputError(path, e.lines ?? 0, `${context}not a CSV (${String(e.message).split('\n')[0]})`);
  }
}

/** Throws `FILE:1: not a run CSV (no … columns)` unless `columns` holds every `needed` one. */
export function requireColumns(path: string, columns: readonly string[], needed: readonly string[]): void {
  const missing = needed.filter((c) => !columns.includes(c));
  if (missing.length > 0) throw new InputError(path, 1, `not a run CSV (no ${missing.join(', ')} column${missing.length > 1 ? 's' : ''})`);
}

/** How many lines a torn quoted record may span before the file is judged broken, not torn. */
const MAX_TORN_LINES = 20;

/**
 * readCsv on text already read. A UTF-8 BOM is ignored and CRLF and LF may be mixed (a CRLF file
 * resumed by an older version). csv-parse's errors carry `lines`, the line where parsing stopped.
 */
export function parseCsv(text: string): ParsedCsv {
  const bom = text.startsWith('\ufeff') ? 1 : 0;
  let valid = text.length;
  let rows: { record: string[]; info: { lines: number } }[];
  for (let attempt = 0; ; attempt++) {
    try {
      const body = text.slice(bom, valid).replace(/\r\n/g, '\n');
      rows = parse(body, { relax_column_count: true, relax_quotes: true, skip_empty_lines: true, info: true }) as unknown as typeof rows;
      break;
    } catch (err) {
      // An unclosed quote runs to the end of the file: a writer killed inside a quoted field
      // (`extra`, `error`). Drop that last record line by line and read what came before it.
      const cut = text.lastIndexOf('\n', text[valid - 1] === '\n' ? valid - 2 : valid - 1) + 1;
      if ((err as { code?: string }).code !== 'CSV_QUOTE_NOT_CLOSED' || attempt >= MAX_TORN_LINES || cut <= bom) throw err;
      valid = cut;
    }
  }
  const columns = rows[0]?.record ?? [];
  const records: CsvRecord[] = [];
  const lines: number[] = [];
  let dropped = valid < text.length ? 1 : 0;
  for (const { record: row, info } of rows.slice(1)) {
    if (row.length !== columns.length) {
      dropped++;
      continue;
    }
    const record: CsvRecord = {};
    columns.forEach((c, i) => (record[c] = row[i]!));
    records.push(record);
    // info.lines is where the record ends; line breaks inside quoted fields put its start earlier.
    lines.push(info.lines - row.reduce((n, f) => n + (f.match(/\n/g)?.length ?? 0), 0));
  }
  return { columns, records, lines, validLength: valid, dropped };
}

/** Writes a whole CSV at once, replacing the file (for derived tables: merge output, classify, bench). */
export function writeCsv(path: string, columns: readonly string[], rows: readonly object[]): void {
  mkdirSync(dirname(path), { recursive: true });
  const values = (row: object) => columns.map((c) => (row as Record<string, unknown>)[c] ?? '');
  writeFileSync(path, stringify([columns as string[], ...rows.map(values)]));
}
