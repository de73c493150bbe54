import { refuseInputAsOutput } from '../../corpus/input-files.js';
import { openMayWait, withDefaultStopSignals } from '../../corpus/stop-signals.js';
import { writeOutputFile } from '../io/output-path.js';
import { closeSync, existsSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, statSync, truncateSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { stringify, type Options as StringifyOptions } from 'csv-stringify/sync';
import { clip, InputError } from '../../corpus/errors.js';
import { OutputWriteError } from '../io/thrown.js';
import { writeAll, type WriteBytes } from '../io/write-all.js';
import { scanCsvFile, scanCsvText, type CsvEncoding, type CsvRow, type CsvScan } from './csv-read.js';

export * from './csv-read.js';
export type { WriteBytes } from '../io/write-all.js';

/**
 * CSV as RFC 4180 writes it, everywhere: every writer quotes a field holding a quote, a comma, a CR or
 * an LF (or starting with a byte-order mark), and every reader keeps what is inside quotes exactly as
 * written, line breaks included. Records end in LF or CRLF (mixed is accepted: a CRLF file resumed by
 * an older version); blank lines are skipped; a UTF-8 byte-order mark is ignored. A malformed record
 * anywhere (a wrong number of fields, a quote inside an unquoted field, text after a closing quote)
 * is an error naming the line where it starts, with one exception: the torn last record a killed
 * writer leaves (the last record, without its line end and with fewer fields than the header, or cut
 * inside a quoted field at the end of the file with no whole record after it) is dropped without a word. Files are read in chunks,
 * never whole. Text that is not valid UTF-8 is read as Windows-1252, UTF-16 by its byte-order mark
 * (as readInput). csv-stringify writes and csv-parse reads (csv-read.ts).
 */

/** A row as read back from a file: every value a string. */
export type CsvRecord = Record<string, string>;

// ---------- writing ----------

/**
 * csv-stringify's options for one record. `quote_record_delimiter` must be on: csv-stringify turns it
 * off whenever `record_delimiter` is given, and then quotes only the delimiter itself, so a bare CR
 * or LF in a CRLF file went out unquoted and split the row. A leading byte-order mark is quoted too,
 * as a reader drops one at the start of a file. Values are never altered (no formula escaping);
 * booleans and dates are written as String() writes them, numbers as plain decimals (plainDecimal).
 */
const stringifyOptions = (eol: string, loneEmpty: boolean): StringifyOptions => ({
  bom: false,
  eof: true,
  delimiter: ',',
  quote: '"',
  escape: '"',
  record_delimiter: eol,
  quote_record_delimiter: true,
  quoted_match: /[\r\n]|^\ufeff/,
  quoted_empty: loneEmpty,
  escape_formulas: false,
  cast: { boolean: (v) => String(v), date: (v) => String(v), number: plainDecimal },
});
const OPTIONS: Record<string, StringifyOptions> = {};
const optionsFor = (eol: string, loneEmpty: boolean) => (OPTIONS[`${eol}${loneEmpty}`] ??= stringifyOptions(eol, loneEmpty));

/** One record with its line end, as csv-stringify writes it. A lone empty field is written `""`: a blank line would be skipped. */
export function csvRecord(values: readonly unknown[], eol = '\n'): string {
  return stringify([values as unknown[]], optionsFor(eol, values.length === 1));
}

/** Writes a whole CSV at once, replacing the file as writeOutputFile does (for derived tables: classify, bench). */
export function writeCsv(path: string, columns: readonly string[], rows: readonly object[]): void {
  const parts = [csvRecord(columns)];
  for (const row of rows) parts.push(csvRecord(columns.map((c) => (row as Record<string, unknown>)[c])));
  writeOutputFile(path, parts.join(''));
}

/**
 * Writes text (or bytes) to a file descriptor in large pieces. What is written is copied into a
 * buffer at once, so no string outlives its call (many small strings held until a flush would all
 * reach the old heap).
 */
export class BufferedWriter {
  private readonly buffer = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  /** With `file`, a write that fails (a full disk) is an OutputWriteError naming it. */
  constructor(
    private readonly fd: number,
    private readonly file?: string,
  ) {}
  write(data: string | Uint8Array): void {
    const most = typeof data === 'string' ? data.length * 3 : data.length;
    if (most > this.buffer.length - this.used) {
      this.flush();
      if (most > this.buffer.length) {
        const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
        this.writeOut(bytes, bytes.length);
        return;
      }
    }
    if (typeof data === 'string') this.used += this.buffer.write(data, this.used);
    else {
      this.buffer.set(data, this.used);
      this.used += data.length;
    }
  }
  flush(): void {
    this.writeOut(this.buffer, this.used);
    this.used = 0;
  }

  private writeOut(bytes: Uint8Array, length: number): void {
    try {
      writeAll(this.fd, bytes, 0, length);
    } catch (err) {
      throw this.file === undefined ? err : new OutputWriteError(this.file, err);
    }
  }
}

/**
 * Writes CSV rows to a file, one synchronous write per row, so that every finished row is in the
 * file the moment it is recorded: a run killed midway (even by SIGKILL) leaves a valid CSV.
 * A new run replaces the file; with `append` (a resumed run) rows go after the ones already there,
 * once a torn last record is cut off (it would otherwise swallow or shift the rows after it).
 * A write that fails part way (a full disk) is cut back off, so the file always ends on a whole
 * row, and the appender writes nothing more: the caller stops there.
 */
export class CsvAppender {
  private fd: number;

  /** The record delimiter of the file: a resumed CRLF file goes on in CRLF. */
  private readonly eol: string;

  /** Bytes of the file that are whole records (where a failed write is cut back to). */
  private size: number;

  /** Why an earlier write failed: nothing more is written after it. */
  private failed: unknown;

  constructor(
    readonly path: string,
    readonly columns: readonly string[],
    append = false,
    private readonly writeBytes: WriteBytes = writeSync,
  ) {
    if (!append) refuseInputAsOutput(path);
    mkdirSync(dirname(path), { recursive: true });
    let scan: CsvScan | undefined;
    if (append && existsSync(path) && statSync(path).size > 0) {
      scan = scanCsvFile(path, () => {}, { context: 'cannot resume: ' });
      if (scan.columns.length === 0) scan = undefined;
      else if (scan.validBytes < statSync(path).size) truncateSync(path, scan.validBytes);
    }
    this.eol = scan?.crlf ? '\r\n' : '\n';
    // A named pipe (`--out /dev/stdout` into `| …`) opens once its reader is there: Ctrl-C works meanwhile.
    this.fd = openMayWait(path, scan ? 'a' : 'w');
    this.size = scan ? fstatSync(this.fd).size : 0;
    try {
      if (!scan) this.append(this.line(columns));
      else if (!scan.lastEol) this.append(this.eol); // a last record saved without its line end
    } catch (err) {
      closeSync(this.fd);
      this.fd = -1;
      throw err;
    }
  }

  private line(values: readonly unknown[]): string {
    return csvRecord(values, this.eol);
  }

  /**
   * Writes all of `text`: writeSync may write only part of it (a nearly full disk), so the rest is
   * written after it. When a write fails, what was written of `text` is cut off again, so that no
   * torn record sits in the file for a later row to be glued onto.
   */
  private append(text: string): void {
    if (this.failed !== undefined) throw this.failed;
    // Another process wrote, cut or removed the file since (a run that took over the lock of this
    // one while it was stopped, a folder removed): a row written now would land over its rows or in
    // no file at all.
    const now = fstatSync(this.fd);
    if (now.isFile() && (now.nlink === 0 || now.size !== this.size)) {
      this.failed = Object.assign(new Error(now.nlink === 0 ? 'the file was removed while the run wrote it' : 'another process wrote the file while the run wrote it'), { code: 'ECHANGED' });
      throw this.failed;
    }
    const bytes = Buffer.from(text, 'utf8');
    try {
      // A pipe whose reader stopped reading blocks the write: Ctrl-C must still end the run.
      if (now.isFIFO()) withDefaultStopSignals(() => writeAll(this.fd, bytes, 0, bytes.length, this.writeBytes));
      else writeAll(this.fd, bytes, 0, bytes.length, this.writeBytes);
    } catch (err) {
      this.failed = err;
      try {
        ftruncateSync(this.fd, this.size);
      } catch {
        // Not a regular file (a device): nothing to cut back. A reader drops a torn last record anyway.
      }
      throw err;
    }
    this.size += bytes.length;
  }

  /** Appends one record, its values in column order; throws when it cannot be written whole (nothing of it stays). */
  write(values: readonly unknown[]): void {
    this.append(this.line(values));
  }

  close(): void {
    if (this.fd < 0) return;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = -1;
  }
}

// ---------- reading whole files into records ----------

/** A CSV read back: `lines[i]` is the file line where `records[i]` starts. */
export interface ParsedCsv {
  columns: string[];
  /** How the file was written (read either way; only UTF-8 may be appended to). */
  encoding: CsvEncoding;
  records: CsvRecord[];
  lines: number[];
  /** 1 when a torn last record was dropped. */
  dropped: number;
}

/** Collects records; with `only`, just those columns. */
function collect(only?: ReadonlySet<string>): { records: CsvRecord[]; lines: number[]; header: (columns: readonly string[]) => void; visit: (row: CsvRow) => void } {
  const records: CsvRecord[] = [];
  const lines: number[] = [];
  let columns: readonly string[] = [];
  const visit = (row: CsvRow) => {
    const record: CsvRecord = {};
    columns.forEach((c, i) => {
      if (only && !only.has(c)) return;
      // A column named __proto__ is a field like any other.
      if (c === '__proto__') Object.defineProperty(record, c, { value: row.fields[i]!, enumerable: true, writable: true, configurable: true });
      else record[c] = row.fields[i]!;
    });
    records.push(record);
    lines.push(row.line);
  };
  return { records, lines, header: (cols) => (columns = cols), visit };
}

/** Reads CSV text with a header into records (see the rules at the top of this file); errors are CsvSyntaxError. */
export function parseCsv(text: string): ParsedCsv {
  const c = collect();
  const result = scanCsvText(text, c.visit, c.header);
  return { columns: result.columns, encoding: result.encoding, records: c.records, lines: c.lines, dropped: result.dropped };
}

/**
 * A CSV file given on the command line, read into records (in chunks, never as one string), or one
 * line naming it: `FILE:0: cannot read the file (…)`, or `FILE:LINE: <context>…` at a malformed
 * record. With `only`, records hold just those columns (what a large file can afford: --resume).
 */
export function readCsvInput(path: string, context = '', only?: readonly string[]): ParsedCsv {
  const keep = only ? new Set(only) : undefined;
  let c = collect(keep);
  const result = scanCsvFile(path, (row) => c.visit(row), {
    header: (cols) => c.header(cols),
    context,
    restart: () => (c = collect(keep)),
  });
  return { columns: result.columns, encoding: result.encoding, records: c.records, lines: c.lines, dropped: result.dropped };
}

/** readCsvInput without a context. */
export const readCsv = (path: string): ParsedCsv => readCsvInput(path);

/** Throws `FILE:1: not a run CSV (no … columns)` unless `columns` holds every `needed` one. */
export function requireColumns(path: string, columns: readonly string[], needed: readonly string[]): void {
  const missing = needed.filter((c) => !columns.includes(c));
  if (missing.length > 0) throw new InputError(path, 1, `not a run CSV (no ${missing.join(', ')} column${missing.length > 1 ? 's' : ''})`);
}

/** A value of a run CSV that breaks its column's rule; readers add the file and line. */
export class CsvValueError extends Error {}

/** A plain decimal: digits, an optional fraction; no exponent, hex, padding, `Infinity` or `+`. */
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * A number as a plain decimal, the form csvNumber reads: String() writes 1e-7 and 1e21 with an
 * exponent, this writes 0.0000001 and 1000000000000000000000 (the same shortest digits, so the
 * value reads back exactly). NaN and ±Infinity stay as String() writes them.
 */
export function plainDecimal(n: number): string {
  const text = String(n);
  const e = text.indexOf('e');
  if (e < 0) return text;
  const sign = text.startsWith('-') ? '-' : '';
  const mantissa = text.slice(sign.length, e);
  const point = mantissa.indexOf('.');
  const digits = mantissa.replace('.', '');
  // Where the decimal point falls among the digits.
  const at = (point < 0 ? mantissa.length : point) + Number(text.slice(e + 1));
  if (at <= 0) return `${sign}0.${'0'.repeat(-at)}${digits}`;
  if (at >= digits.length) return `${sign}${digits}${'0'.repeat(at - digits.length)}`;
  return `${sign}${digits.slice(0, at)}.${digits.slice(at)}`;
}

/**
 * A number read from a run CSV (times, counters, indices): NaN for an empty value, else a plain
 * decimal (a whole number when `whole`) of at least `min`, or a CsvValueError
 * `column time_ms: "1e3" is not a plain decimal`.
 */
export function csvNumber(column: string, text: string, whole: boolean, min: number): number {
  if (text === '') return NaN;
  const fail = (why: string) => new CsvValueError(`column ${column}: "${clip(text)}" ${why}`);
  if (!PLAIN_DECIMAL.test(text)) throw fail('is not a plain decimal');
  if (whole && text.includes('.')) throw fail('is not a whole number');
  const n = Number(text);
  if (!Number.isFinite(n) || (whole && !Number.isSafeInteger(n))) throw fail('is out of range');
  if (n < min) throw fail(`is below ${min}`);
  return n;
}
